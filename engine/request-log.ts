/**
 * The last requests the engine answered, for the request log of the app's server page: method,
 * path (never the query, which may carry a token), status and time. A ring of fixed size.
 */
import type { EngineRequest } from './contract/envelope'

export interface RequestEntry {
  seq: number
  at: string
  door: 'http' | 'ipc' | 'internal'
  method: string
  path: string
  status: number
  ms: number
  /** Set when a server mode answered instead of the local store (docs/sync.md "Server modes"). */
  source?: 'forward' | 'offline'
  /** The remote profile of a forwarded or offline answer. */
  profile_id?: string
}

/** Paths not logged: the log's own polling would drown everything else. */
const UNLOGGED = new Set(['/local/v1/requests/list'])

export class RequestLog {
  private ring: RequestEntry[] = []
  private next = 0
  private seq = 0

  constructor(private readonly size = 1000) {}

  /** Records one answered request. */
  add(req: EngineRequest, res: { status: number; headers: Readonly<Record<string, string>> }, startedMs: number, endedMs: number): void {
    if (UNLOGGED.has(req.path)) return
    const door = req.door ?? (req.remoteAddress !== undefined ? 'http' : 'internal')
    const e: RequestEntry = { seq: ++this.seq, at: new Date(startedMs).toISOString(), door, method: req.method, path: req.path, status: res.status, ms: Math.round(endedMs - startedMs) }
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
    return newer.slice(Math.max(0, newer.length - limit))
  }
}
