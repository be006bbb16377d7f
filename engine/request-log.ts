/**
 * The last requests the engine answered, for the request log of the app's server page: method,
 * path (never the query, which may carry a token), status and time. A ring of fixed size.
 */
import { doorOf, type EngineRequest } from './contract/envelope'
import type { ResultOf } from './contract/endpoints'

/** One entry as `requests.list` answers it (the contract declares its members). */
type RequestEntry = ResultOf<'requests.list'>[number]

/** An entry as kept: its time as a number (formatted when read, not on every request). */
type Kept = Omit<RequestEntry, 'at'> & { atMs: number }

/** Paths not logged: the log's own polling would drown everything else. */
const UNLOGGED = new Set(['/local/v1/requests/list'])
/** (a longer path is not looked up: hashing a tracking tag's path of some 360 characters costs 0.45 us a hit) */
const LONGEST_UNLOGGED = Math.max(...[...UNLOGGED].map((p) => p.length))

export class RequestLog {
  private ring: Kept[] = []
  private next = 0
  private seq = 0

  constructor(private readonly size = 1000) {}

  /** Records one answered request. */
  add(req: EngineRequest, res: { status: number; headers: Readonly<Record<string, string>> }, startedMs: number, endedMs: number): void {
    if (req.path.length <= LONGEST_UNLOGGED && UNLOGGED.has(req.path)) return
    const door = doorOf(req)
    const e: Kept = { seq: ++this.seq, atMs: startedMs, door, method: req.method, path: req.path, status: res.status, ms: Math.round(endedMs - startedMs) }
    const source = res.headers['x-admonitor-source']
    if (source === 'forward' || source === 'offline') Object.assign(e, { source, profile_id: res.headers['x-admonitor-profile-id'] ?? '' })
    if (this.ring.length < this.size) this.ring.push(e)
    else this.ring[this.next] = e
    this.next = (this.next + 1) % this.size
  }

  /** Entries with seq > `after`, oldest first, at most the newest `limit`. */
  after(after: number, limit: number): RequestEntry[] {
    const ordered = this.ring.length < this.size ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)]
    const newer = ordered.filter((e) => e.seq > after)
    return newer.slice(Math.max(0, newer.length - limit)).map(({ atMs, ...e }) => ({ ...e, at: new Date(atMs).toISOString() }))
  }
}
