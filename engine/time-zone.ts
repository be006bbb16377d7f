/**
 * Dates and hours on the wall clock of the engine's time zone (DESIGN §3: default Asia/Shanghai):
 * the date of an instant, a zone's offset, the instant of a wall time, and day numbers.
 */

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
