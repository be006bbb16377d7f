/**
 * Today in the daily trend. The daily report has no figures of a day before it is computed, so
 * the trend's last day with figures is at most yesterday; today's point comes from the realtime
 * report (every hit counted so far, invalid traffic included: docs/metrics.md) and is marked
 * partial in the chart and the table.
 */
import type { ReportItem } from '../../../engine/contract/models-reports'
import { addDays } from '../campaign/dates'
import { sumMetric, summable } from './items'
import type { ReportParams } from './rules'
import type { TableData } from './table'
import type { TrendPoint } from './rows-census'

/** What decides whether the trend shows today: the campaign's dates, the cut-off date and the engine's today. */
export interface TodayScope {
  start: string
  end: string
  cutoff: string
  today: string
}

/**
 * The realtime request of today's point, or null when the trend shows none: today outside the
 * campaign, a cut-off before yesterday (the trend stops earlier), or rows realtime does not have
 * (keywords, target or stable audiences, provinces and cities).
 */
export function todayRequest(params: ReportParams, s: TodayScope): Record<string, string> | null {
  if (s.today < s.start || s.today > s.end || s.cutoff < addDays(s.today, -1)) return null
  if ((params.by_audience ?? 'overall') !== 'overall' || (params.by_region ?? 'level0') !== 'level0' || params.region_id !== undefined) return null
  const position = String(params.by_position ?? 'campaign')
  if (!['campaign', 'publisher', 'spot'].includes(position)) return null
  const list = (v: ReportParams[string]) => (Array.isArray(v) ? v.join(',') : v === undefined ? undefined : String(v))
  const out: Record<string, string | undefined> = {
    campaign_id: String(params.campaign_id), date: s.today, metrics: 'day', by_position: position,
    platform: String(params.platform ?? 'pc'), publisher_id: list(params.publisher_id), spot_id: list(params.spot_id),
  }
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string] => e[1] !== undefined))
}

/** The points with today's realtime figures (impressions and clicks of the day so far) put in, marked partial. */
export function withToday(points: readonly TrendPoint[], today: string, items: readonly ReportItem[] | null): TrendPoint[] {
  if (!items) return [...points]
  const rows = summable(items, 'level0', false)
  const value = (m: string) => sumMetric(rows, m) ?? 0
  return points.map((p) => (p.date === today ? { ...p, imp_day: value('imp_day'), clk_day: value('clk_day'), uim_day: null, ucl_day: null, partial: true } : p))
}

/** The table with the partial row's figures flagged, the reason on hover and in exports. */
export function flagPartial(table: TableData, points: readonly TrendPoint[], reason: string): TableData {
  const partial = new Set(points.filter((p) => p.partial).map((p) => p.date))
  return { ...table, rows: table.rows.map((r) => (partial.has(r.key) ? { ...r, warn: { ...r.warn, imp_day: reason, clk_day: reason } } : r)) }
}
