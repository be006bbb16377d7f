/**
 * Fills the buffer with the hits of one hour slot: each spot's bursts, its impressions (client,
 * time, keyword) and its clicks, each drawn from one of those impressions. What the engine makes
 * of each hit's request (identity, platform, region, class) is added when it is emitted (emit.ts).
 */
import { ensure } from '../grow'
import { KIND } from '../types'
import type { Capping } from './caps'
import { firstAbove } from '../search'
import type { Burst, DaySchedule } from './day-schedule'
import * as d from './distributions'
import type { SimRandom } from './random'
import { HIDDEN, SlotBuffer } from './slot-buffer'
import type { SpotVolume } from './types'

/** What the filler needs of a spot: its keywords with cumulative Zipf weights, its kind of impression, its audience. */
export interface SpotTraits {
  keywords: Int32Array
  cum: Float64Array
  impressionKind: number
  mobileShare: number
  profile: Float64Array | null
  /** Which ids its apps fill (clients.ts FILL). */
  fill: number
}

/** The traits of a spot of the plan. */
export function spotTraits(v: SpotVolume): SpotTraits {
  const cum = new Float64Array(v.keywords.length)
  let total = 0
  v.keywords.forEach((_, r) => (cum[r] = total += 1 / (r + 1) ** d.KEYWORD_ZIPF))
  for (let r = 0; r < cum.length; r++) cum[r] = cum[r]! / total
  return { keywords: Int32Array.from(v.keywords), cum, impressionKind: v.emitsImpressions ? KIND.impression : HIDDEN, mobileShare: v.mobileShare, profile: v.profile, fill: v.fill }
}

/** Draws the hits of hour slots into its buffer. */
export class SlotFiller {
  readonly buf = new SlotBuffer()
  /** Impressions that found no client under their frequency caps (not delivered). */
  capped = 0
  /** First buffer position of each spot's impressions in the slot (and the end). */
  private ranges = new Int32Array(16)

  constructor(
    private readonly rng: SimRandom,
    private readonly spots: readonly SpotTraits[],
    private readonly capping: Capping,
  ) {}

  /**
   * The hits of slot `slot` of the day; `burst` is the first burst not yet used; returns the next.
   * Impressions first, then their attributes, then the clicks, which copy an impression's.
   */
  fill(sched: DaySchedule, slot: number, burst: number): number {
    const h = sched.slots.length
    const { start, end } = sched.slots[slot]!
    const buf = this.buf
    buf.reset()
    buf.reserve(this.slotSize(sched, slot, burst))
    const ranges = (this.ranges = ensure(this.ranges, this.spots.length + 1))
    let b = burst
    for (let s = 0; s < this.spots.length; s++) {
      ranges[s] = buf.n
      for (; b < sched.bursts.length && sched.bursts[b]!.slot === slot && sched.bursts[b]!.spot === s; b++) this.burst(sched.bursts[b]!)
      const n = sched.impressions[s * h + slot]!
      const { impressionKind: kind, mobileShare, profile } = this.spots[s]!
      for (let k = 0; k < n; k++) {
        const ts = start + Math.floor(this.rng.next() * (end - start))
        const j = this.capping.pick(s, mobileShare, profile)
        if (j >= 0) buf.add(kind, ts, j, s, 0, 0)
        else this.capped++
      }
    }
    ranges[this.spots.length] = buf.n
    this.keywords()
    for (let s = 0; s < this.spots.length; s++) {
      const clicks = sched.clicks[s * h + slot]!
      if (clicks > 0 && ranges[s + 1]! > ranges[s]!) this.clicks(s, clicks, ranges[s]!, ranges[s + 1]!, end)
    }
    return b
  }

  private slotSize(sched: DaySchedule, slot: number, burst: number): number {
    const h = sched.slots.length
    let n = 0
    for (let s = 0; s < this.spots.length; s++) n += sched.impressions[s * h + slot]! + sched.clicks[s * h + slot]!
    for (let b = burst; b < sched.bursts.length && sched.bursts[b]!.slot === slot; b++) n += sched.bursts[b]!.size
    return n
  }

  private burst(b: Burst): void {
    for (let k = 0; k < b.size; k++) this.buf.add(KIND.impression, b.start + Math.floor(k * b.gap), b.identity, b.spot, 0, 0)
  }

  /** The keyword of every impression of a keyword spot, by popularity. */
  private keywords(): void {
    const { buf, rng } = this
    for (let i = 0; i < buf.n; i++) {
      const spot = this.spots[buf.spot[i]!]!
      if (spot.cum.length > 0) buf.keyword[i] = spot.keywords[firstAbove(spot.cum, rng.next())]!
    }
  }

  /** Clicks of spot `s`, each after one of its impressions at buffer positions first..last-1 (same client and keyword). */
  private clicks(s: number, count: number, first: number, last: number, end: number): void {
    const buf = this.buf
    for (let k = 0; k < count; k++) {
      const i = first + Math.floor(this.rng.next() * (last - first))
      const u = this.rng.next()
      const ts = Math.min(buf.ts[i]! + Math.floor(d.CLICK_DELAY_MIN_MS + d.CLICK_DELAY_SPAN_MS * u * u), end - 1)
      buf.add(KIND.click, ts, buf.identity[i]!, s, buf.keyword[i]!, 0)
    }
  }
}
