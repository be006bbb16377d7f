/**
 * What a handler receives: the engine's services plus the request at hand. Time and
 * randomness come only from here (`clock`, `random`), so tests can fix them.
 */
import { randomBytes } from 'node:crypto'
import type { EndpointId, ParamsFor, ResultOf } from './contract/endpoints'
import type { EngineRequest } from './contract/envelope'
import type { PagedRows } from './result-sets'
import type { TokenService, AuthUser } from './auth/token-service'
import type { Db } from './storage/db'
import type { Measurement } from './measure/service'
import type { RequestLog } from './request-log'
import type { SyncService } from './sync/service'

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

/** Lets the event loop turn (requests, timers, other work) before going on: long work is cut into turns. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve))

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
  /** Events, ingest, panels: what tracking and reports use. */
  measure: Measurement
  /** The last requests answered (the app's request log). */
  requests: RequestLog
  /** Remote profiles, their secrets and pulls (DESIGN §4). */
  sync: SyncService
}

/** A handler's view of one request. */
export interface Ctx extends Services {
  request: EngineRequest
  /** The caller, for endpoints that need a token. */
  user: AuthUser | null
  /** The parsed JSON body, for endpoints that take one. */
  json: unknown
  /** The raw body of 'text' endpoints (file uploads). */
  text: string
  /** Today's date (YYYY-MM-DD) in the engine time zone. */
  today: string
}

/**
 * An answer that is not JSON (tracking pixels, redirects, file exports): sent as it is, without
 * JSONP wrapping or response caching.
 */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string | Uint8Array,
  ) {}
}

/**
 * An answer already written as JSON, in UTF-8 pieces (engine/json-bytes.ts), for answers too
 * large to build as objects and serialize (reports/items.ts reportJson). `T` is the result it
 * stands for, so a handler still answers its endpoint's type.
 */
export class JsonParts<T> {
  declare private readonly of?: T
  constructor(readonly parts: readonly Uint8Array[]) {}
}

type RowOf<K extends EndpointId> = ResultOf<K> extends readonly (infer R)[] ? R : never
type Answer<K extends EndpointId> = ResultOf<K> | JsonParts<ResultOf<K>> | RawResponse | PagedRows<RowOf<K>>

export type Handler<K extends EndpointId> = ((ctx: Ctx, params: ParamsFor<K>) => Answer<K> | Promise<Answer<K>>) & { paged?: true }

/**
 * A list handler answered page by page from its whole result set (engine/result-sets.ts): it
 * returns every matching id and a row builder, and is not called again for another page of the
 * same query. Its params must have a `limit`.
 */
export function paged<K extends EndpointId>(fn: (ctx: Ctx, params: ParamsFor<K>) => PagedRows<RowOf<K>>): Handler<K> {
  return Object.assign(fn, { paged: true as const })
}

/** One handler per endpoint; the mapped type makes a missing or extra handler a compile error. */
export type Handlers = { [K in EndpointId]: Handler<K> }

const formatters = new Map<string, Intl.DateTimeFormat>()
const offsets = new Map<string, Map<number, number>>()
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
 * quarter hours, and so do dates, so the last answer holds for the rest of its quarter hour
 * (this runs on every request).
 */
export function dateIn(timeZone: string, ms: number): string {
  const bucket = Math.floor(ms / QUARTER_HOUR)
  if (bucket !== lastDate.bucket || timeZone !== lastDate.timeZone) {
    lastDate = { timeZone, bucket, date: new Date(ms + zoneOffset(timeZone, ms)).toISOString().slice(0, 10) }
  }
  return lastDate.date
}

let lastDate = { timeZone: '', bucket: NaN, date: '' }

/**
 * The offset of `timeZone` from UTC at instant `ms`, looked up once per quarter hour of time
 * (imports jump back and forth in time, so every quarter hour seen is remembered).
 */
export function zoneOffset(timeZone: string, ms: number): number {
  const bucket = Math.floor(ms / QUARTER_HOUR)
  let zone = offsets.get(timeZone)
  if (!zone) offsets.set(timeZone, (zone = new Map()))
  let o = zone.get(bucket)
  if (o === undefined) {
    if (zone.size > 200_000) zone.clear()
    o = offsetAt(timeZone, bucket * QUARTER_HOUR)
    zone.set(bucket, o)
  }
  return o
}

const DAY_MS = 86_400_000

/**
 * The instant of a wall-clock time (`wall`: the wall clock's date and time as milliseconds since
 * 1970, read as if UTC) in a zone whose offset at an instant `offsetAt` gives. A wall time that a
 * change of offset skips (spring forward: 02:30 on such a day in New York) is moved on by the
 * change (03:30); one it repeats (fall back) is the earlier of its two instants: the
 * "compatible" reading of ECMAScript Temporal and of most date libraries.
 */
export function utcOfWall(wall: number, offsetAt: (ms: number) => number): number {
  // the offsets a day either side (no zone changes twice within two days)
  const before = offsetAt(wall - DAY_MS)
  const after = offsetAt(wall + DAY_MS)
  const early = wall - before
  if (before === after) return early
  const late = wall - after
  const fits = (t: number) => t + offsetAt(t) === wall
  if (fits(early) && fits(late)) return Math.min(early, late)
  if (fits(late)) return late
  // fits(early), or skipped: read with the offset before the change
  return early
}

/** Day number (days since 1970-01-01) and hour of instant `ms` on the wall clock of `timeZone`. */
export function localDayHour(timeZone: string, ms: number): { day: number; hour: number } {
  const local = ms + zoneOffset(timeZone, ms)
  const day = Math.floor(local / DAY_MS)
  return { day, hour: Math.floor((local - day * DAY_MS) / 3_600_000) }
}

/** Day number of a date written YYYY-MM-DD. */
export const dayNumber = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS)

/** The date written YYYY-MM-DD of a day number. */
export const dayDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)
