/**
 * Report snapshots (docs/sync.md): chosen report answers pulled from the remote
 * and kept with their fetch time, `version` and the campaign's progress date. Every fetch is kept
 * (history); each is compared with the previous one of the same report, parameters and date.
 */
import { MAX_SNAPSHOT_DAYS, SERIES_LEFT_OUT, SNAPSHOT_REPORTS, type SnapshotReport } from '../contract/endpoints-sync'
import { endpoints } from '../contract/endpoints'
import { DOOR_PARAMS } from '../contract/envelope'
import { ApiError, badRequest } from '../contract/errors'
import { REPORT_CHECKS } from '../contract/report-rules'
import { decodeParams } from '../request'
import { isDate, withoutDefaults, type Limit } from '../contract/params'
import { dayDate, dayNumber } from '../time-zone'
import type { Db } from '../storage/db'
import {
  insertSnapshot, newestHash, newestIdAndHash, newestSnapshot, snapshotBody, snapshotHead, snapshotsOfList, type SnapshotHead, type SnapshotRow, type SnapshotSeries, type WithPrev,
} from '../storage/repos/sync-snapshots'
import type { RemoteClient } from './client'
import { RemoteError } from './remote-error'
import { diffReports } from './snapshot-diff'
import { canonicalJson, textHash } from './store'

export type { SnapshotRow } from '../storage/repos/sync-snapshots'

export interface SnapshotRequest {
  campaign_id: string
  params: Record<string, string>
  /** Sorted query string of `params` (the key of a series of snapshots). */
  key: string
  dates: string[]
}

const byName = ([a]: [string, string], [b]: [string, string]): number => (a < b ? -1 : a > b ? 1 : 0)

/** The parameters of a series: all but the door's, campaign_id and date, sorted by name. */
const seriesParams = (params: Record<string, string>): [string, string][] => Object.entries(params).filter(([k]) => !SERIES_LEFT_OUT.includes(k)).sort(byName)

/** Parameters as a query string sorted by name (what recorded answers are keyed by). */
export const sortedQuery = (params: Record<string, string>): string => new URLSearchParams(Object.entries(params).sort(byName)).toString()

/** The key of a series of snapshots: its parameters as a sorted query string. */
export const seriesKey = (params: Record<string, string>): string => new URLSearchParams(seriesParams(params)).toString()

/**
 * Refuses report parameters the report would refuse, as the local engine decodes and checks them:
 * a remote refusal would come only after the progress request, and a name the report does not
 * take (a typo) would be sent, ignored, and kept in the series key.
 */
function checkReportParams(report: SnapshotReport, q: URLSearchParams): void {
  const id = `reports.${report}` as const
  const path = SNAPSHOT_REPORTS[report].replace('/admonitor/v1/reports/', '')
  try {
    const { params, ignored } = decodeParams(endpoints[id], new Map([...new Set(q.keys())].map((k) => [k, q.getAll(k)])))
    if (ignored.length > 0) throw badRequest('snapshot.notParam', { param: ignored[0]!, path })
    REPORT_CHECKS[id](params)
  } catch (e) {
    if (e instanceof ApiError && e.problem) throw badRequest('snapshot.refusedBy', { param: 'params', path, reason: e.problem })
    throw e
  }
}

/** Reads `params=campaign_id=..&date=..&...` (and `to_date`) into a request; refuses what would not work. */
export function snapshotRequest(report: SnapshotReport, raw: string, toDate: string | undefined): SnapshotRequest {
  const q = new URLSearchParams(raw.trim().replace(/^\?/, ''))
  const campaign = q.get('campaign_id') ?? ''
  const date = q.get('date') ?? ''
  if (!/^[0-9]{1,18}$/.test(campaign)) throw badRequest('snapshot.needCampaignId', { param: 'params' })
  if (!isDate(date)) throw badRequest('snapshot.needDate', { param: 'params' })
  for (const name of new Set(q.keys())) {
    if ((DOOR_PARAMS as readonly string[]).includes(name)) throw badRequest('snapshot.mustNotHold', { param: 'params', name })
    if (q.getAll(name).length > 1) throw badRequest('snapshot.twice', { param: 'params', name })
  }
  checkReportParams(report, q)
  const params = Object.fromEntries(seriesParams(Object.fromEntries(q)))
  const last = toDate ?? date
  const days = dayNumber(last) - dayNumber(date)
  if (days < 0) throw badRequest('snapshot.toDateBefore', { param: 'to_date', date })
  if (days >= MAX_SNAPSHOT_DAYS) throw badRequest('snapshot.tooManyDays', { param: 'to_date', max: MAX_SNAPSHOT_DAYS })
  const dates = Array.from({ length: days + 1 }, (_, i) => dayDate(dayNumber(date) + i))
  return { campaign_id: campaign, params, key: seriesKey(withoutDefaults(endpoints[`reports.${report}`].params, params)), dates }
}

