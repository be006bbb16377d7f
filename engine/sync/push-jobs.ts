/**
 * Pushes as jobs (like pulls): at most one per profile, progress in memory while it runs, each
 * push kept in `sync_pushes` with its per-operation results (a row still `running` that no
 * process runs was interrupted).
 */
import type { Logger } from '../runtime'
import type { Db } from '../storage/db'
import type { ClientStats, RemoteClient } from './client'
import { requireProfile, type ProfileRow } from './profiles'
import { runPush, type PushResult } from './push'
import { RemoteError } from './remote-error'

export interface PushRun {
  push_id: string
  profile_id: number
  state: 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted'
  ops_total: number
  ops_done: number
  results: PushResult[]
  stats: ClientStats
  problem: string
  message: string
  started_at: string
  finished_at: string
}

export interface PushJobDeps {
  db: Db
  log: Logger
  now: () => string
  newId: () => string
  durable: () => Promise<void>
  pageSize: number
  client: (p: ProfileRow, signal: AbortSignal) => RemoteClient
}

interface PushRow extends Omit<PushRun, 'results' | 'stats'> {
  results: string
}

const save = (db: Db, r: PushRun) =>
  db.run(
    `INSERT INTO sync_pushes (push_id, profile_id, state, ops_total, ops_done, results, problem, message, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(push_id) DO UPDATE SET state = excluded.state, ops_total = excluded.ops_total, ops_done = excluded.ops_done, results = excluded.results,
       problem = excluded.problem, message = excluded.message, finished_at = excluded.finished_at`,
    [r.push_id, r.profile_id, r.state, r.ops_total, r.ops_done, JSON.stringify(r.results), r.problem, r.message, r.started_at, r.finished_at],
  )

const fromRow = (r: PushRow): PushRun => ({ ...r, state: r.state === 'running' ? 'interrupted' : r.state, results: JSON.parse(r.results) as PushResult[], stats: { requests: 0, logins: 0, retries: 0 } })

/** The wire form of a push (or of "never pushed"). */
export function pushStatus(r: PushRun | undefined, profileId: number) {
  const run = r ?? { push_id: '', profile_id: profileId, state: 'idle' as const, ops_total: 0, ops_done: 0, results: [], stats: { requests: 0, logins: 0, retries: 0 }, problem: '', message: '', started_at: '', finished_at: '' }
  return {
    push_id: run.push_id, profile_id: String(run.profile_id), state: run.state, ops_total: run.ops_total, ops_done: run.ops_done,
    requests: run.stats.requests, logins: run.stats.logins, retries: run.stats.retries, results: run.results,
    problem: run.problem, message: run.message, started_at: run.started_at, finished_at: run.finished_at,
  }
}

function summary(r: PushRun): string {
  const n = (o: string) => r.results.filter((x) => x.outcome === o).length
  const parts = (['created', 'updated', 'reconciled', 'failed', 'conflict', 'blocked'] as const).filter((o) => n(o) > 0).map((o) => `${n(o)} ${o}`)
  return parts.length === 0 ? 'Nothing to send.' : `${parts.join(', ')}.`
}

export class PushJobs {
  private running = new Map<number, { run: PushRun; controller: AbortController; finished: Promise<void> }>()
  /** The last push of each profile in this process (with its request counts). */
  private last = new Map<number, PushRun>()

  constructor(private readonly deps: PushJobDeps) {}

  /** Starts a push of the profile's outbox, or returns the one already running. */
  start(profileId: number): PushRun {
    const busy = this.running.get(profileId)
    if (busy) return busy.run
    const profile = requireProfile(this.deps.db, profileId)
    const controller = new AbortController()
    const client = this.deps.client(profile, controller.signal)
    const run: PushRun = { push_id: this.deps.newId(), profile_id: profileId, state: 'running', ops_total: 0, ops_done: 0, results: [], stats: client.stats, problem: '', message: '', started_at: this.deps.now(), finished_at: '' }
    this.deps.db.tx(() => save(this.deps.db, run))
    const d = { db: this.deps.db, client, pageSize: this.deps.pageSize, now: this.deps.now, durable: this.deps.durable, signal: controller.signal }
    const finished = runPush(d, run)
      .then(() => {
        run.state = 'done'
        run.message = summary(run)
      })
      .catch((err: unknown) => this.stopped(run, err))
      .then(() => this.end(run))
      .finally(() => this.running.delete(profileId))
    this.running.set(profileId, { run, controller, finished })
    this.last.set(profileId, run)
    return run
  }

  private stopped(run: PushRun, err: unknown): void {
    const e = err instanceof RemoteError ? err : null
    if (!e) this.deps.log.error(`push of profile ${run.profile_id} failed`, err)
    run.state = e?.problem === 'cancelled' ? 'cancelled' : 'failed'
    run.problem = e?.problem ?? 'server_error'
    const why = e?.message ?? `The push stopped on an internal error: ${(err as Error)?.message ?? String(err)}`
    run.message = `${why} ${summary(run)} What was not sent stays in the outbox; push again to go on.`
  }

  private async end(run: PushRun): Promise<void> {
    run.finished_at = this.deps.now()
    try {
      this.deps.db.tx(() => save(this.deps.db, run))
      await this.deps.durable()
    } catch (err) {
      this.deps.log.error(`could not record the end of push ${run.push_id}`, err)
    }
  }

  async wait(profileId: number): Promise<void> {
    await this.running.get(profileId)?.finished
  }

  status(profileId: number) {
    const live = this.running.get(profileId)?.run ?? this.last.get(profileId)
    if (live) return pushStatus(live, profileId)
    const row = this.deps.db.get<PushRow>('SELECT * FROM sync_pushes WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1', [profileId])
    return pushStatus(row ? fromRow(row) : undefined, profileId)
  }

  history(profileId: number) {
    const live = this.running.get(profileId)?.run
    return this.deps.db.query<PushRow>('SELECT * FROM sync_pushes WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 100', [profileId])
      .map((r) => pushStatus(live && live.push_id === r.push_id ? live : fromRow(r), profileId))
  }

  async cancel(profileId: number): Promise<void> {
    const r = this.running.get(profileId)
    if (!r) return
    r.controller.abort()
    await r.finished
  }

  /** Forgets a deleted profile (after its push was cancelled). */
  forget(profileId: number): void {
    this.last.delete(profileId)
  }

  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)))
  }
}
