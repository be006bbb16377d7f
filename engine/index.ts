/**
 * The engine: the whole API as one function from request to response, over a sql.js database
 * made durable by the persister. No Electron, no DOM: main/, the CLI and the tests all use this.
 */
import { JSON_TYPE, type EngineRequest, type EngineResponse } from './contract/envelope'
import { DEFAULT_PORT } from './server/http'
import { E, refuse } from './contract/errors'
import { TokenService, type Credentials } from './auth/token-service'
import { createAdmit, createDispatch } from './dispatch'
import type { Admitted } from './request'
import { problemHeaders, wantsProblem } from './respond'
import { handlers } from './routes'
import { systemClock, type Clock } from './clock'
import { consoleLogger, type Logger } from './logger'
import { systemRandom, type Random } from './random'
import type { Settings } from './services'
import { dateIn } from './time-zone'
import { migrate } from './storage/migrations'
import { Persister } from './storage/persister'
import { ownWrites } from './storage/persister-writes'
import type { Db } from './storage/db'
import type { StoragePort } from './storage/port'
import { IP_LIBRARY } from './version'
import { loadDemo, type DemoResult } from './demo'
import { MemoryEventLog, type EventLog } from './measure/event-log'
import { RequestLog } from './request-log'
import { Measurement } from './measure/service'
import { Reports } from './reports/service'
import type { SecretCipher } from './sync/secrets'
import type { SyncOptions } from './sync/service'
import { openSync } from './sync/setup'

export { ENGINE_NAME, ENGINE_VERSION } from './version'

export interface EngineOptions {
  storage: StoragePort
  clock?: Clock
  random?: Random
  log?: Logger
  /** Path of sql-wasm.wasm when it is not next to sql.js (the Electron build passes it). */
  wasmPath?: string
  timeZone?: string
  /** Base URL written into tracking tags; the HTTP door sets it once it listens. */
  publicUrl?: string
  /** First-run account; missing members are generated. */
  account?: Partial<Credentials>
  /** The raw event log (default: in memory; the CLI and the app use events/ in the data directory). */
  eventLog?: EventLog
  /** Persister tuning (tests). */
  checkpointBytes?: number
  idleCheckpointMs?: number
  /**
   * Encrypts the passwords and client secrets of remote profiles (the desktop app passes Electron's
   * safeStorage). Default: AES-256-GCM with the data directory's own key file (sync/setup.ts).
   */
  secretCipher?: SecretCipher
  /** Sync client tuning: fetch (tests inject faults), pacing, retries, timeouts, page size. */
  sync?: SyncOptions
  /**
   * Resolve before the event log is read (the server and the desktop app, which listen meanwhile):
   * `ready` says when it is. Until then hits wait in the ingest, and reports and the measurement's
   * status wait for the reading; the other endpoints answer at once. Default: the log is read first.
   */
  openInBackground?: boolean
}

export interface Engine {
  handle(req: EngineRequest): Promise<EngineResponse>
  /** How many body bytes a door may read for a request (throws the ApiError of one refused before its body: no endpoint, no good token for a file). */
  admit(req: Omit<EngineRequest, 'body'>): Admitted
  /** Creates the demo campaign, panel, minisite and traffic (docs/demo.md). */
  loadDemo(): Promise<DemoResult>
  /** A token for the local account, for callers inside this process (CLI, desktop shell). */
  localToken(): Promise<string>
  /** Makes every acknowledged write part of the snapshot (call before quitting). */
  flush(): Promise<void>
  close(): Promise<void>
  settings: Settings
  /** Events and panels (tracking, import, simulator, reports). */
  measure: Measurement
  /** The account created by this start, if this was the first run; its secrets are shown once. */
  firstRun: Credentials | null
  /** Journal records replayed at open (records written after the last snapshot). */
  replayed: number
  /**
   * Resolves once the event log is read (at once unless `openInBackground`), with how long it took;
   * rejects when it cannot be read (hits are then refused and reports answer 503).
   */
  ready: Promise<{ ms: number }>
  schemaVersionFound: number
}

/** The time zone of a new data directory when none is given. */
const DEFAULT_TIME_ZONE = 'Asia/Shanghai'

/**
 * The time zone a data directory counts days and hours in: the one given, else the one it was
 * last opened with (kept in its meta table), else DEFAULT_TIME_ZONE. Every command without
 * --time-zone so works in the directory's zone: an import's wall times, a rebuild's days and a
 * simulation's hours would otherwise be read in the default one.
 */
