/**
 * Report exports that carry the choices behind them: the parameters of the request (campaign,
 * date, platform, filtration, audience, region level, position, metrics and the chosen ids), the
 * source, and the small-sample flags (⚠) of the table as a column. CSV: the parameters as `#`
 * lines above the header (read with a comment character of `#`); XLSX: the table, then a second
 * sheet "Parameters".
 */
import writeXlsx from 'write-excel-file/universal'
import type { Params } from '../api/client'
import { csvLine, toCsv, xlsxCell, xlsxWidth, type ExportColumn } from '../utils/export'
import type { Column, TableData, TableRow, Translate } from './table'

/** What an export records besides its table. */
export interface ExportMeta {
  campaignId: string
  campaignName: string
  /** The source of the figures (local measurement or a snapshot). */
  source: string
  /** The request behind the table: its endpoint and parameters as sent. */
  report: string
  params: Params
}

/** The parameters written first, in this order; any other parameter follows. */
const ORDER = ['campaign_id', 'date', 'platform', 'sdk', 'filtration_type', 'by_audience', 'target_id', 'by_region', 'region_id', 'by_position', 'publisher_id', 'spot_id', 'keyword_id', 'metrics', 'panel_id', 'type_id', 'minisite_id', 'limit']

/** The parameter lines of an export: name and value. */
export function exportParams(meta: ExportMeta): [string, string][] {
  const sent = Object.entries(meta.params).filter(([, v]) => v !== undefined && v !== null && v !== '')
  const rank = (k: string) => { const i = ORDER.indexOf(k); return i < 0 ? ORDER.length : i }
  sent.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
  return [['campaign_name', meta.campaignName], ['report', meta.report], ['source', meta.source], ...sent.map(([k, v]): [string, string] => [k, String(v)])]
}

/** The columns of an export: each column's title with its metric name, and a ⚠ column when cells are flagged. */
export function exportColumns(data: TableData, t: Translate): ExportColumn<TableRow>[] {
  const title = (c: Column) => (c.hint && c.hint !== c.title ? `${c.title} (${c.hint})` : c.title)
  const columns: ExportColumn<TableRow>[] = data.columns.map((c) => ({ title: title(c), value: (r) => r.cells[c.key] ?? null, date: c.date }))
  if (!data.rows.some((r) => r.warn)) return columns
  const byKey = new Map(data.columns.map((c) => [c.key, c]))
  const flags = (r: TableRow) => Object.entries(r.warn ?? {}).map(([k, why]) => `⚠ ${byKey.get(k) ? title(byKey.get(k)!) : k}: ${why}`).join('; ')
  return [...columns, { title: `⚠ ${t('reports.export.flags')}`, value: (r) => flags(r) || null }]
}

/** The CSV text: `# name: value` lines, then the table. */
export function reportCsv(data: TableData, meta: ExportMeta, t: Translate): string {
  // (each line one CSV field: a name with a comma or a quote would split the line, or leave a
  // quote open over the whole file)
  const lines = exportParams(meta).map(([k, v]) => csvLine(`# ${k}: ${v.replace(/[\r\n]+/g, ' ')}`))
  return [...lines, toCsv(exportColumns(data, t), data.rows)].join('\r\n')
}

/**
 * The XLSX workbook: the table (numbers as numbers, days as dates, a frozen bold header) on a sheet
 * named `sheet` (the view's name, in the interface's language), then a sheet of the parameters.
 */
export function reportXlsx(data: TableData, meta: ExportMeta, t: Translate, sheet: string): Promise<Blob> {
  const columns = exportColumns(data, t)
  const bold = (value: string) => ({ value, fontWeight: 'bold' as const })
  const body = data.rows.map((r) => columns.map((c) => xlsxCell(c, r)))
  const widths = columns.map((c) => xlsxWidth(c, data.rows))
  const params = exportParams(meta).map(([k, v]) => [bold(k), { value: v, type: String }])
  return writeXlsx([
    { data: [columns.map((c) => bold(c.title)), ...body], sheet: sheet.slice(0, 31), columns: widths, stickyRowsCount: 1 },
    { data: [[bold(t('reports.export.parameter')), bold(t('reports.export.value'))], ...params], sheet: t('reports.export.parameters').slice(0, 31), columns: [{ width: 18 }, { width: 60 }] },
  ]).toBlob()
}

/** The file name of an export: its stem (campaign, date, view), the campaign id and the main choices. */
export function exportFileName(stem: string, meta: ExportMeta): string {
  const p = meta.params
  const parts = [stem, `(${meta.campaignId})`, p.platform, p.filtration_type, p.by_audience, p.by_region, p.by_position, p.metrics]
  return parts.filter((x) => x !== undefined && x !== null && x !== '').map(String).join(' ')
}
