/**
 * The panel's raw projection that calibration.ts divides the census by, summed exactly and kept
 * per copy of a partition's panel events.
 */
import type { Partition } from '../measure/columns'
import type { PanelIndex } from '../measure/panel/types'
import { firstAtLeast } from '../measure/search'
import { flagPlatform } from '../measure/types'
import { panelEventsOf, type PanelEvents } from './persons'
import { positionOf, selectorKey, type Selector } from './selector'
import { sameValues } from './same-values'

/**
 * The panel's raw projection per position, platform and kind: the sum of the weight units of the
 * audience's persons over their counted events, at [pos * 4 + platform * 2 + (click ? 1 : 0)].
 * Summed exactly (exactUnits), so that the sums of a copy of the panel events brought up to date
 * after a panel person's hit (those of the copy it was merged from, less that person's counts
 * there, plus their counts now) are the sums a pass over every event gives, to the last bit: a
 * rebuild answers the same.
 */
export function rawSums(part: Partition, personOf: Int32Array, panel: PanelIndex, sel: Selector, nPos: number, audience: Uint8Array): Float64Array {
  const g = panelEventsOf(part, personOf)
  const key = `${selectorKey(sel)}|${nPos}`
  const same = (k: KeptRaw) => k.key === key && k.panel === panel && sameValues(k.audience, audience)
  const kept = keptRaw.get(g)?.find(same)
  if (kept) return kept.sums
  const exact = exactUnits(panel)
  const from = g.base ? keptRaw.get(g.base.g)?.find(same) : undefined
  const slots = new PersonSlots(nPos * 4)
  let big: bigint[]
  if (from && g.base) {
    big = from.big.slice()
    const old = g.base.g
    for (const person of g.base.persons) {
      if (audience[person] !== 1) continue
      slots.count(old, firstAtLeast(old.person, person), person, sel)
      slots.addTo(big, exact.units[person]!, -1n)
      slots.count(g, firstAtLeast(g.person, person), person, sel)
      slots.addTo(big, exact.units[person]!, 1n)
    }
  } else {
    big = new Array<bigint>(nPos * 4).fill(0n)
    for (let e = 0; e < g.n; ) {
      const person = g.person[e]!
      e = slots.count(g, e, person, sel, audience[person] === 1)
      slots.addTo(big, exact.units[person]!, 1n)
    }
  }
  // (a panel person's hit that changes no sum (another window, position or class): the same
  // sums, so that what was kept for them downstream is kept; Number() of a bigint rounds to the
  // nearest double, and the scale is a power of 2)
  const sums = from && big.every((x, i) => x === from.big[i]) ? from.sums : Float64Array.from(big, exact.toNumber)
  const list = keptRaw.get(g) ?? []
  list.push({ key, panel, audience: audience.slice(), big, sums })
  // (a few specs a copy of the panel events: the reports' platforms and filtrations)
  if (list.length > 8) list.shift()
  keptRaw.set(g, list)
  return sums
}

interface KeptRaw {
  key: string
  panel: PanelIndex
  audience: Uint8Array
  /** The exact sums (exactUnits). */
  big: bigint[]
  sums: Float64Array
}

/** rawSums kept per copy of a partition's panel events (a new copy comes with a panel person's event). */
const keptRaw = new WeakMap<PanelEvents, KeptRaw[]>()

/** One person's counted events per slot of rawSums, as counts (reset by addTo). */
class PersonSlots {
  private readonly counts: Int32Array
  private readonly touched: number[] = []

  constructor(slots: number) {
    this.counts = new Int32Array(slots)
  }

  /** Counts the person's events, which start at `e` (if any; none when `counted` is false); returns where the next person's start. */
  count(g: PanelEvents, e: number, person: number, sel: Selector, counted = true): number {
    for (; e < g.n && g.person[e] === person; e++) {
      if (!counted) continue
      const pos = positionOf(sel, g, e)
      if (pos < 0) continue
      const slot = pos * 4 + flagPlatform(g.flags[e]!) * 2 + (g.kind[e] === sel.clkKind ? 1 : 0)
      if (this.counts[slot]!++ === 0) this.touched.push(slot)
    }
    return e
  }

  /** Adds sign x count x units to each counted slot of `sums`, and forgets the counts. */
  addTo(sums: bigint[], units: bigint, sign: bigint): void {
    for (const slot of this.touched) {
      sums[slot]! += sign * BigInt(this.counts[slot]!) * units
      this.counts[slot] = 0
    }
    this.touched.length = 0
  }
}

/**
 * A panel's weight units as whole numbers: each unit is m x 2^e (a double's mantissa and
 * exponent), kept as m x 2^(e - low) for the panel's lowest e, so that sums of them are exact in
 * any order; `toNumber` turns such a sum back into units.
 */
function exactUnits(panel: PanelIndex): ExactUnits {
  let x = exactOf.get(panel)
  if (!x) {
    const parts = Array.from(panel.units, mantissaExponent)
    const low = parts.reduce((m, [mantissa, e]) => (mantissa === 0n ? m : Math.min(m, e)), 0)
    const units = parts.map(([mantissa, e]) => mantissa << BigInt(e - low))
    x = { units, toNumber: (sum) => scaled(sum, low) }
    exactOf.set(panel, x)
  }
  return x
}

interface ExactUnits {
  units: bigint[]
  toNumber: (sum: bigint) => number
}

const exactOf = new WeakMap<PanelIndex, ExactUnits>()

const bits = new DataView(new ArrayBuffer(8))

/** A finite double >= 0 as m x 2^e, m a whole number (0 for 0): from its bits. */
function mantissaExponent(u: number): [bigint, number] {
  bits.setFloat64(0, u)
  const word = bits.getBigUint64(0)
  const exponent = Number((word >> 52n) & 0x7ffn)
  const fraction = word & 0xfffffffffffffn
  // (a subnormal has no implicit leading 1)
  return exponent === 0 ? [fraction, -1074] : [fraction | 0x10000000000000n, exponent - 1075]
}

/** sum x 2^e as the nearest double (a sum too long for a double is cut to its top 64 bits first, the same way each time). */
function scaled(sum: bigint, e: number): number {
  if (sum < LONG && sum > -LONG) return Number(sum) * 2 ** e
  const cut = sum.toString(16).length * 4 - 64
  return Number(sum >> BigInt(cut)) * 2 ** (e + cut)
}

/** Sums from 2^900 on are cut first (scaled): Number() of them, times 2^e, could leave the doubles. */
const LONG = 2n ** 900n
