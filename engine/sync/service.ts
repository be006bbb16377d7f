/**
 * Sync with the real service (DESIGN §4): the secret vault, one client per use, the pulls and
 * pushes (jobs.ts: at most one of each running per profile) and the server modes.
 */
import type { Clock } from '../clock'
import type { Logger } from '../logger'
import type { Random } from '../random'
import type { Db } from '../storage/db'
import { RemoteClient, type ClientOptions } from './client'
import type { JobContext } from './jobs'
import type { ProfileRow } from './profiles'
import { ServerModes } from './modes'
import { PullJobs } from './pull-jobs'
import { PushJobs } from './push-jobs'
import { describeProblem, problem } from '../contract/problems'
import { RemoteError, keyed } from './remote-error'
import { toldOf } from './said'
import { SecretsError, type SecretVault } from './secrets'

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

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

export class SyncService {
  /** Pulls from the remotes (pull-jobs.ts). */
  readonly pulls: PullJobs
  /** Pushes of the outboxes (push-jobs.ts). */
  readonly pushes: PushJobs
  /** How the door answers the vendor API's reads: local, forwarded, offline (modes.ts). */
  readonly modes: ServerModes
  /** Aborts the remote calls made while a request waits (close). */
  private readonly requests = new AbortController()

  constructor(readonly deps: SyncDeps) {
    const jobs: JobContext = {
      db: deps.db, log: deps.log, now: () => this.now(), newId: () => hex(deps.random.bytes(8)), durable: deps.durable,
      pageSize: deps.options.pageSize ?? 500, client: (p, signal) => this.client(p, {}, signal),
    }
    this.pulls = new PullJobs(jobs)
    this.pushes = new PushJobs(jobs)
    this.modes = new ServerModes(deps.db, (p) => this.requestClient(p), () => this.now())
  }

  get vault(): SecretVault {
    return this.deps.vault
  }

  /** Resolves once every write committed so far is on disk; rejects with the 507 refusal when one was refused. */
  durable(): Promise<void> {
    return this.deps.durable()
  }

  /** A random reference for a vault entry. */
  newRef(): string {
    return hex(this.deps.random.bytes(16))
  }

  /** A client for the profile; `overrides` for the connection test (no retries). */
  client(p: ProfileRow, overrides: ClientOptions = {}, signal?: AbortSignal): RemoteClient {
    const secrets = async () => {
      const s = await this.deps.vault.get(p.secret_ref).catch((err: Error) => Promise.reject(new RemoteError('no_secret', err instanceof SecretsError ? { text: err.message, keyed: err.problem } : err.message, false)))
      if (!s.password || !s.client_secret) throw new RemoteError('no_secret', keyed(s.password ? 'sync.noClientSecret' : 'sync.noPassword', { name: p.name }), false)
      return s
    }
    return new RemoteClient(p, secrets, this.deps.clock, { ...this.deps.options, ...overrides }, signal)
  }

  /** At most 15 s per request (less when the options say so). */
  private shortTimeout = () => Math.min(15_000, this.deps.options.timeoutMs ?? 15_000)

  /**
   * A client for remote calls a request waits for (forward mode, snapshot pulls): one retry, 15 s
   * per request at most, and close() aborts them (background pulls and pushes keep the patient settings).
   */
  requestClient(p: ProfileRow): RemoteClient {
    return this.client(p, { retries: 1, timeoutMs: this.shortTimeout() }, this.requests.signal)
  }

  /**
   * "Test connection": log in (no retries, 15 s at most) and read one campaign, so that a wrong
   * base_url shows even when the login works. Says what failed in plain words.
   */
  async test(p: ProfileRow) {
    const started = performance.now()
    const client = this.client(p, { retries: 0, pacingMs: 0, timeoutMs: this.shortTimeout() })
    const ms = () => Math.round(performance.now() - started)
    try {
      await client.login()
      const rows = await client.get('/cms/v1/campaigns/list', { limit: '0,1' })
      if (!Array.isArray(rows)) throw new RemoteError('not_this_api', keyed('remote.notListApi', { path: `${p.base_url}/cms/v1/campaigns/list` }), false)
      const said = problem('sync.loggedIn', { name: p.username, host: new URL(p.auth_url).host })
      return { ok: true, problem: '', message: describeProblem(said), message_problem: said, ms: ms(), scope: client.scope }
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err
      const told = toldOf(err)
      return { ok: false, problem: err.problem, message: err.message, ...(typeof told === 'string' ? {} : { message_problem: told }), ms: ms(), scope: client.scope }
    }
  }

  private now = () => new Date(this.deps.clock.now()).toISOString()

  /** Cancels the profile's pull, then its push (before its profile changes or goes). */
  async cancel(profileId: number): Promise<void> {
    await this.pulls.cancel(profileId)
    await this.pushes.cancel(profileId)
  }

  /** Forgets a deleted profile (after its pull and push were cancelled). */
  forget(profileId: number): void {
    this.pulls.forget(profileId)
    this.pushes.forget(profileId)
  }

  /**
   * Stops every remote call a request waits for, and every pull and push (engine close): what they
   * stored stays, the next start resumes.
   */
  async close(): Promise<void> {
    this.requests.abort()
    await this.pulls.close()
    await this.pushes.close()
  }
}
