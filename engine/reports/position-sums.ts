/**
 * The audience reports' sums per position (and per position and tag) of the persons with an
 * impression (a click), in forms that do not depend on the calibration factors (audience.ts
 * applies them per position). Summed per block of BLOCK persons first, then over the blocks in
 * order: after a panel person's event only the blocks of the persons whose entries changed are
 * summed again, and the totals are the same, to the last bit, as a pass over every entry gives
 * (a fresh engine, a rebuild).
 */
import { firstAtLeast } from '../measure/search'
import type { PanelIndex } from '../measure/panel/types'
import { derivationOf, type PersonCells } from './persons'

/** Sums of weight units on pc and on mobile. */
export interface Split {
  pc: Float64Array
  mb: Float64Array
}

/**
 * Per position, the persons with an impression (a click): a person's calibrated weight is
 * units x (kPc x share + kMb x (1 - share)), share the part of their impressions (clicks) on pc,
 * linear in the factors; so the sums are of units x share and units x (1 - share). Each entry of
 * the person cells is one (person, position), so a person counts once per position.
 */
export interface PositionSums {
  imp: Split
  clk: Split
  impCount: Uint32Array
  clkCount: Uint32Array
  /** The same per position and tag (position i at i * T), when asked for. */
  impTags: Split | null
  clkTags: Split | null
}

/** Persons a block covers: a panel person's event sums their block again, and every block's sums are added up. */
const BLOCK = 128

/** Where each sum lies in a block's numbers (and in the totals): imp pc, imp mb, clk pc, clk mb, then the same per tag. */
class Layout {
  readonly width: number
  readonly tagsAt: number

  constructor(readonly nPos: number, readonly T: number) {
    this.tagsAt = 4 * nPos
    this.width = 4 * nPos * (1 + T)
  }
}

interface Kept {
  panel: PanelIndex
  nPos: number
  withTags: boolean
  /** Per block, its sums (Layout), and its counts: impressions then clicks per position. */
  blocks: Float64Array
  counts: Uint32Array
  sums: PositionSums
}

const kept = new WeakMap<PersonCells, Kept[]>()

/** The position sums of `c`, kept per person-cells result: the same while no panel person's event changes it, whatever the census does. */
export function positionSums(panel: PanelIndex, c: PersonCells, nPos: number, withTags: boolean): PositionSums {
  const same = (k: Kept) => k.panel === panel && k.nPos === nPos && (k.withTags || !withTags)
  const have = kept.get(c)?.find(same)
  if (have) return have.sums
  const l = new Layout(nPos, withTags ? panel.tagIds.length : 0)
  const nBlocks = Math.ceil(panel.size / BLOCK)
  const d = derivationOf(c)
  const before = d ? kept.get(d.prev)?.find((k) => same(k) && k.withTags === withTags) : undefined
  let blocks: Float64Array
  let counts: Uint32Array
  const tags = new Int32Array(panel.tagBytes * 8)
  if (d && before) {
    // (only the blocks of the persons whose entries changed)
    blocks = before.blocks.slice()
    counts = before.counts.slice()
    let last = -1
    for (const person of d.persons) {
      const b = Math.floor(person / BLOCK)
      if (b === last) continue
      last = b
      blocks.fill(0, b * l.width, (b + 1) * l.width)
      counts.fill(0, b * 2 * nPos, (b + 1) * 2 * nPos)
      addEntries(panel, c, l, blocks, counts, tags, firstAtLeast(c.person, b * BLOCK, c.n), firstAtLeast(c.person, (b + 1) * BLOCK, c.n))
    }
  } else {
    blocks = new Float64Array(nBlocks * l.width)
    counts = new Uint32Array(nBlocks * 2 * nPos)
    addEntries(panel, c, l, blocks, counts, tags, 0, c.n)
  }
  const sums = totals(l, blocks, counts, nBlocks, withTags)
  const list = kept.get(c) ?? []
  list.unshift({ panel, nPos, withTags, blocks, counts, sums })
  kept.set(c, list.slice(0, 4))
  return sums
}

