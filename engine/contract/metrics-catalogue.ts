/**
 * The report metrics (spec §4.4, docs/metrics.md): each metric's wire name, meaning, the reports
 * and `metrics=` groups that answer it, its unit, what computes it and its label in the app. The
 * report kernels take their metric lists from here (in this order, which is the answers' key
 * order), docs/metrics.md's catalogue table is rendered from it, and the app labels its columns
 * with its keys. It lives in the contract so that the renderer may read it too.
 */

/** The report endpoints that answer metrics, by the short name the catalogue uses. */
export const METRIC_REPORTS = {
  basic: 'reports.basic_show',
  realtime: 'reports.realtime_show',
  reach: 'reports.reach_show',
  audience_overview: 'reports.audience_show_overview',
  audience: 'reports.audience_show',
  minisite: 'reports.basic_show_minisite',
  realtime_minisite: 'reports.realtime_show_minisite',
} as const

export type MetricReport = keyof typeof METRIC_REPORTS

/** What a figure counts. */
export type MetricUnit = 'hits' | 'identities' | 'persons' | 'projected hits' | 'projected persons' | 'percent' | 'index' | 'GRP points'

/** One metric, or a family of 24 hours (`HH`, 00–23) or 10 frequencies (`NN`, 01–10). */
export interface MetricDef {
  /** The wire name; `HH` or `NN` at the end stands for the hour or the frequency. */
  readonly name: string
  /** One line, English. */
  readonly meaning: string
  /** The reports that answer it, each with the value of its `metrics` parameter that selects it (besides `all`). */
  readonly reports: Readonly<Partial<Record<MetricReport, string>>>
  readonly unit: MetricUnit
  /** What computes it: a counter of the census (reports/census.ts CensusResult), of realtime or minisite, or the panel. */
  readonly counter: string
  /** Its label in the app (renderer i18n): `reports.measure.<measure>`, with `sample` as `reports.measure.spl` of it, and `reports.period.<period>` unless '' (an hour or a frequency follows). */
  readonly label: MetricLabel
}

/** The i18n keys of a metric's label. */
export interface MetricLabel {
  readonly measure: string
  readonly period: string
  readonly sample?: boolean
}

const def = (name: string, meaning: string, reports: MetricDef['reports'], unit: MetricUnit, counter: string, measure: string, period: string): MetricDef =>
  ({ name, meaning, reports, unit, counter, label: period === 'spl' ? { measure, period: '', sample: true } : { measure, period } })

