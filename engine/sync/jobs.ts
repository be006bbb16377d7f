/**
 * What pulls and pushes share as jobs (docs/sync.md "Pull", "Push"): at most one per profile, a
 * client of its own that a cancel aborts, the last run of each profile kept in memory (with its
 * request counts), and the way a run that stopped early says why and records its end.
 */
import type { Logger } from '../logger'
import type { Db } from '../storage/db'
import type { RemoteClient } from './client'
import { requireProfile, type ProfileRow } from './profiles'
import { problem, type Told } from '../contract/problems'
import { RemoteError, keyed } from './remote-error'
import { toldOf } from './said'

/** What a running pull or push works with. */
export interface JobDeps {
  db: Db
  client: RemoteClient
  /** Rows asked for per page of a list. */
  pageSize: number
  /** ISO time now. */
  now: () => string
  /** Resolves when every write so far is on stable storage. */
  durable: () => Promise<void>
  signal: AbortSignal
}

/** What the jobs of one kind share across profiles. */
export interface JobContext {
  db: Db
  log: Logger
  now: () => string
  newId: () => string
  durable: () => Promise<void>
  pageSize: number
  client: (p: ProfileRow, signal: AbortSignal) => RemoteClient
}

/** The members of a run that the bookkeeping reads and sets. */
interface JobRun {
  profile_id: number
  state: string
  problem: string
  message: string
  finished_at: string
}

/** Throws the cancel a job stops on once its signal is aborted. */
export function checkCancelled(signal: AbortSignal, what: 'pull' | 'push'): void {
  if (signal.aborted) throw new RemoteError('cancelled', keyed('sync.jobCancelled', { what }), false)
}

export abstract class ProfileJobs<R extends JobRun> {
  private running = new Map<number, { run: R; controller: AbortController; finished: Promise<void> }>()
  /** The last run of each profile in this process (also one that stored nothing). */
  private last = new Map<number, R>()

  constructor(
    protected readonly ctx: JobContext,
    private readonly what: 'pull' | 'push',
    private readonly idOf: (r: R) => string,
  ) {}

  /** Starts a run for the profile with `begin`, or returns the one already running. */
  protected launch(profileId: number, begin: (d: JobDeps) => { run: R; work: Promise<void> }): R {
    const busy = this.running.get(profileId)
    if (busy) return busy.run
    const profile = requireProfile(this.ctx.db, profileId)
    const controller = new AbortController()
    const client = this.ctx.client(profile, controller.signal)
    const { db, pageSize, now, durable } = this.ctx
    const { run, work } = begin({ db, client, pageSize, now, durable, signal: controller.signal })
    this.last.set(profileId, run)
    const finished = work.finally(() => this.running.delete(profileId))
    this.running.set(profileId, { run, controller, finished })
    return run
  }

  /** The running run, else the last one of this process. */
  protected current(profileId: number): R | undefined {
    return this.running.get(profileId)?.run ?? this.last.get(profileId)
  }

  /** Stored runs with the one running shown live in its place. */
  protected withLive(profileId: number, stored: R[]): R[] {
    const live = this.running.get(profileId)?.run
    return stored.map((r) => (live && this.idOf(live) === this.idOf(r) ? live : r))
  }

  /** Marks a run that stopped early (cancelled or failed); answers why, in plain words. */
  protected stopped(run: R, err: unknown): Told {
    const e = err instanceof RemoteError ? err : null
    if (!e) this.ctx.log.error(`${this.what} of profile ${run.profile_id} failed`, err)
    run.state = e?.problem === 'cancelled' ? 'cancelled' : 'failed'
    run.problem = e?.problem ?? 'server_error'
    return e ? toldOf(e) : problem('sync.internal', { what: this.what, detail: (err as Error)?.message ?? String(err) })
  }

  /** Stamps the end of a run and writes it with `save`, if any (a failure to record it is logged). */
  protected async recordEnd(run: R, save: (() => void) | null): Promise<void> {
    run.finished_at = this.ctx.now()
    if (!save) return
    try {
      this.ctx.db.tx(save)
      await this.ctx.durable()
    } catch (err) {
      this.ctx.log.error(`could not record the end of ${this.what} ${this.idOf(run)}`, err)
    }
  }

  /** Waits for the profile's running job, if any. */
  async wait(profileId: number): Promise<void> {
    await this.running.get(profileId)?.finished
  }

  async cancel(profileId: number): Promise<void> {
    const r = this.running.get(profileId)
    if (!r) return
    r.controller.abort()
    await r.finished
  }

  /** Forgets a deleted profile (after its job was cancelled). */
  forget(profileId: number): void {
    this.last.delete(profileId)
  }

  /** Stops every job (engine close): what they stored stays. */
  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)))
  }
}
