/**
 * Server modes (docs/sync.md "Server modes"): per endpoint group of the vendor API's GET
 * endpoints, the localhost door answers from the local store (default), or forwards the request to
 * a remote profile and records the answer (reports also as snapshots), or answers offline from
 * those recordings. Parameters are checked locally first, so a bad request never leaves the machine.
 */
import { endpoints, type EndpointId } from '../contract/endpoints'
import { MODE_GROUPS, modeGroupOf, type ModeGroup, type ServerMode } from '../contract/endpoints-sync-modes'
import { SNAPSHOT_REPORTS, type SnapshotReport } from '../contract/endpoints-sync'
import { DOOR_PARAMS } from '../contract/envelope'
import { ApiError, E, badRequest, refuse } from '../contract/errors'
import { withoutDefaults } from '../contract/params'
import type { Db } from '../storage/db'
import { allModes, answerOf, countAnswers, deleteMode, groupsForwardingTo, modeRoutes, upsertAnswer, upsertMode } from '../storage/repos/sync-modes'
import { countSnapshots } from '../storage/repos/sync-snapshots'
import type { RemoteClient } from './client'
import { requireProfile, type ProfileRow } from './profiles'
import { RemoteError } from './remote-error'
import { toldOf } from './said'
import { latestSnapshot, seriesKey, sortedQuery, storeSnapshot } from './snapshots'

/** An answer that did not come from the local store. */
export interface Routed {
  body: string
  source: 'forward' | 'offline'
  profileId: number
  fetchedAt: string
}

/** Never forwarded (contract DOOR_PARAMS). */
const RESERVED = new Set<string>(DOOR_PARAMS)
const REPORT_OF_PATH = new Map<string, SnapshotReport>(Object.entries(SNAPSHOT_REPORTS).map(([report, path]) => [path, report as SnapshotReport]))


/** A report answer kept as a snapshot too: one of the snapshot reports, with campaign_id and date. */
function snapshotKeyOf(profileId: number, path: string, params: Record<string, string>) {
  const report = REPORT_OF_PATH.get(path)
  const { campaign_id, date } = params
  if (!report || !campaign_id || !date) return null
  return { profileId, report, campaign_id, date, key: seriesKey(params) }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])
const portOf = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80')
const sameServer = (a: URL, b: URL) => portOf(a) === portOf(b) && (a.hostname === b.hostname || (LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname)))

/** Whether a profile's base_url is this engine's own address (`selfUrl`): forwarding there would loop. */
export const isSelf = (baseUrl: string, selfUrl: string): boolean => sameServer(new URL(baseUrl), new URL(selfUrl))

/** Where an answer came from, as forward and offline answers say it: also on their errors, and so in the request log. */
const sourceHeaders = (source: 'forward' | 'offline', p: ProfileRow) => ({ 'x-admonitor-source': source, 'x-admonitor-profile-id': String(p.profile_id) })

/** The remote's refusal as the same error here; anything else: the remote cannot answer now. */
function asApiError(err: unknown, p: ProfileRow): unknown {
  if (!(err instanceof RemoteError)) return err
  if (err.problem === 'refused' && err.code !== '') return new ApiError(Object.values(E).find((d) => d.error === err.code) ?? E.invalidRequest, err.message, sourceHeaders('forward', p))
  return refuse(E.temporarilyUnavailable, 'mode.forwardFailed', { profile: p.name, failure: err.problem, detail: toldOf(err) }, sourceHeaders('forward', p))
}

export class ServerModes {
  private clients = new Map<number, { stamp: string; client: RemoteClient }>()
  /**
   * The sync_modes rows as of a database version: route() runs before the answer cache on every
   * GET of the vendor API, which must not pay a query while nothing was written.
   */
  private modes: { version: number; rows: Map<string, { mode: ServerMode; profile_id: number }> } | null = null

  constructor(private readonly db: Db, private readonly makeClient: (p: ProfileRow) => RemoteClient, private readonly now: () => string) {}

  /** Every group with its mode (local when never set). */
  list() {
    const rows = new Map(allModes<{ endpoint_group: ModeGroup; mode: ServerMode; profile_id: number; updated_at: string }>(this.db).map((r) => [r.endpoint_group, r]))
    return MODE_GROUPS.map((group) => {
      const r = rows.get(group)
      if (!r) return { group, mode: 'local' as const, profile_id: '', profile_name: '', recorded: 0, updated_at: '' }
      const answers = countAnswers(this.db, r.profile_id, group)
      const snapshots = group === 'reports' ? countSnapshots(this.db, r.profile_id) : 0
      const name = requireProfile(this.db, r.profile_id).name
      return { group, mode: r.mode, profile_id: String(r.profile_id), profile_name: name, recorded: Number(answers) + Number(snapshots), updated_at: r.updated_at }
    })
  }

  /** `selfUrl`: this engine's own address; forwarding to it would loop. */
  set(group: ModeGroup, mode: ServerMode, profileId: string | undefined, selfUrl: string): void {
    if (mode === 'local') return void this.db.tx(() => deleteMode(this.db, group))
    if (profileId === undefined) throw badRequest('mode.needProfile', { mode })
    const p = requireProfile(this.db, profileId)
    if (mode === 'forward' && isSelf(p.base_url, selfUrl)) throw badRequest('mode.selfProfile', { profile: p.name, url: selfUrl })
    this.db.tx(() => upsertMode(this.db, group, mode, p.profile_id, this.now()))
  }

