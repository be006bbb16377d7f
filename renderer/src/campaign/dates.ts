/** Calendar arithmetic on YYYY-MM-DD texts (UTC, no time zone shifts), for plans and the header. */

const DAY_MS = 86_400_000

/** The local calendar day (this computer's time zone) of a timestamp, as YYYY-MM-DD; now by default. */
export function localDay(ts: number = Date.now()): string {
  const d = new Date(ts)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

const toMs = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)))
const fromMs = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** The date `n` days after `date` (negative: before). */
export function addDays(date: string, n: number): string {
  return fromMs(toMs(date) + n * DAY_MS)
}

/** Days from `a` to `b` (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((toMs(b) - toMs(a)) / DAY_MS)
}

/** Every date from `from` to `to`, both included ([] when `to` is before `from`). */
export function dateRange(from: string, to: string): string[] {
  const n = daysBetween(from, to)
  return n < 0 ? [] : Array.from({ length: n + 1 }, (_, i) => addDays(from, i))
}

/** Day of the week, Monday 0 … Sunday 6. */
export function weekday(date: string): number {
  return (new Date(toMs(date)).getUTCDay() + 6) % 7
}

/** The months (YYYY-MM) from the month of `from` to the month of `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = []
  let y = Number(from.slice(0, 4))
  let m = Number(from.slice(5, 7))
  const last = to.slice(0, 7)
  for (let guard = 0; guard < 1200; guard++) {
    const key = `${y}-${String(m).padStart(2, '0')}`
    if (key > last) break
    out.push(key)
    m = m === 12 ? 1 : m + 1
    if (m === 1) y++
  }
  return out
}

/** The weeks of a month (YYYY-MM), Monday first; days outside the month are null. */
export function monthGrid(month: string): (string | null)[][] {
  const first = `${month}-01`
  const next = monthsBetween(first, addDays(first, 40))[1] ?? month
  const days = dateRange(first, addDays(`${next}-01`, -1))
  const cells: (string | null)[] = [...Array<null>(weekday(first)).fill(null), ...days]
  while (cells.length % 7 !== 0) cells.push(null)
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7))
}

/**
 * The day a key moves to in the plan calendar (WAI-ARIA grid): arrows by a day or a week, Home and
 * End to the week's Monday and Sunday, PageUp and PageDown by a month (the same day, or the
 * month's last when it has fewer). `null` for other keys.
 */
export function calendarKeyTarget(date: string, key: string): string | null {
  switch (key) {
    case 'ArrowRight': return addDays(date, 1)
    case 'ArrowLeft': return addDays(date, -1)
    case 'ArrowDown': return addDays(date, 7)
    case 'ArrowUp': return addDays(date, -7)
    case 'Home': return addDays(date, -weekday(date))
    case 'End': return addDays(date, 6 - weekday(date))
    case 'PageUp': case 'PageDown': {
      const step = key === 'PageUp' ? -1 : 1
      const y = Number(date.slice(0, 4))
      const m = Number(date.slice(5, 7)) - 1 + step
      const first = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10)
      const last = addDays(new Date(Date.UTC(y, m + 1, 1)).toISOString().slice(0, 10), -1)
      const day = `${first.slice(0, 8)}${date.slice(8)}`
      return day > last || Number(date.slice(8)) > Number(last.slice(8)) ? last : day
    }
    default: return null
  }
}
