/**
 * The snapshot pull form (sync.snapshots_pull): a report, a remote campaign, a date or a date
 * range, and the report's breakdowns. The breakdown choices and the validity of combinations
 * come from the report endpoints' own codecs and rules (reports/rules.ts), as on the report
 * screens. Pure.
 */
import { MAX_SNAPSHOT_DAYS, SNAPSHOT_REPORTS, type SnapshotReport } from '../../../engine/contract/endpoints-sync'
import { allowedValues, defaultOf, problemOf, takes, type ReportId } from '../reports/rules'

/** Reports whose answers can be kept as snapshots, in the engine's order. */
export const SNAPSHOT_REPORT_NAMES = Object.keys(SNAPSHOT_REPORTS) as SnapshotReport[]

/** Breakdowns offered as pickers (those the report takes). */
export const BREAKDOWNS = ['by_position', 'by_audience', 'by_region', 'platform', 'filtration_type', 'metrics'] as const
export type Breakdown = (typeof BREAKDOWNS)[number]

export interface SnapshotForm {
  report: SnapshotReport
  campaign_id: string | null
  /** YYYY-MM-DD. */
  from: string | null
  /** YYYY-MM-DD; null or equal to `from`: one date. */
  to: string | null
  /** Breakdown values; a missing one is the report's default. */
  options: Partial<Record<Breakdown, string>>
}

/** The report endpoint behind a snapshot report name. */
export const reportIdOf = (r: SnapshotReport): ReportId => `reports.${r}` as ReportId

/** The breakdowns the report takes, each with its values and its default. */
export function breakdownsOf(r: SnapshotReport): { name: Breakdown; values: readonly string[]; fallback: string }[] {
  const id = reportIdOf(r)
  return BREAKDOWNS.filter((n) => takes(id, n) && allowedValues(id, n).length > 0).map((name) => ({
    name, values: allowedValues(id, name), fallback: String(defaultOf(id, name) ?? allowedValues(id, name)[0]),
  }))
}

/** The breakdown values sent: those the report takes and that differ from its defaults. */
function chosen(f: SnapshotForm): [Breakdown, string][] {
  return breakdownsOf(f.report)
    .map(({ name, values, fallback }) => [name, f.options[name], values, fallback] as const)
    .filter(([, v, values, fallback]) => v !== undefined && values.includes(v) && v !== fallback)
    .map(([name, v]) => [name, v!])
}

const dayNumber = (d: string): number => Date.parse(`${d}T00:00:00Z`) / 86_400_000

/** Why the form cannot be sent: an i18n key under `sync.snap.rule` (or the API's own message), or null. */
export function snapshotProblem(f: SnapshotForm): { key: string; message?: string } | null {
  if (!f.campaign_id) return { key: 'campaign' }
  if (!f.from) return { key: 'date' }
  if (f.to && f.to !== f.from) {
    const span = dayNumber(f.to) - dayNumber(f.from)
    if (span < 0) return { key: 'order' }
    if (span + 1 > MAX_SNAPSHOT_DAYS) return { key: 'span' }
  }
  const message = problemOf(reportIdOf(f.report), Object.fromEntries(chosen(f)))
  return message ? { key: 'api', message } : null
}

/** The parameters of sync.snapshots_pull (params as the report's own query string). */
export function snapshotParams(profileId: string, f: SnapshotForm): Record<string, string> {
  const q = new URLSearchParams({ campaign_id: f.campaign_id ?? '', date: f.from ?? '' })
  for (const [k, v] of chosen(f)) q.set(k, v)
  const out: Record<string, string> = { profile_id: profileId, report: f.report, params: q.toString() }
  if (f.to && f.to !== f.from) out.to_date = f.to
  return out
}

/** The number of snapshots a pull would fetch (one per date). */
export function snapshotCount(f: SnapshotForm): number {
  if (!f.from) return 0
  if (!f.to || f.to === f.from) return 1
  return Math.max(0, dayNumber(f.to) - dayNumber(f.from) + 1)
}

/** The stored parameters (a sorted query string) in words: "by_position=spot, metrics=all", or '' for none. */
export function paramsLabel(params: string): string {
  return [...new URLSearchParams(params).entries()].map(([k, v]) => `${k}=${v}`).join(', ')
}

/**
 * The dates offered for a campaign: from its start to its end, or to `today` when it has not
 * ended, at most MAX_SNAPSHOT_DAYS dates (the last ones); null when the dates are unknown or the
 * campaign starts after today.
 */
export function defaultRange(start: string, end: string, today: string): { from: string; to: string } | null {
  const iso = /^\d{4}-\d{2}-\d{2}$/
  if (!iso.test(start) || !iso.test(end) || !iso.test(today) || start > today) return null
  const to = end < today ? end : today
  const from = dayNumber(to) - dayNumber(start) + 1 > MAX_SNAPSHOT_DAYS ? new Date((dayNumber(to) - MAX_SNAPSHOT_DAYS + 1) * 86_400_000).toISOString().slice(0, 10) : start
  return { from, to }
}

/** What the pull form keeps of a profile between visits of the page: the campaign and its dates. */
export type SnapshotChoice = {
  campaign_id: string | null
  from: string | null
  to: string | null
}

/**
 * The dates the form shows for a campaign chosen: those chosen for it before (kept between visits
 * of the page) when it is the campaign they were chosen for, else its defaultRange: leaving the
 * page and coming back keeps the dates chosen.
 */
export function rangeFor(campaign: { value: string; start: string; end: string } | undefined, kept: SnapshotChoice, today: string): { from: string | null; to: string | null } | null {
  if (!campaign) return null
  if (kept.campaign_id === campaign.value && (kept.from !== null || kept.to !== null)) return { from: kept.from, to: kept.to }
  return defaultRange(campaign.start, campaign.end, today)
}

/** The report screens' message keys of each breakdown: the picker's label and its values' names. */
const BREAKDOWN_KEYS: Record<Breakdown, { label: string; values: string }> = {
  by_position: { label: 'picker.position', values: 'position' },
  by_audience: { label: 'picker.audience', values: 'audience' },
  by_region: { label: 'picker.level', values: 'level' },
  platform: { label: 'picker.platform', values: 'platform' },
  filtration_type: { label: 'picker.filtration', values: 'filtration' },
  metrics: { label: 'picker.period', values: 'period' },
}

/**
 * A breakdown picker's label and its values' names as the report screens show them
 * (`reports.picker.*`, `reports.position.*`, ...). A value the screens do not name (a metrics
 * set such as `acc_hrs`) keeps its API code; the report's default is marked.
 */
export function breakdownLabels(
  name: Breakdown, values: readonly string[], fallback: string, t: (key: string) => string, has: (key: string) => boolean,
): { label: string; names: Record<string, string> } {
  const keys = BREAKDOWN_KEYS[name]
  const names = Object.fromEntries(values.map((v) => {
    const key = `reports.${keys.values}.${v}`
    const shown = has(key) ? t(key) : v
    return [v, v === fallback ? `${shown} (${t('sync.snap.default')})` : shown]
  }))
  return { label: t(`reports.${keys.label}`), names }
}
