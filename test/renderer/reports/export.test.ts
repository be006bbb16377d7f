// renderer/src/reports/export.ts: exports carry their parameters and the small-sample flags
import { describe, expect, it } from 'vitest'
import readXlsx from 'read-excel-file/universal'
import { exportColumns, exportFileName, exportParams, reportCsv, reportXlsx, type ExportMeta } from '../../../renderer/src/reports/export'
import { metricColumn, textColumn, type TableData } from '../../../renderer/src/reports/table'
import { parseCsv } from '../../../renderer/src/utils/export'
import { trendTable } from '../../../renderer/src/reports/rows-census'
import { t } from './fixtures'

const meta: ExportMeta = {
  campaignId: '7', campaignName: 'Spring', source: 'local', report: 'reports.reach_show',
  params: { metrics: 'all', campaign_id: '7', date: '2026-03-05', by_position: 'spot', spot_id: '1,2', platform: 'pc', by_audience: 'target', filtration_type: 'net', by_region: 'level0' },
}
const data: TableData = {
  columns: [textColumn('row', 'Row'), metricColumn(t, 'rch_acc_p01')],
  rows: [{ key: '0', cells: { row: 'A', rch_acc_p01: 1200 }, warn: { rch_acc_p01: 'small' } }, { key: '1', cells: { row: 'B', rch_acc_p01: 5 } }],
}

describe('report exports', () => {
  it('lists the parameters behind the table, the main ones first', () => {
    expect(exportParams(meta).map(([k]) => k)).toEqual(['campaign_name', 'report', 'source', 'campaign_id', 'date', 'platform', 'filtration_type', 'by_audience', 'by_region', 'by_position', 'spot_id', 'metrics'])
    expect(exportFileName('Spring 2026-03-05 Reach', meta)).toBe('Spring 2026-03-05 Reach (7) pc net target level0 spot all')
  })

  it('keeps the small-sample flags as a column', () => {
    const cols = exportColumns(data, t)
    expect(cols.map((c) => c.title)).toEqual(['Row', 'reports.measure.rch · 1+ (rch_acc_p01)', '⚠ reports.export.flags'])
    expect(data.rows.map((r) => cols[2]!.value(r))).toEqual(['⚠ reports.measure.rch · 1+ (rch_acc_p01): small', null])
  })

  it('writes the parameters as # lines above the CSV table', () => {
    const lines = reportCsv(data, meta, t).split('\r\n')
    expect(lines[0]).toBe('# campaign_name: Spring')
    expect(lines).toContain('# by_audience: target')
    const table = parseCsv(lines.join('\r\n')).filter((r) => !r[0]!.startsWith('#'))
    expect(table[0]).toEqual(['Row', 'reports.measure.rch · 1+ (rch_acc_p01)', '⚠ reports.export.flags'])
    expect(table[1]).toEqual(['A', '1200', '⚠ reports.measure.rch · 1+ (rch_acc_p01): small'])
  })

  it('writes each parameter line as one CSV field: a name with a comma or a quote neither splits it nor opens a quote over the file', () => {
    const named = { ...meta, campaignName: 'Spring,"sale =1+1' }
    const text = reportCsv(data, named, t)
    const records = parseCsv(text)
    expect(records[0]).toEqual(['# campaign_name: Spring,"sale =1+1'])
    expect(records.find((r) => r[0] === '# spot_id: 1,2')).toEqual(['# spot_id: 1,2'])
    expect(records.at(-1)).toEqual(['B', '5', ''])
  })

  it('writes the trend table\'s days as dates in XLSX, and as they are in CSV', async () => {
    const points = [{ date: '2026-03-05', plan_imp: 10, plan_clk: null, imp_day: 9, clk_day: 1, uim_day: 8, ucl_day: 1 }]
    const trend = trendTable(points, t)
    const sheets = await readXlsx(await reportXlsx(trend, meta, t, 'Trend'))
    expect(sheets[0]!.data[1]![0]).toEqual(new Date(Date.UTC(2026, 2, 5)))
    expect(parseCsv(reportCsv(trend, meta, t)).at(-1)![0]).toBe('2026-03-05')
  })

  it('puts the parameters on a second XLSX sheet', async () => {
    const sheets = await readXlsx(await reportXlsx(data, meta, t, '到达'))
    expect(sheets.map((s) => s.sheet)).toEqual(['到达', 'reports.export.parameters'])
    expect(sheets[1]!.data).toContainEqual(['spot_id', '1,2'])
    expect(sheets[0]!.data[1]).toEqual(['A', 1200, '⚠ reports.measure.rch · 1+ (rch_acc_p01): small'])
  })
})
