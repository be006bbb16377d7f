/**
 * How old a fetched record or snapshot is, as the Sync page says it ("5 min ago"): an i18n key
 * under `sync.age` and its count. Pure (the current time is a parameter).
 */

export interface AgeLabel {
  key: 'unknown' | 'justNow' | 'minutes' | 'hours' | 'days'
  n: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The age of `iso` at `now`: under a minute (or in the future: clocks differ) "just now", then
 * minutes, hours up to two days, then days.
 */
export function ageLabel(iso: string, now: number): AgeLabel {
  const t = Date.parse(iso)
  if (!iso || Number.isNaN(t)) return { key: 'unknown', n: 0 }
  const ms = now - t
  if (ms < MINUTE) return { key: 'justNow', n: 0 }
  if (ms < HOUR) return { key: 'minutes', n: Math.floor(ms / MINUTE) }
  if (ms < 2 * DAY) return { key: 'hours', n: Math.floor(ms / HOUR) }
  return { key: 'days', n: Math.floor(ms / DAY) }
}

/** Whether data fetched at `iso` is old enough to deserve a warning colour (a week by default). */
export function isStale(iso: string, now: number, maxMs = 7 * DAY): boolean {
  const t = Date.parse(iso)
  return !Number.isNaN(t) && now - t > maxMs
}