  /** Whether a GET of endpoint `id` is answered from the local store (route() gives null). */
  answersLocally(id: string): boolean {
    const group = modeGroupOf(id)
    return !group || (this.modeOf(group)?.mode ?? 'local') === 'local'
  }

  /** The groups that forward to a profile. */
  forwardingTo(profileId: number): ModeGroup[] {
    return groupsForwardingTo(this.db, profileId) as ModeGroup[]
  }

  /**
   * The answer of a GET of the vendor API when its group is not local; null: answer locally.
   * `selfUrl`: this engine's own address, never forwarded to (a profile may have been pointed at
   * it after its group was set to forward: every request then forwarded to itself, without end).
   */
  async route(id: string, path: string, raw: ReadonlyMap<string, readonly string[]>, selfUrl: string): Promise<Routed | null> {
    const group = modeGroupOf(id)
    if (!group) return null
    const row = this.modeOf(group)
    if (!row || row.mode === 'local') return null
    const profile = requireProfile(this.db, row.profile_id)
    const params: Record<string, string> = {}
    for (const [k, v] of raw) if (!RESERVED.has(k) && v[0] !== undefined) params[k] = v[0]
    if (row.mode === 'forward' && isSelf(profile.base_url, selfUrl)) {
      throw refuse(E.temporarilyUnavailable, 'mode.forwardLoop', { group, profile: profile.name, url: selfUrl }, sourceHeaders('forward', profile))
    }
    // recorded and looked up without the parameters that say what their defaults say
    const keyed = withoutDefaults(endpoints[id as EndpointId].params, params)
    return row.mode === 'forward' ? this.forward(group, profile, path, params, keyed) : this.offline(group, profile, path, keyed, params)
  }

  /**
   * Refuses a write of the vendor API while its group is not answered locally: the client reads
   * the remote's records (forwarded or recorded) and would change the local record that happens
   * to have the same id (the Campaigns screen in forward mode would delete and overwrite local
   * campaigns, each answered "deleted"/"saved"). Drafts for the remote go
   * through the outbox; local records are written with the group answered locally.
   */
  checkWrite(id: string): void {
    const group = modeGroupOf(id)
    const row = group ? this.modeOf(group) : undefined
    if (!group || !row || row.mode === 'local') return
    const profile = requireProfile(this.db, row.profile_id)
    throw badRequest(row.mode === 'forward' ? 'mode.writeForwarded' : 'mode.writeOffline', { group, profile: profile.name, path: '/local/v1/sync/modes/set' })
  }

  private modeOf(group: ModeGroup): { mode: ServerMode; profile_id: number } | undefined {
    if (this.modes?.version !== this.db.version) {
      const rows = modeRoutes<{ endpoint_group: string; mode: ServerMode; profile_id: number }>(this.db)
      this.modes = { version: this.db.version, rows: new Map(rows.map((r) => [r.endpoint_group, r])) }
    }
    return this.modes.rows.get(group)
  }

  private clientFor(p: ProfileRow): RemoteClient {
    const stamp = `${p.updated_at}|${p.base_url}|${p.auth_url}|${p.username}|${p.client_id}`
    const known = this.clients.get(p.profile_id)
    if (known?.stamp === stamp) return known.client
    const client = this.makeClient(p)
    this.clients.set(p.profile_id, { stamp, client })
    return client
  }

  private async forward(group: ModeGroup, p: ProfileRow, path: string, params: Record<string, string>, keyed: Record<string, string>): Promise<Routed> {
    const body = await this.clientFor(p).get(path, params).catch((err: unknown) => Promise.reject(asApiError(err, p)))
    const text = JSON.stringify(body)
    const fetchedAt = this.now()
    const snap = snapshotKeyOf(p.profile_id, path, keyed)
    this.db.tx(() => {
      // a report answer is kept as a snapshot only, and only when it differs from the series' latest
      if (snap) {
        storeSnapshot(this.db, { ...snap, progress: '', fetched_at: fetchedAt }, body, { unlessUnchanged: true })
        return
      }
      upsertAnswer(this.db, { profile_id: p.profile_id, endpoint_group: group, path, query: sortedQuery(keyed), body: text, fetched_at: fetchedAt })
    })
    return { body: text, source: 'forward', profileId: p.profile_id, fetchedAt }
  }

  /** `keyed`: the parameters without defaults; `spelled`: as sent (how earlier versions keyed answers). */
  private offline(group: ModeGroup, p: ProfileRow, path: string, keyed: Record<string, string>, spelled: Record<string, string>): Routed {
    for (const params of [keyed, spelled]) {
      const snap = snapshotKeyOf(p.profile_id, path, params)
      const s = snap ? latestSnapshot(this.db, snap) : undefined
      if (s) return { body: s.body, source: 'offline', profileId: p.profile_id, fetchedAt: s.fetched_at }
      const a = answerOf(this.db, p.profile_id, path, sortedQuery(params))
      if (a) return { body: a.body, source: 'offline', profileId: p.profile_id, fetchedAt: a.fetched_at }
    }
    throw refuse(E.temporarilyUnavailable, 'mode.offlineMissing', { profile: p.name, path, group }, sourceHeaders('offline', p))
  }
}
