/**
 * The pure parts of the rows of what the user feels (bench/felt.ts): the day the screens are
 * shown on, latency summaries, the terms of the search row, the pieces of the import, and the
 * verdicts. No I/O, no clock (test: test/bench/felt-logic.test.ts).
 */
import { judge, type Verdict } from './targets'

/** The engine's paths whose answers name "today" for the Reports screen. */
export const STATUS_PATH = '/local/v1/status'
export const PROGRESS_PATH = '/admonitor/v1/reports/basic/progress'

const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

/**
 * An answer of the engine as it would be on `today`: the bench's campaign runs in 2099 (so that
 * tracking hits of today never touch it), and the Reports screen shows no figures of days that
 * have not come. On the day after the campaign's end, `local/v1/status` says that day and
 * `basic/progress` (the last fully computed day) the day before; every other answer is the
 * engine's own. Returns `json` unchanged for other paths.
 */
export function asOn(path: string, json: unknown, today: string): unknown {
  if (typeof json !== 'object' || json === null) return json
  if (path === STATUS_PATH) return { ...json, today }
  if (path === PROGRESS_PATH) return { ...json, date: addDays(today, -1) }
  return json
}

/** The day after `end`. */
export const dayAfter = (end: string): string => addDays(end, 1)

export interface Latency {
  n: number
  p50: number
  p95: number
  max: number
}

/** The `q` quantile of `xs` (nearest rank: the smallest value with at least q of them at or below it). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!
}

/** p50, p95 and max of latencies in ms. */
export function latency(xs: readonly number[]): Latency {
  return { n: xs.length, p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), max: xs.length ? Math.max(...xs) : NaN }
}

/**
 * The search terms of the search row, one a request, none repeated (a repeated URL would be
 * answered from the answer cache, which a user typing does not get): the numbers 10 to 1999 in an
 * order drawn from `seed`, each a part of some campaigns' names (`Felt <word> <n>`).
 */
export function searchTerms(seed: number): string[] {
  const terms = Array.from({ length: 1990 }, (_, i) => String(i + 10))
  let s = seed >>> 0 || 1
  for (let i = terms.length - 1; i > 0; i--) {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    const j = s % (i + 1)
    ;[terms[i], terms[j]] = [terms[j]!, terms[i]!]
  }
  return terms
}

/**
 * The byte ranges `[start, end)` of a file of `size` bytes cut into pieces of at most `max` bytes,
 * each ending after a newline (`newlineBefore(pos)`: the offset just after the last newline at or
 * before `pos`, or -1 when there is none after `from`), as a script sends a large file to
 * `events/import` (64 MiB at most a request). A line longer than `max` throws.
 */
export function pieces(size: number, max: number, newlineBefore: (pos: number, from: number) => number): [number, number][] {
  const out: [number, number][] = []
  for (let start = 0; start < size;) {
    if (size - start <= max) {
      out.push([start, size])
      break
    }
    const end = newlineBefore(start + max - 1, start)
    if (end <= start) throw new Error(`a line longer than ${max} bytes at byte ${start}`)
    out.push([start, end])
    start = end
  }
  return out
}

/** One tab's figures: click to rendered, and its requests. */
export interface TabTime {
  view: string
  /** Click to the tab's cards showing their figures (or their empty or error state), ms. */
  ms: number
  /** What the tab showed: figures, nothing to show, an error, or it did not finish in time. */
  state: 'data' | 'empty' | 'error' | 'timeout'
  requests: { path: string; ms: number; waitMs: number; bytes: number }[]
  /** CPU time the server spent from the click to the tab shown (Linux, 10 ms ticks), ms. */
  serverCpuMs?: number
}

/** The verdicts of the rows: first report (median, ms), each tab cold and warm, the search p95 during the import against idle. */
export function feltVerdicts(f: { firstReportMs: number | null; cold: TabTime[]; warm: TabTime[]; search: { idle: Latency; importing: Latency } | null }): Verdict[] {
  const tab = (id: 'tabCold' | 'tabWarm', t: TabTime) => judge(id, t.state === 'timeout' ? null : t.ms, undefined, `${t.state}; ${t.requests.length} request(s), slowest ${Math.round(Math.max(0, ...t.requests.map((r) => r.ms)))} ms`, t.view)
  const s = f.search
  return [
    judge('firstReport', f.firstReportMs === null ? null : f.firstReportMs / 1000, undefined, 'spawn -> the Reports screen\'s first report answered, median of 3'),
    ...f.cold.map((t) => tab('tabCold', t)),
    ...f.warm.map((t) => tab('tabWarm', t)),
    judge('searchImport', s?.importing.p95, undefined, s ? `p50 ${Math.round(s.importing.p50)} ms, max ${Math.round(s.importing.max)} ms of ${s.importing.n}; idle p95 ${Math.round(s.idle.p95)} ms (${(s.importing.p95 / s.idle.p95).toFixed(1)}x)` : 'not measured'),
  ]
}
