/**
 * Report snapshots as a source of the reports screen (docs/sync.md "Report
 * snapshots"): which stored snapshot answers a report request, and a caller that answers report
 * requests from a snapshot series instead of the API. Pure (the body fetch is injected).
 *
 * A snapshot is keyed by profile, report, campaign id, date and the other parameters as a sorted
 * query string. A request matches when its report and date are the snapshot's and its other
 * parameters are the same once the report's defaults are left out on both sides (the Sync page
 * does not send defaults; the report screen sometimes does). The campaign id is the series' own:
 * a series of another (remote) campaign id can be chosen for a local campaign.
 */
import { endpoints, type EndpointId, type ResultOf } from '../../../engine/contract/endpoints'
import { SERIES_LEFT_OUT, SNAPSHOT_REPORTS, type SnapshotReport } from '../../../engine/contract/endpoints-sync'
import { withoutDefaults } from '../../../engine/contract/params'
import type { Params } from '../api/client'
import { dateRange } from '../campaign/dates'
import type { Caller } from './load'

export type Snapshot = ResultOf<'sync.snapshots_list'>[number]

/** The report screen's source: local measurement, or the snapshots of one campaign id of one profile. */
export type ReportSource = { kind: 'local' } | { kind: 'snapshot'; profile_id: string; campaign_id: string }

const RESERVED = new Set(SERIES_LEFT_OUT)

/** The snapshot report name of a report endpoint id (`reports.basic_show` -> `basic_show`), or null. */
export function snapshotReportOf(id: string): SnapshotReport | null {
  const name = id.startsWith('reports.') ? id.slice('reports.'.length) : ''
  return name in SNAPSHOT_REPORTS ? (name as SnapshotReport) : null
}

/** The parameters other than campaign id and date, defaults left out (the contract's rule, as the engine keys them), as a sorted query string. */
export function normalParams(report: SnapshotReport, params: Params): string {
  const given = Object.fromEntries(Object.entries(params)
    .filter(([k, v]) => v !== undefined && v !== null && v !== '' && !RESERVED.has(k))
    .map(([k, v]) => [k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v)]))
  const kept = Object.entries(withoutDefaults(endpoints[`reports.${report}`].params, given)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return new URLSearchParams(kept).toString()
}

/** A snapshot's stored parameter string, normalised as `normalParams`. */
export const snapshotParams = (s: Snapshot): string => normalParams(s.report, Object.fromEntries(new URLSearchParams(s.params)))

/** The newest snapshot of the series answering `report` on `date` with these parameters, or null. */
export function findSnapshot(series: readonly Snapshot[], report: SnapshotReport, date: string, params: Params): Snapshot | null {
  const wanted = normalParams(report, params)
  let best: Snapshot | null = null
  for (const s of series) {
    if (s.report !== report || s.date !== date || snapshotParams(s) !== wanted) continue
    if (!best || s.fetched_at > best.fetched_at || (s.fetched_at === best.fetched_at && Number(s.snapshot_id) > Number(best.snapshot_id))) best = s
  }
  return best
}

/** Which of two snapshots that answered a view the label names: the later date, then the later fetch. */
export function laterServed(current: Snapshot | null, next: Snapshot): Snapshot {
  if (!current) return next
  return next.date > current.date || (next.date === current.date && next.fetched_at > current.fetched_at) ? next : current
}

/** One choice of the source picker: the snapshots of one campaign id of one profile. */
export interface SeriesOption {
  profile_id: string
  campaign_id: string
  count: number
  /** The newest fetch time of the series. */
  newest: string
  /** Its campaign id is the screen's own. */
  sameId: boolean
}

/** Series of a profile's snapshots by campaign id: the screen's own campaign id first, then by newest fetch. */
export function seriesOptions(profileId: string, snapshots: readonly Snapshot[], campaignId: string): SeriesOption[] {
  const by = new Map<string, SeriesOption>()
  for (const s of snapshots) {
    const o = by.get(s.campaign_id) ?? { profile_id: profileId, campaign_id: s.campaign_id, count: 0, newest: '', sameId: s.campaign_id === campaignId }
    o.count++
    if (s.fetched_at > o.newest) o.newest = s.fetched_at
    by.set(s.campaign_id, o)
  }
  return [...by.values()].sort((a, b) => Number(b.sameId) - Number(a.sameId) || (a.newest < b.newest ? 1 : a.newest > b.newest ? -1 : 0))
}

/** The picker value of a source ('local', or 'profile:campaign') and back. */
export const sourceValue = (s: ReportSource): string => (s.kind === 'local' ? 'local' : `${s.profile_id}:${s.campaign_id}`)
export function readSource(value: unknown): ReportSource {
  const m = typeof value === 'string' ? /^([0-9]+):(.+)$/.exec(value) : null
  return m ? { kind: 'snapshot', profile_id: m[1]!, campaign_id: m[2]! } : { kind: 'local' }
}

/** Thrown for a report request the series holds no snapshot of. */
export class NoSnapshotError extends Error {
  constructor(message: string, readonly report: string, readonly date: string) {
    super(message)
  }
}

export interface SnapshotCallerOptions {
  series: readonly Snapshot[]
  /** The stored answer of a snapshot (sync.snapshots_show's body). */
  body: (s: Snapshot) => Promise<unknown>
  /** Told of every snapshot that answered a request. */
  served?: (s: Snapshot) => void
  /** The message of a request without a snapshot (report is the endpoint's report name). */
  missing: (report: string, date: string) => string
}

/**
 * A caller answering report requests from the series: a snapshot report from its matching snapshot,
 * a range of days (`reports.basic_days`) from the `metrics=day` basic snapshot of each of its days,
 * any other report (minisites, progress) with NoSnapshotError; other endpoints go to `base`.
 */
export function snapshotCaller(base: Caller, o: SnapshotCallerOptions): Caller {
  const one = async (id: EndpointId, params: Params): Promise<unknown> => {
    const report = snapshotReportOf(id)
    const date = String(params.date ?? '')
    const found = report ? findSnapshot(o.series, report, date, params) : null
    if (!found) throw new NoSnapshotError(o.missing(id.slice('reports.'.length), date), id, date)
    const body = await o.body(found)
    o.served?.(found)
    return body
  }
  const call = async (id: EndpointId, params: Params = {}): Promise<unknown> => {
    if (!id.startsWith('reports.')) return base(id, params)
    if (id !== 'reports.basic_days') return one(id, params)
    const { start_date, end_date, ...rest } = params
    const days = dateRange(String(start_date), String(end_date))
    return { reports: await Promise.all(days.map((date) => one('reports.basic_show', { ...rest, date, metrics: 'day' }))) }
  }
  return call as Caller
}
