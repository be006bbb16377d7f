/**
 * The live request log of the Server page: entries polled from GET /local/v1/requests/list with
 * `after`, merged, trimmed to the newest ones and filtered for display. Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'

export type RequestEntry = ResultOf<'requests.list'>[number]

/** How many entries the table keeps (the engine keeps 1,000). */
export const LOG_KEEP = 500

/** Status classes offered by the filter; `errors` is every status from 400. */
export const STATUS_FILTERS = ['all', '2xx', '3xx', '4xx', '5xx', 'errors'] as const
export type StatusFilter = (typeof STATUS_FILTERS)[number]

export type LogFilter = {
  /** Free text: part of the path or method, or a status code. */
  text: string
  status: StatusFilter
}

/** A remembered filter made safe: unknown status classes become `all`. */
export function readFilter(raw: { text?: unknown; status?: unknown }): LogFilter {
  const status = STATUS_FILTERS.find((s) => s === raw.status) ?? 'all'
  return { text: typeof raw.text === 'string' ? raw.text : '', status }
}

/** The largest seq held (0 when empty): the `after` of the next poll. */
export function lastSeq(entries: readonly RequestEntry[]): number {
  return entries.length === 0 ? 0 : entries[entries.length - 1]!.seq
}

/**
 * `current` (oldest first) with the entries of `incoming` it does not hold yet appended in seq
 * order, trimmed to the newest `keep`. Returns `current` itself when nothing is new.
 */
export function mergeEntries(current: readonly RequestEntry[], incoming: readonly RequestEntry[], keep = LOG_KEEP): readonly RequestEntry[] {
  const after = lastSeq(current)
  const fresh = incoming.filter((e) => e.seq > after).sort((a, b) => a.seq - b.seq)
  if (fresh.length === 0) return current.length > keep ? current.slice(current.length - keep) : current
  const all = [...current, ...fresh]
  return all.length > keep ? all.slice(all.length - keep) : all
}

/** How many entries are newer than `seq` (what a paused log has not shown yet). */
export function countNewer(entries: readonly RequestEntry[], seq: number): number {
  let n = 0
  for (let i = entries.length - 1; i >= 0 && entries[i]!.seq > seq; i--) n++
  return n
}

/** Whether a status belongs to a status class of the filter. */
export function statusMatches(status: number, filter: StatusFilter): boolean {
  if (filter === 'all') return true
  if (filter === 'errors') return status >= 400
  return Math.floor(status / 100) === Number(filter[0])
}

/** The entries that pass the filter, newest first (the order of the table). */
export function filterEntries(entries: readonly RequestEntry[], filter: LogFilter): RequestEntry[] {
  const text = filter.text.trim().toLowerCase()
  const out: RequestEntry[] = []
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!
    if (!statusMatches(e.status, filter.status)) continue
    if (text && !(e.path.toLowerCase().includes(text) || e.method.toLowerCase() === text || String(e.status) === text || e.door === text)) continue
    out.push(e)
  }
  return out
}

/** The colour of a status: success (2xx), info (3xx), warning (4xx), error (5xx). */
export function statusTone(status: number): 'success' | 'info' | 'warning' | 'error' | 'default' {
  if (status >= 500) return 'error'
  if (status >= 400) return 'warning'
  if (status >= 300) return 'info'
  if (status >= 200) return 'success'
  return 'default'
}
