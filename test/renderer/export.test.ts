// renderer/src/utils/export.ts: CSV and XLSX out, and back in
import { describe, expect, it } from 'vitest'
import { parseCsv, readTable, safeFileName, toCsv, toXlsx, type ExportColumn } from '../../renderer/src/utils/export'

interface Row { name: string; imp: number; note?: string }
const columns: ExportColumn<Row>[] = [
  { title: 'Name', value: (r) => r.name },
  { title: 'Impressions', value: (r) => r.imp },
  { title: 'Note', value: (r) => r.note },
]
const rows: Row[] = [
  { name: '北京 "首页", 焦点图', imp: 1200, note: 'a\nb' },
  { name: 'Plain', imp: 0 },
]

describe('toCsv', () => {
  it('quotes commas, quotes and new lines, and leaves missing values empty', () => {
    const csv = toCsv(columns, rows)
    expect(csv.split('\r\n')[0]).toBe('Name,Impressions,Note')
    expect(parseCsv(csv)).toEqual([['Name', 'Impressions', 'Note'], ['北京 "首页", 焦点图', '1200', 'a\nb'], ['Plain', '0', '']])
  })
})

describe('toXlsx', () => {
  it('writes a workbook that reads back with the same cells, numbers as numbers', async () => {
    const blob = await toXlsx(columns, rows, 'Report')
    expect(blob.size).toBeGreaterThan(1000)
    const back = await readTable(blob, 'x.xlsx')
    expect(back[0]).toEqual(['Name', 'Impressions', 'Note'])
    expect(back[1]).toEqual(['北京 "首页", 焦点图', '1200', 'a\nb'])
    expect(back[2]?.slice(0, 2)).toEqual(['Plain', '0'])
  })
})

describe('parseCsv and readTable', () => {
  it('reads tab-separated text pasted from a spreadsheet', () => {
    expect(parseCsv('a\tb\n1\t2\n\n')).toEqual([['a', 'b'], ['1', '2']])
  })

  it('drops a byte-order mark from a CSV file', async () => {
    expect(await readTable(new Blob(['\ufeffx,y\n1,2']), 'f.csv')).toEqual([['x', 'y'], ['1', '2']])
  })
})

describe('safeFileName', () => {
  it('removes path and reserved characters', () => {
    expect(safeFileName('a/b:c*?"<>|d')).toBe('a_b_c_d')
    expect(safeFileName('  ')).toBe('export')
  })
})