/** Every report metric, in the order answers list them. */
export const METRICS: readonly MetricDef[] = [
  def('imp_acc', 'impressions in the window (reach: projected from the panel)', { basic: 'acc', reach: 'acc' }, 'hits', 'census imp; reach: panel exposures x weight x k', 'imp', 'acc'),
  def('clk_acc', 'clicks in the window', { basic: 'acc' }, 'hits', 'census clk', 'clk', 'acc'),
  def('uim_acc', 'distinct identities with an impression in the window (audience overview: projected persons)', { basic: 'acc', audience_overview: 'acc' }, 'identities', 'census uim; audience overview: panel persons x weight x k', 'uim', 'acc'),
  def('ucl_acc', 'distinct identities with a click in the window (audience overview: projected persons)', { basic: 'acc', audience_overview: 'acc' }, 'identities', 'census ucl; audience overview: panel persons x weight x k', 'ucl', 'acc'),
  def('imp_day', 'impressions on day D (realtime: every class, bots too)', { basic: 'day', realtime: 'day' }, 'hits', 'census impDay; realtime: its day counter', 'imp', 'day'),
  def('clk_day', 'clicks on day D (realtime: every class, bots too)', { basic: 'day', realtime: 'day' }, 'hits', 'census clkDay; realtime: its day counter', 'clk', 'day'),
  def('uim_day', 'distinct identities with an impression on day D', { basic: 'day' }, 'identities', 'census uimDay', 'uim', 'day'),
  def('ucl_day', 'distinct identities with a click on day D', { basic: 'day' }, 'identities', 'census uclDay', 'ucl', 'day'),
  def('imp_avg_day', 'impressions in the window / days, rounded half up', { basic: 'avg_day' }, 'hits', 'census imp / days', 'imp', 'avg_day'),
  def('clk_avg_day', 'clicks in the window / days, rounded half up', { basic: 'avg_day' }, 'hits', 'census clk / days', 'clk', 'avg_day'),
  def('uim_avg_day', "the sum of each day's distinct identities with an impression / days, rounded half up", { basic: 'avg_day' }, 'identities', 'census uimDays / days', 'uim', 'avg_day'),
  def('ucl_avg_day', "the sum of each day's distinct identities with a click / days, rounded half up", { basic: 'avg_day' }, 'identities', 'census uclDays / days', 'ucl', 'avg_day'),
  def('imp_acc_hHH', 'impressions in the window during hour HH of the day', { basic: 'acc_hrs' }, 'hits', 'census impHour', 'imp', 'acc'),
  def('clk_acc_hHH', 'clicks in the window during hour HH of the day', { basic: 'acc_hrs' }, 'hits', 'census clkHour', 'clk', 'acc'),
  def('imp_hHH', 'impressions on day D during hour HH, every class', { realtime: 'hrs' }, 'hits', 'realtime hour counter', 'imp', ''),
  def('clk_hHH', 'clicks on day D during hour HH, every class', { realtime: 'hrs' }, 'hits', 'realtime hour counter', 'clk', ''),
  def('grp_acc', '100 x projected impressions / universe, rounded', { reach: 'acc' }, 'GRP points', 'panel: projected impressions / universe', 'grp', 'acc'),
  def('rch_acc_pNN', 'projected persons with at least NN exposures in the window', { reach: 'acc' }, 'projected persons', 'panel: persons x weight x k', 'rch', 'acc'),
  def('rch_spl_pNN', 'the panel persons behind rch_acc_pNN (unweighted sample)', { reach: 'spl' }, 'persons', 'panel: persons', 'rch', 'spl'),
  def('uim_spl', 'the panel persons behind uim_acc (unweighted sample)', { audience_overview: 'spl' }, 'persons', 'panel: persons', 'uim', 'spl'),
  def('ucl_spl', 'the panel persons behind ucl_acc (unweighted sample)', { audience_overview: 'spl' }, 'persons', 'panel: persons', 'ucl', 'spl'),
  def('uim_pct', "a tag's share of the projected persons with an impression, whole percent", { audience: 'pct' }, 'percent', 'panel: persons x weight x k, by tag', 'uim', 'pct'),
  def('ucl_pct', "a tag's share of the projected persons with a click, whole percent", { audience: 'pct' }, 'percent', 'panel: persons x weight x k, by tag', 'ucl', 'pct'),
  def('uim_idx', "uim_pct / the tag's share of the panel x 100", { audience: 'idx' }, 'index', 'panel: persons x weight x k, by tag', 'uim', 'idx'),
  def('ucl_idx', "ucl_pct / the tag's share of the panel x 100", { audience: 'idx' }, 'index', 'panel: persons x weight x k, by tag', 'ucl', 'idx'),
  def('evt_acc', 'minisite events from the first recorded one to day D, bots left out', { minisite: 'acc' }, 'hits', 'minisite event counter', 'evt', 'acc'),
  def('uev_acc', 'distinct identities with a minisite event up to day D', { minisite: 'acc' }, 'identities', 'minisite distinct identities', 'uev', 'acc'),
  def('evt_day', 'minisite events on day D', { minisite: 'day', realtime_minisite: 'day' }, 'hits', 'minisite event counter of the day', 'evt', 'day'),
  def('uev_day', 'distinct identities with a minisite event on day D', { minisite: 'day' }, 'identities', 'minisite distinct identities of the day', 'uev', 'day'),
  def('evt_hHH', 'minisite events on day D during hour HH', { realtime_minisite: 'hrs' }, 'hits', 'minisite event counter of the hour', 'evt', ''),
]

const two = (n: number) => String(n).padStart(2, '0')

/** The wire names of a metric: itself, or its 24 hours (h00–h23) or 10 frequencies (p01–p10). */
export function wireNames(m: MetricDef): string[] {
  if (m.name.endsWith('HH')) return Array.from({ length: 24 }, (_, h) => `${m.name.slice(0, -2)}${two(h)}`)
  if (m.name.endsWith('NN')) return Array.from({ length: 10 }, (_, i) => `${m.name.slice(0, -2)}${two(i + 1)}`)
  return [m.name]
}

/**
 * The wire names a report answers for one `metrics` group (every group when none is given), in
 * catalogue order. The same array for the same question: the kernels' answer writers cache by it.
 */
export function metricNames(report: MetricReport, group?: string): readonly string[] {
  const key = `${report}|${group ?? ''}`
  let names = NAMES.get(key)
  if (names === undefined) {
    names = Object.freeze(METRICS.filter((m) => m.reports[report] !== undefined && (group === undefined || m.reports[report] === group)).flatMap(wireNames))
    NAMES.set(key, names)
  }
  return names
}
const NAMES = new Map<string, readonly string[]>()

/** The wire names of the catalogue's metric `name` (a family's hours or frequencies). */
export function familyNames(name: string): string[] {
  const m = METRICS.find((x) => x.name === name)
  if (m === undefined) throw new Error(`no metric '${name}' in the catalogue`)
  return wireNames(m)
}

/** The catalogue entry of a wire name (`imp_acc_h07` is `imp_acc_hHH`'s), or undefined. */
export function metricOf(wireName: string): MetricDef | undefined {
  return BY_WIRE_NAME.get(wireName)
}
const BY_WIRE_NAME = new Map(METRICS.flatMap((m) => wireNames(m).map((n) => [n, m] as const)))

const cell = (text: string) => text.replaceAll('|', '\\|')

/** The catalogue as the markdown table of docs/metrics.md ("Catalogue"). */
export function catalogueTable(): string {
  const rows = METRICS.map((m) => {
    const reports = Object.entries(m.reports).map(([r, group]) => `${r} (${group})`).join(', ')
    return `| \`${m.name}\` | ${cell(m.meaning)} | ${reports} | ${m.unit} | ${cell(m.counter)} |`
  })
  return ['| metric | meaning | reports (`metrics=`) | unit | computed from |', '|---|---|---|---|---|', ...rows].join('\n')
}
