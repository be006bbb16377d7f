/**
 * Media request ids already counted (docs/attribution.md, "Media request id"): an impression or a
 * click whose tag carries the media's ad request id (`tr=__REQUESTID__`, filled) counts once for
 * its kind, campaign, spot and keyword; the same id again within REQUEST_WINDOW_MS of the counted
 * hit is a repeat (a pixel fired twice, a retry) and is not counted. The ids are written to the
 * event log next to their events and held in the checkpoint, so a start knows them.
 */
import type { Kind } from './types'

/** How long a counted request id makes its repeats not count. */
export const REQUEST_WINDOW_MS = 24 * 3_600_000
/** Most ids held; past it the oldest is forgotten first (a repeat of it would count again). */
export const MAX_REQUEST_IDS = 1_000_000
/** Longest id read from a tag; a longer value is not taken as a request id. */
export const MAX_REQUEST_ID_LENGTH = 128

/** The key of a counted hit's request id. */
export const requestKey = (kind: Kind, campaign: number, spot: number, keyword: number, id: string): string => `${kind}|${campaign}|${spot}|${keyword}|${id}`

/** Whether a hit at `ts` is within the window of one counted at `at` (either way: an import may bring a log's lines out of time order). */
const within = (at: number, ts: number): boolean => Math.abs(ts - at) < REQUEST_WINDOW_MS

/** The request ids counted, oldest first, with the time of the hit each was counted with. */
export class RequestIds {
  private readonly seen = new Map<string, number>()

  constructor(private readonly max = MAX_REQUEST_IDS) {}

  get size(): number {
    return this.seen.size
  }

  /** When the hit of `key` was counted, if within REQUEST_WINDOW_MS of `ts`. */
  countedAt(key: string, ts: number): number | undefined {
    const at = this.seen.get(key)
    return at !== undefined && within(at, ts) ? at : undefined
  }

  /** countedAt(), and when the hit of `key` is no repeat, add() (one lookup for both). */
  claim(key: string, ts: number): number | undefined {
    const at = this.seen.get(key)
    if (at !== undefined && within(at, ts)) return at
    this.add(key, ts)
    return undefined
  }

  /** Remembers a counted hit; forgets ids older than the window before `ts`, and the oldest past the limit. */
  add(key: string, ts: number): void {
    // deleted first, so that the Map's order stays the order of the hits counted
    this.seen.delete(key)
    this.seen.set(key, ts)
    for (const [k, at] of this.seen) {
      if (this.seen.size <= this.max && ts - at < REQUEST_WINDOW_MS) break
      this.seen.delete(k)
    }
  }

  /** Keys and times, oldest first (a checkpoint). */
  arrays(): { keys: string[]; ts: Float64Array } {
    const keys = [...this.seen.keys()]
    const ts = new Float64Array(keys.length)
    let i = 0
    for (const at of this.seen.values()) ts[i++] = at
    return { keys, ts }
  }

  static from(keys: readonly string[], ts: Float64Array): RequestIds {
    const r = new RequestIds()
    for (let i = 0; i < keys.length; i++) r.seen.set(keys[i]!, ts[i]!)
    return r
  }
}
