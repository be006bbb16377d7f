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
  const c = k.counts
  for (let i = k.n; i < part.n; i++) {
    const pos = positionOf(sel, part, i)
    if (pos >= 0) c[pos * 4 + flagPlatform(part.flags[i]!) * 2 + (part.kind[i] === sel.clkKind ? 1 : 0)]!++
  }
  k.n = part.n
  return c
}
