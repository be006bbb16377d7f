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

/** Where an answer came from (docs/sync.md "Server modes"): entries without `source` are local. */
export const SOURCE_FILTERS = ['all', 'local', 'forward', 'offline', 'remote'] as const
export type SourceFilter = (typeof SOURCE_FILTERS)[number]
export type EntrySource = 'local' | 'forward' | 'offline'

export type LogFilter = {
  /** Free text: part of the path or method, or a status code. */
  text: string
  status: StatusFilter
  /** `remote` is forward or offline (every answer that did not come from the local store). */
  source: SourceFilter
  /** Only answers of this remote profile ('' for any). */
  profile_id: string
}

/** A remembered filter made safe: unknown status or source classes become `all`. */
export function readFilter(raw: { text?: unknown; status?: unknown; source?: unknown; profile_id?: unknown }): LogFilter {
  const status = STATUS_FILTERS.find((s) => s === raw.status) ?? 'all'
  const source = SOURCE_FILTERS.find((s) => s === raw.source) ?? 'all'
  const profileId = typeof raw.profile_id === 'string' ? raw.profile_id : ''
  return { text: typeof raw.text === 'string' ? raw.text : '', status, source, profile_id: profileId }
}

/** The profile ids the entries name, in order of first appearance (for the profile filter). */
export function profileIdsOf(entries: readonly RequestEntry[]): string[] {
  const seen = new Set<string>()
  for (const e of entries) if (e.profile_id) seen.add(e.profile_id)
  return [...seen]
}

/** The source of an entry: `forward`, `offline`, or `local` when the engine gave none. */
export function entrySource(e: RequestEntry): EntrySource {
  return e.source ?? 'local'
}

/** Whether an entry's source belongs to a source class of the filter. */
export function sourceMatches(e: RequestEntry, filter: SourceFilter): boolean {
  if (filter === 'all') return true
  const source = entrySource(e)
  return filter === 'remote' ? source !== 'local' : source === filter
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
    if (!statusMatches(e.status, filter.status) || !sourceMatches(e, filter.source)) continue
    if (filter.profile_id && e.profile_id !== filter.profile_id) continue
    if (text && !textMatches(e, text)) continue
    out.push(e)
  }
  return out
}

/** Free text (lower case) against the path, method, status, door and source of an entry. */
function textMatches(e: RequestEntry, text: string): boolean {
  return e.path.toLowerCase().includes(text) || e.method.toLowerCase() === text || String(e.status) === text || e.door === text || entrySource(e) === text
}

/** The colour of a status: success (2xx), info (3xx), warning (4xx), error (5xx). */
export function statusTone(status: number): 'success' | 'info' | 'warning' | 'error' | 'default' {
  if (status >= 500) return 'error'
  if (status >= 400) return 'warning'
  if (status >= 300) return 'info'
  if (status >= 200) return 'success'
  return 'default'
}
