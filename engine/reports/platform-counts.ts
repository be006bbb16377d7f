/**
 * What the calibration divides by the panel's raw projection (calibration.ts): the census's
 * impressions and clicks of each position, per platform, global region, in one pass over the
 * partition's events, where two census passes (pc, and both platforms) gave the same. Kept per
 * partition and spec, and brought up to date with the events added since, as kept censuses are
 * (census-cache.ts); counted afresh when the partition renumbers its events.
 */
import type { Partition } from '../measure/columns'
import { flagPlatform } from '../measure/types'
import { positionOf, selectorKey, type Selector } from './selector'

interface Kept {
  key: string
  generation: number
  /** Events of the partition counted. */
  n: number
  counts: Uint32Array
}

const kept = new WeakMap<Partition, Kept[]>()

/**
 * Counted events of `sel` per position, platform and kind: [pos * 4 + platform * 2 + (click ? 1 : 0)]
 * (platform 0 pc, 1 mobile). The array is shared with later calls, which update it in place.
 */
export function platformCounts(part: Partition, sel: Selector, nPos: number): Uint32Array {
  const key = `${selectorKey(sel)}|${nPos}`
  const list = kept.get(part) ?? []
  let k = list.find((x) => x.key === key)
  if (!k || k.generation !== part.generation || k.n > part.n) {
    if (k) list.splice(list.indexOf(k), 1)
    k = { key, generation: part.generation, n: 0, counts: new Uint32Array(nPos * 4) }
    list.push(k)
    // (a few specs a partition: the reports' platforms, filtrations and SDKs)
    if (list.length > 8) list.shift()
    kept.set(part, list)
  }
  if (sel.eventPos || sel.keywordPos) countBy(part, sel, k.counts, k.n)
  else countSpots(part, sel, k.counts, k.n)
  k.n = part.n
  return k.counts
}

/** Counts events [from, part.n) of `sel` into `c`, each at its position (positionOf). */
function countBy(part: Partition, sel: Selector, c: Uint32Array, from: number): void {
  for (let i = from; i < part.n; i++) {
    const pos = positionOf(sel, part, i)
    if (pos >= 0) c[pos * 4 + flagPlatform(part.flags[i]!) * 2 + (part.kind[i] === sel.clkKind ? 1 : 0)]!++
  }
}

/**
 * countBy for a selector of spot positions alone (no keywords, no per-event positions), with the
 * columns and tables in locals: the first count after a start passes over every event of the
 * campaign, and this loop takes about a third less time there than one calling positionOf.
 */
function countSpots(part: Partition, sel: Selector, c: Uint32Array, from: number): void {
  const { day, kind, spot, flags } = part
  const { from: first, to: last, impKind, clkKind, spotBase, spotPos, spotDc, flagOk } = sel
  const nSpots = spotPos.length
  for (let i = from; i < part.n; i++) {
    const d = day[i]!
    const k = kind[i]!
    if (d < first || d > last || (k !== impKind && k !== clkKind)) continue
    const si = spot[i]! - spotBase
    if (si < 0 || si >= nSpots) continue
    const pos = spotPos[si]!
    const f = flags[i]!
    if (pos < 0 || flagOk[spotDc[si]! * 256 + f] !== 1) continue
    c[pos * 4 + flagPlatform(f) * 2 + (k === clkKind ? 1 : 0)]!++
  }
}
