/**
 * Census views (daily trend, hour of day, region ranking, realtime today): report items to the
 * series the charts draw and the rows of the tables under them. Rows of several positions are
 * added up for impressions and clicks; unique counts only when one row stands behind a figure.
 */
import type { ListSpot } from '../../../engine/contract/models'
import { metricNames } from '../../../engine/contract/metrics-catalogue'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { blankAfter } from './clock'
import { groupBy, HOURS, sumMetric, summable, targetKey } from './items'
import type { Names } from './names'
import { baseOf, flagSmall } from './rows-panel'
import type { ReportParams } from './rules'
import { contextColumn, dateColumn, idColumn, metricColumn, numberColumn, textColumn, type Column, type TableData, type Translate } from './table'

type List = readonly string[] | undefined
const asList = (v: ReportParams[string]): List => (Array.isArray(v) ? v : undefined)

/**
 * The spots whose plans the trend shows: those the request names (spot_id, or the spots of the
 * named keywords or publishers), else every spot of the campaign.
 */
export function plannedSpots(spots: readonly ListSpot[], params: ReportParams): ListSpot[] {
  const spotIds = asList(params.spot_id)
  const keywordIds = asList(params.keyword_id)
  const publisherIds = asList(params.publisher_id)
  return spots.filter((s) =>
    (!spotIds || spotIds.includes(s.spot_id))
    && (!keywordIds || s.keyword.some((k) => keywordIds.includes(String(k.keywordId))))
    && (!publisherIds || publisherIds.includes(s.publisher_id)))
}

/** Planned impressions and clicks per date, summed over spots (list_spots `spot_plan`). */
export function planByDate(spots: readonly ListSpot[]): Map<string, { imp: number; clk: number }> {
  const out = new Map<string, { imp: number; clk: number }>()
  for (const s of spots) for (const d of s.spot_plan ?? []) {
    const cur = out.get(d.date) ?? { imp: 0, clk: 0 }
    out.set(d.date, { imp: cur.imp + d.est_impression, clk: cur.clk + d.est_click })
  }
  return out
}

/** One day of the trend: plan and actual (null where there is none). */
export interface TrendPoint {
  date: string
  plan_imp: number | null
  plan_clk: number | null
  imp_day: number | null
  clk_day: number | null
  uim_day: number | null
  ucl_day: number | null
  /** Today's figures so far, from the realtime report (trend-today.ts). */
  partial?: boolean
}

/** Which rows of a report a total covers: the level and whether one region was chosen. */
export interface RegionScope {
  byRegion: string
  regionChosen: boolean
}

/** The rows a request's totals cover, from its parameters. */
export const regionScopeOf = (params: ReportParams): RegionScope => ({ byRegion: String(params.by_region), regionChosen: params.region_id !== undefined })

/** The trend's points over `dates`: the plan where there is one, the actual figures where a report was loaded. */
export function trendPoints(dates: readonly string[], plan: Map<string, { imp: number; clk: number }>, actual: Map<string, readonly ReportItem[]>, scope: RegionScope): TrendPoint[] {
  return dates.map((date) => {
    const items = actual.get(date)
    const rows = items ? summable(items, scope.byRegion, scope.regionChosen) : null
    const m = (name: string) => (rows ? (sumMetric(rows, name) ?? (rows.length === 0 ? 0 : null)) : null)
    return { date, plan_imp: plan.get(date)?.imp ?? null, plan_clk: plan.get(date)?.clk ?? null, imp_day: m('imp_day'), clk_day: m('clk_day'), uim_day: m('uim_day'), ucl_day: m('ucl_day') }
  })
}

/** The trend's table: a row per date. */
export function trendTable(points: readonly TrendPoint[], t: Translate): TableData {
  const columns: Column[] = [
    dateColumn('date', t('reports.col.date')),
    contextColumn('plan_imp', t('reports.col.planImp'), 'spot_plan.est_impression'),
    metricColumn(t, 'imp_day'),
    contextColumn('plan_clk', t('reports.col.planClk'), 'spot_plan.est_click'),
    metricColumn(t, 'clk_day'),
    metricColumn(t, 'uim_day'),
    metricColumn(t, 'ucl_day'),
  ]
  return { columns, rows: points.map(({ partial: _partial, ...cells }) => ({ key: cells.date, cells })) }
}

/** Hourly figures of one audience group (a target, or '' for overall/stable). */
export interface HourSeries {
  group: string
  imp: (number | null)[]
  clk: (number | null)[]
  /** Day totals (realtime: imp_day, clk_day), when the report has them. */
  impTotal: number | null
  clkTotal: number | null
}

/**
 * Hour-of-day series from report items, per audience group. `hourly` is the metric's stem:
 * `acc_h` for the basic report (imp_acc_hHH), `h` for the realtime one (imp_hHH). Hours after
 * `lastHour` have not come yet (realtime today, clock.ts): blank, not the 0 the API answers.
 */
