/**
 * What a handler receives: the engine's services plus the request at hand. Time and
 * randomness come only from here (`clock`, `random`), so tests can fix them.
 */
import { randomBytes } from 'node:crypto'
import type { EndpointId, ParamsFor, ResultOf } from './contract/endpoints'
import type { EngineRequest } from './contract/envelope'
import type { TokenService, AuthUser } from './auth/token-service'
import type { Db } from './storage/db'

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Waits `ms` (login throttling); a fake clock may advance instead. */
  sleep(ms: number): Promise<void>
}

export interface Random {
  bytes(n: number): Uint8Array
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

export const systemRandom: Random = { bytes: (n) => randomBytes(n) }

export interface Logger {
  error(message: string, cause?: unknown): void
  info(message: string): void
}

export const consoleLogger: Logger = {
  error: (message, cause) => console.error(`[engine] ${message}`, cause ?? ''),
  info: (message) => console.error(`[engine] ${message}`),
}

export interface Settings {
  /** IANA zone in which dates and campaign status are reckoned (default Asia/Shanghai). */
  timeZone: string
  /** Base URL written into tracking tags (this engine's tracking endpoints). */
  publicUrl: string
  /** Name of the IP library (linked_iplib of campaigns). */
  ipLibrary: string
}

/** Services shared by every request. */
export interface Services {
  db: Db
  clock: Clock
  random: Random
  settings: Settings
  auth: TokenService
  log: Logger
}

/** A handler's view of one request. */
export interface Ctx extends Services {
  request: EngineRequest
  /** The caller, for endpoints that need a token. */
  user: AuthUser | null
  /** The parsed JSON body, for endpoints that take one. */
  json: unknown
  /** Today's date (YYYY-MM-DD) in the engine time zone. */
  today: string
}

export type Handler<K extends EndpointId> = (ctx: Ctx, params: ParamsFor<K>) => ResultOf<K> | Promise<ResultOf<K>>

/** One handler per endpoint; the mapped type makes a missing or extra handler a compile error. */
export type Handlers = { [K in EndpointId]: Handler<K> }

const formatters = new Map<string, Intl.DateTimeFormat>()
const offsets = new Map<string, { bucket: number; offsetMs: number }>()
const QUARTER_HOUR = 15 * 60 * 1000

/** Milliseconds zone `timeZone` is ahead of UTC at instant `ms` (Intl, so DST rules hold). */
function offsetAt(timeZone: string, ms: number): number {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    formatters.set(timeZone, f)
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)]))
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!)
  return wall - Math.floor(ms / 1000) * 1000
}

/**
 * The calendar date (YYYY-MM-DD) of instant `ms` in zone `timeZone`. Zone offsets only change on
 * quarter hours, so the offset is looked up once per quarter hour (this runs on every request).
 */
export function dateIn(timeZone: string, ms: number): string {
  const bucket = Math.floor(ms / QUARTER_HOUR)
  let o = offsets.get(timeZone)
  if (!o || o.bucket !== bucket) {
    o = { bucket, offsetMs: offsetAt(timeZone, bucket * QUARTER_HOUR) }
    offsets.set(timeZone, o)
  }
  return new Date(ms + o.offsetMs).toISOString().slice(0, 10)
}
