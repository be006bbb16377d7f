/**
 * Figures not come yet: one rule for days and hours. The daily trend asks no figure for a day
 * after the engine's today (it drew zeros through the days ahead), and the realtime views leave
 * the hours after the current hour of the engine's today blank (the API answers 0 for them, which
 * drew a drop to zero at the current hour). "Now" is the engine's: its today and time zone
 * (`/local/v1/status`).
 */
import { dateRange } from '../campaign/dates'
import { maxDate, minDate } from './items'

/** Now on the engine's clock: its date and hour (0-23) in its time zone. */
export interface EngineNow {
  date: string
  hour: number
}

/** The date and hour of `now` in `timeZone` (UTC when the zone is unknown to the browser). */
export function engineNow(now: Date, timeZone: string): EngineNow {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' }).formatToParts(now)
  } catch {
    return engineNow(now, 'UTC')
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) % 24 }
}

/** Whether a day has come: the engine's today or before (a later day has no figures yet). */
export const dayCome = (date: string, today: string): boolean => date <= today

/**
 * The last hour of `date` that has come: the current hour on the engine's today, else 23 (a day
 * gone by; also when the engine's date and the clock's disagree, as with a simulated clock).
 */
export function lastHourCome(date: string, now: EngineNow): number {
  return date === now.date ? now.hour : 23
}

/** Hourly figures with the hours after `lastHour` blank (null), as days not come yet are. */
export function blankAfter<T>(hours: readonly (T | null)[], lastHour: number): (T | null)[] {
  return hours.map((v, h) => (h > lastHour ? null : v))
}

/**
 * The days the trend asks figures for: from the campaign start to the cut-off date, the campaign
 * end or the engine's today, whichever comes first (none of the days after have come).
 */
export function actualDates(start: string, end: string, cutoff: string, today: string): string[] {
  const last = minDate(minDate(cutoff, end), today)
  return dayCome(start, last) ? dateRange(start, last) : []
}

/** A remark on the cut-off date: an i18n key under `reports.dateNotice` and its parameters. */
export interface DateNotice {
  key: 'beforeStart' | 'notYet' | 'afterEnd' | 'incomplete'
  params: Record<string, string>
}

/** The campaign's dates, the engine's today and the last fully computed day of the filtration. */
export interface DateBounds {
  start: string
  end: string
  today: string
  progress: string
}

/**
 * What to say about a cut-off date: before the campaign (no figures: it had not begun), a day not
 * come yet, after the campaign's end (the accumulated figures are those of its end, the day's
 * are none), or after the last fully computed day (still being counted); null when none applies.
 */
export function dateNotice(date: string, b: DateBounds): DateNotice | null {
  if (date < b.start) return { key: 'beforeStart', params: { date, start: b.start } }
  if (!dayCome(date, b.today)) return { key: 'notYet', params: { date, today: b.today } }
  if (date > b.end) return { key: 'afterEnd', params: { date, end: b.end } }
  if (date > b.progress) return { key: 'incomplete', params: { date: b.progress } }
  return null
}

/**
 * Whether the date picker offers a date: from the campaign's start to its end or the engine's
 * today, whichever comes first (only the start while the campaign has not begun).
 */
export function datePickable(date: string, b: Pick<DateBounds, 'start' | 'end' | 'today'>): boolean {
  return date >= b.start && date <= maxDate(b.start, minDate(b.end, b.today))
}