export function hourSeries(items: readonly ReportItem[], hourly: 'acc_h' | 'h', scope: RegionScope, lastHour = 23): HourSeries[] {
  const rows = summable(items, scope.byRegion, scope.regionChosen)
  return [...groupBy(rows, targetKey)].map(([group, list]) => ({
    group,
    imp: blankAfter(HOURS.map((h) => sumMetric(list, `imp_${hourly}${h}`)), lastHour),
    clk: blankAfter(HOURS.map((h) => sumMetric(list, `clk_${hourly}${h}`)), lastHour),
    impTotal: sumMetric(list, 'imp_day'),
    clkTotal: sumMetric(list, 'clk_day'),
  }))
}

/** The hour table: a row per hour (and a day-total row when the report has totals), columns per group. */
export function hoursTable(series: readonly HourSeries[], hourly: 'acc_h' | 'h', names: Names, t: Translate): TableData {
  const columns: Column[] = [textColumn('hour', t('reports.col.hour'))]
  const suffix = (g: string) => (series.length > 1 || g ? ` · ${names.target(g)}` : '')
  for (const s of series) for (const m of ['imp', 'clk'] as const) {
    const c = metricColumn(t, `${m}_${hourly}00`)
    columns.push({ ...c, key: `${m}|${s.group}`, title: `${t(`reports.measure.${m}`)}${suffix(s.group)}`, hint: `${m}_${hourly}HH` })
  }
  const rows = HOURS.map((h, i) => ({ key: h, cells: Object.fromEntries([['hour', `${h}:00`], ...series.flatMap((s) => [[`imp|${s.group}`, s.imp[i] ?? null], [`clk|${s.group}`, s.clk[i] ?? null]])]) }))
  if (series.some((s) => s.impTotal !== null)) {
    rows.push({ key: 'total', cells: Object.fromEntries([['hour', t('reports.col.dayTotal')], ...series.flatMap((s) => [[`imp|${s.group}`, s.impTotal], [`clk|${s.group}`, s.clkTotal]])]) })
  }
  return { columns, rows }
}

/** One region of a ranking, for one audience group. */
export interface RegionRank {
  region_id: string
  group: string
  universe: number | null
  values: Record<string, number | null>
  /** The panel persons behind a target row's unique figures (its one item's `base`), else null. */
  base?: { uim: number | null; ucl: number | null } | null
}

/** Metrics of the basic report for a period (metrics=acc → imp_acc, ...), from the metric catalogue. */
export const periodMetrics = (period: string): readonly string[] => metricNames('basic', period)

/** Regions with their figures, summed over positions, sorted by `sortBy` (descending, ties by id). */
export function regionRanking(items: readonly ReportItem[], period: string, sortBy: string): RegionRank[] {
  const byCell = groupBy(items, (i) => `${targetKey(i)}|${i.attributes.region_id ?? ''}`)
  const ranks = [...byCell.values()].map((list) => {
    const a = list[0]!.attributes
    return {
      region_id: a.region_id ?? '', group: targetKey(list[0]!), universe: a.universe ?? null,
      values: Object.fromEntries(periodMetrics(period).map((m) => [m, sumMetric(list, m)])),
      // unique figures of several rows are not given (sumMetric), so only one row's base applies
      base: list.length === 1 ? baseOf(list[0]!) : null,
    }
  })
  return ranks.sort((x, y) => (y.values[sortBy] ?? -1) - (x.values[sortBy] ?? -1) || x.region_id.localeCompare(y.region_id))
}

/**
 * The ranking table: rank, region, target (target rows), the period's four figures, universe; a
 * target row's unique figures resting on fewer than 300 panel persons are flagged (rows-panel.ts).
 */
export function regionTable(ranks: readonly RegionRank[], period: string, names: Names, t: Translate): TableData {
  const targets = ranks.some((r) => r.group !== '')
  const columns: Column[] = [
    contextColumn('rank', t('reports.col.rank')), textColumn('region', t('reports.col.region')), idColumn('region_id', t('reports.col.regionId'), 24),
    ...(targets ? [textColumn('target', t('reports.col.target'))] : []),
    ...periodMetrics(period).map((m) => metricColumn(t, m)),
    numberColumn('universe', t('reports.col.universe'), 'universe'),
  ]
  const rank = new Map<string, number>()
  const rows = ranks.map((r) => {
    const n = (rank.get(r.group) ?? 0) + 1
    rank.set(r.group, n)
    const warn = r.base ? flagSmall(t, [r.base.uim, r.base.ucl], [`uim_${period}`, `ucl_${period}`]) : undefined
    return { key: `${r.group}|${r.region_id}`, cells: { rank: n, region: names.region(r.region_id), region_id: r.region_id, ...(targets ? { target: names.target(r.group) } : {}), ...r.values, universe: r.universe }, ...(warn ? { warn } : {}) }
  })
  return { columns, rows }
}
