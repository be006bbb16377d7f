// renderer/src/utils/export.ts: CSV and XLSX out, and back in
import { describe, expect, it } from 'vitest'
import readXlsx from 'read-excel-file/universal'
import { parseCsv, readTable, safeFileName, toCsv, toXlsx, xlsxCell, type ExportColumn } from '../../renderer/src/utils/export'

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

describe('toCsv: spreadsheet formula injection (OWASP)', () => {
  it("prefixes text cells that begin with =, +, -, @, a tab or a CR with ', and leaves numbers as they are", () => {
    const cols: ExportColumn<{ v: string | number }>[] = [{ title: 'v', value: (r) => r.v }]
    const csv = toCsv(cols, ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(1+1)', '\tTAB', 'plain', -5, 0].map((v) => ({ v })))
    expect(parseCsv(csv).slice(1).map((r) => r[0])).toEqual([`'=HYPERLINK("http://x","y")`, "'+1+1", "'-2+3", "'@SUM(1+1)", "'\tTAB".trim(), 'plain', '-5', '0'])
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

  it('writes the days of a date column as dates shown yyyy-mm-dd, and leaves look-alike text elsewhere as text', async () => {
    const days: ExportColumn<{ day: string }>[] = [{ title: 'Date', value: (r) => r.day, date: true }, { title: 'Name', value: (r) => r.day }]
    const sheets = await readXlsx(await toXlsx(days, [{ day: '2026-11-26' }, { day: 'total' }], 'Trend'))
    expect(sheets[0]!.sheet).toBe('Trend')
    const [, first, second] = sheets[0]!.data
    expect(first![0]).toEqual(new Date(Date.UTC(2026, 10, 26)))
    expect(first![1]).toBe('2026-11-26')
    expect(second).toEqual(['total', 'total'])
    // the cell carries a date format, so a spreadsheet shows the day rather than its serial number
    expect(xlsxCell(days[0]!, { day: '2026-11-26' })).toMatchObject({ type: Date, format: 'yyyy-mm-dd' })
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

  it('keeps the end of a long name (the view, date and choices) and cuts the middle of the campaign name, within 180 UTF-8 bytes', () => {
    const name = `${'海飞丝 Head & Shoulders 2026 春季新品上市 全国数字媒体整合营销 Campaign — Tencent iQIYI Douyin Weibo'.repeat(2)} 2026-11-25 Daily trend (1) pc net overall level0 keyword all`
    const a = safeFileName(name)
    expect(new TextEncoder().encode(a).length).toBeLessThanOrEqual(180)
    expect(a.startsWith('海飞丝 Head')).toBe(true)
    expect(a.endsWith('2026-11-25 Daily trend (1) pc net overall level0 keyword all')).toBe(true)
    expect(a).toContain('…')
    // two exports differing only in their last choice keep two names (an 80-character cut gave one)
    expect(safeFileName(name.replace('keyword', 'campaign'))).not.toBe(a)
    expect(safeFileName('short name 2026-11-25')).toBe('short name 2026-11-25')
  })
})
