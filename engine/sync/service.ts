/**
 * Sync with the real service (DESIGN §4): the secret vault, one client per use, and the pulls,
 * at most one running per profile. Pull progress is kept in memory while it runs and checkpointed
 * in the database (pull-state.ts); a pull that stores nothing (it failed to log in) writes nothing.
 */
import type { Logger, Random, Clock } from '../runtime'
import type { Db } from '../storage/db'
import { RemoteClient, type ClientOptions } from './client'
import { requireProfile, type ProfileRow } from './profiles'
import { runPull } from './pull'
import { ServerModes } from './modes'
import { PushJobs } from './push-jobs'
import { latestRun, listRuns, newRun, saveRun, toStatus, type PullRun } from './pull-state'
import { RemoteError } from './remote-error'
import type { SecretVault } from './secrets'

export interface SyncOptions extends ClientOptions {
  /** Rows asked for per page of a list (default 500, the spec's default limit). */
  pageSize?: number
}

export interface SyncDeps {
  db: Db
  clock: Clock
  random: Random
  log: Logger
  vault: SecretVault
  durable: () => Promise<void>
  options: SyncOptions
}

interface Running {
  run: PullRun
  controller: AbortController
  finished: Promise<void>
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

export class SyncService {
  private running = new Map<number, Running>()
  /** The last run of each profile in this process (also those that stored nothing). */
  private last = new Map<number, PullRun>()

  /** Pushes of the outboxes (push-jobs.ts). */
  readonly pushes: PushJobs
  /** How the door answers the vendor API's reads: local, forwarded, offline (modes.ts). */
  readonly modes: ServerModes

  constructor(readonly deps: SyncDeps) {
    this.pushes = new PushJobs({
      db: deps.db, log: deps.log, now: () => this.now(), newId: () => hex(deps.random.bytes(8)), durable: deps.durable,
      pageSize: deps.options.pageSize ?? 500, client: (p, signal) => this.client(p, {}, signal),
    })
    this.modes = new ServerModes(deps.db, (p) => this.client(p), () => this.now())
  }

  get vault(): SecretVault {
    return this.deps.vault
  }

  /** A random reference for a vault entry. */
  newRef(): string {
    return hex(this.deps.random.bytes(16))
  }

  /** A client for the profile; `overrides` for the connection test (no retries). */
  client(p: ProfileRow, overrides: ClientOptions = {}, signal?: AbortSignal): RemoteClient {
    const secrets = async () => {
      const s = await this.deps.vault.get(p.secret_ref).catch((err: Error) => Promise.reject(new RemoteError('no_secret', err.message, false)))
      if (!s.password || !s.client_secret) throw new RemoteError('no_secret', `Profile ${p.name} has no stored ${s.password ? 'client secret' : 'password'}: enter it again.`, false)
      return s
    }
    return new RemoteClient(p, secrets, this.deps.clock, { ...this.deps.options, ...overrides }, signal)
  }

  /**
   * "Test connection": log in (no retries, 15 s at most) and read one campaign, so that a wrong
   * base_url shows even when the login works. Says what failed in plain words.
   */
  async test(p: ProfileRow) {
    const started = performance.now()
    const client = this.client(p, { retries: 0, pacingMs: 0, timeoutMs: Math.min(15_000, this.deps.options.timeoutMs ?? 15_000) })
    const ms = () => Math.round(performance.now() - started)
    try {
      await client.login()
      const rows = await client.get('/cms/v1/campaigns/list', { limit: '0,1' })
      if (!Array.isArray(rows)) throw new RemoteError('not_this_api', `${p.base_url}/cms/v1/campaigns/list did not answer with a list: base_url does not point at this API.`, false)
      return { ok: true, problem: '', message: `Logged in as ${p.username} at ${new URL(p.auth_url).host}; the campaign list answers.`, ms: ms(), scope: client.scope }
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err
      return { ok: false, problem: err.problem, message: err.message, ms: ms(), scope: client.scope }
    }
  }

  private now = () => new Date(this.deps.clock.now()).toISOString()

  /** Starts (or resumes) a pull of the profile, or returns the one already running. */
  start(profileId: number, fresh: boolean): PullRun {
    const busy = this.running.get(profileId)
    if (busy) return busy.run
    const profile = requireProfile(this.deps.db, profileId)
    const prior = fresh ? null : latestRun(this.deps.db, profileId)
    const run = prior && prior.state !== 'done' ? { ...prior, state: 'running' as const, resumed: true, problem: '' as const, message: '', finished_at: '' } : newRun(hex(this.deps.random.bytes(8)), profileId, this.now())
    const controller = new AbortController()
    const client = this.client(profile, {}, controller.signal)
    run.stats = client.stats
    this.last.set(profileId, run)
    const deps = { db: this.deps.db, client, pageSize: this.deps.options.pageSize ?? 500, now: this.now, durable: this.deps.durable, signal: controller.signal }
    const finished = runPull(deps, run).catch((err: unknown) => this.stopped(run, err)).finally(() => this.running.delete(profileId))
    this.running.set(profileId, { run, controller, finished })
    return run
  }

  /** Records why a run stopped early (in its row only when it has one). */
  private async stopped(run: PullRun, err: unknown): Promise<void> {
    const e = err instanceof RemoteError ? err : null
    if (!e) this.deps.log.error(`pull of profile ${run.profile_id} failed`, err)
    run.state = e?.problem === 'cancelled' ? 'cancelled' : 'failed'
    run.problem = e?.problem ?? 'server_error'
    run.message = [e?.message ?? `The pull stopped on an internal error: ${(err as Error)?.message ?? String(err)}`, ...run.notes].join(' ')
    run.finished_at = this.now()
    if (!run.stored) return
    try {
      this.deps.db.tx(() => saveRun(this.deps.db, run))
      await this.deps.durable()
    } catch (saveErr) {
      this.deps.log.error(`could not record the end of pull ${run.pull_id}`, saveErr)
    }
  }

  /** Waits for the profile's running pull, if any. */
  async wait(profileId: number): Promise<void> {
    await this.running.get(profileId)?.finished
  }

  /** The running pull, else the last one of this process, else the newest stored one. */
  status(profileId: number) {
    const run = this.running.get(profileId)?.run ?? this.last.get(profileId) ?? latestRun(this.deps.db, profileId)
    return toStatus(run, profileId)
  }

  /** Stored pulls, newest first; the one running is shown live (its row says running too). */
  history(profileId: number) {
    const live = this.running.get(profileId)?.run
    return listRuns(this.deps.db, profileId).map((r) => toStatus(live && r.pull_id === live.pull_id ? live : r, profileId))
  }

  async cancel(profileId: number): Promise<void> {
    const r = this.running.get(profileId)
    if (!r) return
    r.controller.abort()
    await r.finished
  }

  /** Forgets a deleted profile (after its pull was cancelled). */
  forget(profileId: number): void {
    this.last.delete(profileId)
    this.pushes.forget(profileId)
  }

  /** Stops every pull (engine close): what they stored stays, the next start resumes. */
  async close(): Promise<void> {
    await Promise.all([...this.running.keys()].map((id) => this.cancel(id)))
    await this.pushes.close()
  }
}