/** Adds entries [from, to) of `c` to their persons' blocks. */
function addEntries(panel: PanelIndex, c: PersonCells, l: Layout, blocks: Float64Array, counts: Uint32Array, tags: Int32Array, from: number, to: number): void {
  const { nPos, T, width, tagsAt } = l
  for (let j = from; j < to; j++) {
    const person = c.person[j]!
    const b = Math.floor(person / BLOCK)
    const units = panel.units[person]!
    const at = c.cell[j]!
    const imps = c.impressions[j]!
    const clicks = c.clicks[j]!
    const n = T > 0 ? tagsOf(panel, person, tags) : 0
    const base = b * width
    if (imps > 0) {
      addSplit(blocks, base + at, base + nPos + at, base + tagsAt + at * T, base + tagsAt + (nPos + at) * T, tags, n, units, c.impPc[j]! / imps)
      counts[b * 2 * nPos + at]!++
    }
    if (clicks > 0) {
      addSplit(blocks, base + 2 * nPos + at, base + 3 * nPos + at, base + tagsAt + (2 * nPos + at) * T, base + tagsAt + (3 * nPos + at) * T, tags, n, units, c.clkPc[j]! / clicks)
      counts[b * 2 * nPos + nPos + at]!++
    }
  }
}

/** Adds units x share at `pc`, the rest at `mb`, and so for the `n` tags in `tags` from `pcTags` and `mbTags`. */
function addSplit(to: Float64Array, pc: number, mb: number, pcTags: number, mbTags: number, tags: Int32Array, n: number, units: number, share: number): void {
  const onPc = units * share
  const onMb = units * (1 - share)
  to[pc]! += onPc
  to[mb]! += onMb
  // (most persons use one platform: a share of 0 or 1 adds to one side only)
  if (share > 0) for (let i = 0; i < n; i++) to[pcTags + tags[i]!]! += onPc
  if (share < 1) for (let i = 0; i < n; i++) to[mbTags + tags[i]!]! += onMb
}

/** The sums of the blocks, in block order. */
function totals(l: Layout, blocks: Float64Array, counts: Uint32Array, nBlocks: number, withTags: boolean): PositionSums {
  const { nPos, T, width, tagsAt } = l
  const all = new Float64Array(width)
  const n = new Uint32Array(2 * nPos)
  for (let b = 0; b < nBlocks; b++) {
    const base = b * width
    for (let i = 0; i < width; i++) all[i]! += blocks[base + i]!
    for (let i = 0; i < 2 * nPos; i++) n[i]! += counts[b * 2 * nPos + i]!
  }
  const part = (at: number, len: number) => all.subarray(at, at + len)
  const tagSplit = (k: number): Split => ({ pc: part(tagsAt + 2 * k * nPos * T, nPos * T), mb: part(tagsAt + (2 * k + 1) * nPos * T, nPos * T) })
  return {
    imp: { pc: part(0, nPos), mb: part(nPos, nPos) }, clk: { pc: part(2 * nPos, nPos), mb: part(3 * nPos, nPos) },
    impCount: n.subarray(0, nPos), clkCount: n.subarray(nPos, 2 * nPos),
    impTags: withTags ? tagSplit(0) : null, clkTags: withTags ? tagSplit(1) : null,
  }
}

/** Puts the indexes of the tags a person carries (set bits) in `out` (room for tagBytes x 8); returns how many. */
export function tagsOf(panel: PanelIndex, person: number, out: Int32Array): number {
  const row = person * panel.tagBytes
  let n = 0
  for (let b = 0; b < panel.tagBytes; b++) {
    let bits = panel.tags[row + b]!
    while (bits !== 0) {
      const low = bits & -bits
      out[n++] = b * 8 + 31 - Math.clz32(low)
      bits ^= low
    }
  }
  return n
}