async function dataTimeZone(db: Db, given: string | undefined, persister: Persister, log: Logger): Promise<string> {
  const stored = db.meta('time_zone')
  const wanted = given ?? stored ?? DEFAULT_TIME_ZONE
  let zone: string
  try {
    // (in the case the time zone database writes it: `utc` kept as typed would make a later `UTC`
    // count as a change of zone, recounting every event; an alias such as Asia/Kolkata, which ICU
    // resolves to Asia/Calcutta, is kept as given)
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: wanted }).resolvedOptions().timeZone
    zone = resolved.toLowerCase() === wanted.toLowerCase() ? resolved : wanted
  } catch {
    throw new Error(`'${wanted}' is not an IANA time zone (such as Asia/Shanghai or America/New_York)`)
  }
  if (zone === stored) return zone
  db.tx(() => db.setMeta('time_zone', zone))
  await persister.durable()
  if (stored !== undefined) log.info(`The time zone is now ${zone} (it was ${stored}): every event's day and hour are counted again in it.`)
  return zone
}

export async function createEngine(opts: EngineOptions): Promise<Engine> {
  const clock = opts.clock ?? systemClock
  const random = opts.random ?? systemRandom
  const log = opts.log ?? consoleLogger
  const persister = await Persister.open(opts.storage, {
    ...(opts.wasmPath ? { wasmPath: opts.wasmPath } : {}),
    ...(opts.checkpointBytes ? { checkpointBytes: opts.checkpointBytes } : {}),
    ...(opts.idleCheckpointMs ? { idleMs: opts.idleCheckpointMs } : {}),
  })
  const db = persister.db
  if (db.refused) log.error(`Opened read-only: the data directory ${db.refused.error.extra.path} cannot take writes (${db.refused.error.extra.cause}). Reads work; writes answer 507 until it has room again, which needs no restart.`)
  const found = await migrate(persister, new Date(clock.now()).toISOString().replace(/[:.]/g, '-')).catch(async (err: unknown) => {
    await persister.abandon()
    throw err
  })
  const timeZone = await dataTimeZone(db, opts.timeZone, persister, log).catch(async (err: unknown) => {
    await persister.abandon()
    throw err
  })
  const settings: Settings = {
    timeZone,
    publicUrl: opts.publicUrl ?? `http://127.0.0.1:${DEFAULT_PORT}`,
    ipLibrary: IP_LIBRARY,
  }
  const auth = new TokenService({ db, clock, random })
  const measure = new Measurement(opts.eventLog ?? new MemoryEventLog(), db, () => settings.timeZone, clock)
  measure.location = persister.location
  measure.ownWritesDurable = () => persister.durableWrites(ownWrites())
  const reading = performance.now()
  const ready = measure.open().then(() => ({ ms: Math.round(performance.now() - reading) }))
  if (opts.openInBackground) {
    ready.catch(() => undefined) // (the caller awaits ready; hits and reports answer the failure)
    // then the rest of the identities a checkpoint holds and their text index, between turns: the
    // first hit would build them in one piece
    void ready.then(() => measure.identities.settleInTurns()).then(() => measure.identities.indexInTurns()).catch(() => undefined)
  } else {
    await ready.catch(async (err: unknown) => {
      await persister.abandon()
      throw err
    })
  }
  const firstRun = await auth.ensureAccount(opts.account)
  if (firstRun) await persister.durable()
  const requests = new RequestLog()
  const sync = await openSync({ storage: opts.storage, cipher: opts.secretCipher, options: opts.sync, db, clock, random, log, durable: () => persister.durable() })
  const dispatch = createDispatch({ db, clock, random, settings, auth, log, measure, reports: new Reports(measure, log), requests, sync }, handlers, persister)
  const admit = createAdmit(auth)
  let closing: Promise<void> | null = null
  let inflight = 0
  let idle: (() => void) | null = null
  const tracked = async (req: EngineRequest): Promise<EngineResponse> => {
    inflight++
    const started = performance.now()
    const startedAt = clock.now()
    try {
      const res = await dispatch(req)
      requests.add(req, res, startedAt, startedAt + performance.now() - started)
      return res
    } finally {
      if (--inflight === 0) idle?.()
    }
  }
  const drained = () => (inflight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)))
  const refused = (req: EngineRequest): EngineResponse => {
    const e = refuse(E.temporarilyUnavailable, 'engine.shuttingDown', {})
    return { status: e.def.status, headers: { 'content-type': JSON_TYPE, ...problemHeaders(e, wantsProblem(req)) }, body: JSON.stringify(e.body) }
  }
  return {
    handle: (req) => (closing ? Promise.resolve(refused(req)) : tracked(req)),
    admit,
    loadDemo: async () => {
      await measure.settled()
      const token = auth.issueLocal().access_token
      return loadDemo(tracked, token, db, measure, dateIn(settings.timeZone, clock.now()), settings.timeZone)
    },
    localToken: async () => {
      const t = auth.issueLocal()
      await persister.durable()
      return t.access_token
    },
    flush: () => persister.durable().then(() => persister.checkpoint()),
    // Running pulls are cancelled (what they stored stays); requests already inside the engine
    // finish (and are made durable) before it closes.
    close: () => (closing ??= sync.close().then(drained).then(() => measure.close()).then(() => persister.close())),
    settings,
    measure,
    firstRun,
    replayed: persister.replayed,
    ready,
    schemaVersionFound: found,
  }
}