function toSnapshot(r: WithPrev) {
  const prev = r.prev_id === null ? undefined : { snapshot_id: r.prev_id, hash: r.prev_hash }
  return {
    snapshot_id: String(r.snapshot_id), profile_id: String(r.profile_id), report: r.report, campaign_id: r.campaign_id, date: r.date, params: r.params,
    fetched_at: r.fetched_at, version: r.version, progress_date: r.progress_date, items: r.items,
    previous_id: prev ? String(prev.snapshot_id) : '', changed: prev !== undefined && prev.hash !== r.hash,
  }
}

const seriesOf = (r: SnapshotHead): SnapshotSeries => ({ profileId: r.profile_id, report: r.report, campaign_id: r.campaign_id, date: r.date, key: r.params })

/** One snapshot with the one before it in its series (two indexed reads, no body). */
function withPrev(db: Db, id: number): WithPrev | undefined {
  const r = snapshotHead(db, id)
  if (!r) return undefined
  const prev = newestIdAndHash(db, seriesOf(r), r.snapshot_id)
  return { ...r, prev_id: prev?.snapshot_id ?? null, prev_hash: prev?.hash ?? null }
}

const bodyOf = snapshotBody

async function progressDate(client: RemoteClient, campaignId: string): Promise<string> {
  try {
    const p = (await client.get('/admonitor/v1/reports/basic/progress', { campaign_id: campaignId })) as { date?: unknown }
    return typeof p?.date === 'string' ? p.date : ''
  } catch (err) {
    if (err instanceof RemoteError && err.problem === 'refused') return '' // no progress for this campaign: not fatal
    throw err
  }
}

export interface SnapshotKey extends SnapshotSeries {
  progress: string
  fetched_at: string
}

/**
 * Stores one report answer as a snapshot (inside the caller's transaction); answers its id. With
 * `unlessUnchanged`, an answer equal to the series' latest snapshot is not stored again (null).
 */
export function storeSnapshot(db: Db, k: SnapshotKey, body: unknown, opts: { unlessUnchanged?: boolean } = {}): number | null {
  const text = canonicalJson(body)
  const hash = textHash(text)
  if (opts.unlessUnchanged && newestHash(db, k) === hash) return null
  const b = (body ?? {}) as { version?: unknown; items?: unknown }
  return insertSnapshot(db, {
    profile_id: k.profileId, report: k.report, campaign_id: k.campaign_id, date: k.date, params: k.key, fetched_at: k.fetched_at,
    version: typeof b.version === 'string' ? b.version : '', progress_date: k.progress, items: Array.isArray(b.items) ? b.items.length : 0, body: text, hash,
  })
}

/** The newest snapshot of a report, campaign, date and parameters, if any. */
export const latestSnapshot = (db: Db, k: SnapshotSeries): SnapshotRow | undefined => newestSnapshot(db, k)

/** Pulls one snapshot per date; stops at the first failure, keeping those already stored. */
export async function pullSnapshots(db: Db, client: RemoteClient, profileId: number, report: SnapshotReport, req: SnapshotRequest, now: () => string) {
  const stored: ReturnType<typeof toSnapshot>[] = []
  try {
    const progress = await progressDate(client, req.campaign_id)
    for (const date of req.dates) {
      const body = await client.get(SNAPSHOT_REPORTS[report], { ...req.params, campaign_id: req.campaign_id, date })
      const id = db.tx(() => storeSnapshot(db, { profileId, report, campaign_id: req.campaign_id, date, key: req.key, progress, fetched_at: now() }, body))!
      stored.push(toSnapshot(withPrev(db, id)!))
    }
    return { state: 'done' as const, problem: '', message: '', snapshots: stored }
  } catch (err) {
    if (!(err instanceof RemoteError)) throw err
    return { state: 'failed' as const, problem: err.problem, message: err.message, snapshots: stored }
  }
}

export function listSnapshots(db: Db, profileId: number, q: { report?: SnapshotReport | undefined; campaign_id?: string | undefined; limit: Limit }) {
  return snapshotsOfList(db, profileId, q).map(toSnapshot)
}

export function showSnapshot(db: Db, id: string) {
  const r = withPrev(db, Number(id))
  if (!r) throw badRequest('snapshot.none', { param: 'snapshot_id', id: String(id) })
  const body = JSON.parse(bodyOf(db, r.snapshot_id)) as unknown
  const diff = r.prev_id !== null ? diffReports(JSON.parse(bodyOf(db, r.prev_id)), body) : { items_added: r.items, items_removed: 0, values_changed: 0, changes: [] }
  return { snapshot: toSnapshot(r), body, diff: { previous_id: r.prev_id === null ? '' : String(r.prev_id), ...diff } }
}
