/**
 * Media request ids already counted (docs/attribution.md, "Media request id"): an impression or a
 * click whose tag carries the media's ad request id (`tr=__REQUESTID__`, filled) counts once for
 * its kind, campaign, spot and keyword; the same id again within REQUEST_WINDOW_MS of the counted
 * hit is a repeat (a pixel fired twice, a retry) and is not counted. The ids are written to the
 * event log next to their events and held in the checkpoint, so a start knows them.
 */
import { ensure } from './grow'
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

/**
 * The request ids counted, each with the time of its hit (or times: an id counted again a window
 * or more away from its first hit), and the counted hits in the order counted (a ring of keys and
 * times), which the limit forgets oldest first. Only the limit forgets an id, never the time of the
 * newest hit: an import brings lines out of time order, and one line dated days ahead would
 * otherwise make every id counted before it be forgotten (their repeats counted again).
 *
 * The order is a ring, not the Map's own order: forgetting the Map's first entry (entries().next()
 * then delete) walks every entry deleted before it, which V8 keeps as holes until the table is
 * rebuilt, so past the limit each hit would cost more than the last (in a soak test: 1 us an id
 * before the limit, 62 us after 160,000 more, hits stalled for seconds after an hour).
 */
export class RequestIds {
  private readonly seen = new Map<string, number | number[]>()
  /**
   * The counted hits, oldest at `head`: key and time; `held` of them. The arrays grow with the
   * hits up to `max` (head stays 0 until then: nothing is forgotten before the limit), so an
   * engine whose tags leave `tr` unfilled holds none: a million slots made at every start cost 16 MB.
   */
  private readonly ringKeys: string[] = []
  private ringTs = new Float64Array(0)
  private head = 0
  private held = 0

  constructor(private readonly max = MAX_REQUEST_IDS) {}

  /** Counted hits held (an id counted twice is two). */
  get size(): number {
    return this.held
  }

  /** When the hit of `key` was counted, if within REQUEST_WINDOW_MS of `ts`. */
  countedAt(key: string, ts: number): number | undefined {
    return matching(this.seen.get(key), ts)
  }

  /** countedAt(), and when the hit of `key` is no repeat, add(). */
  claim(key: string, ts: number): number | undefined {
    const at = this.seen.get(key)
    const repeatOf = matching(at, ts)
    if (repeatOf === undefined) this.put(key, at, ts)
    return repeatOf
  }

  /** Remembers a counted hit, as the newest; past the limit the oldest are forgotten. */
  add(key: string, ts: number): void {
    this.put(key, this.seen.get(key), ts)
  }

  private put(key: string, given: number | number[] | undefined, ts: number): void {
    // (read again after forgetting: the oldest hit may be this key's own, and its times change)
    const at = this.held === this.max ? (this.forgetOldest(), this.seen.get(key)) : given
    this.seen.set(key, at === undefined ? ts : typeof at === 'number' ? [at, ts] : [...at, ts])
    const slot = (this.head + this.held) % this.max
    if (slot >= this.ringTs.length) this.ringTs = ensure(this.ringTs, Math.min(this.max, slot + 1))
    this.ringKeys[slot] = key
    this.ringTs[slot] = ts
    this.held++
  }

  /** Forgets the oldest counted hit: its time leaves its id's times (the id, when it was the only one). */
  private forgetOldest(): void {
    const key = this.ringKeys[this.head]!
    this.ringKeys[this.head] = ''
    this.head = (this.head + 1) % this.max
    this.held--
    const times = this.seen.get(key)
    if (times === undefined || typeof times === 'number') this.seen.delete(key)
    // (an id's times are in the order counted, as the ring is: its oldest is its first)
    else this.seen.set(key, times.length === 2 ? times[1]! : times.slice(1))
  }

  /** Keys and times, oldest first (a checkpoint; a key counted twice comes twice). */
  arrays(): { keys: string[]; ts: Float64Array } {
    const keys: string[] = []
    const ts = new Float64Array(this.held)
    for (let i = 0; i < this.held; i++) {
      const slot = (this.head + i) % this.max
      keys.push(this.ringKeys[slot]!)
      ts[i] = this.ringTs[slot]!
    }
    return { keys, ts }
  }

  static from(keys: readonly string[], ts: Float64Array): RequestIds {
    const r = new RequestIds()
    for (let i = 0; i < keys.length; i++) r.add(keys[i]!, ts[i]!)
    return r
  }
}

/** The time of a counted hit within the window of `ts`, if one is. */
function matching(at: number | number[] | undefined, ts: number): number | undefined {
  if (at === undefined) return undefined
  if (typeof at === 'number') return within(at, ts) ? at : undefined
  return at.find((a) => within(a, ts))
}
