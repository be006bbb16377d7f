// The audience reports' position sums (engine/reports/position-sums.ts): after panel persons'
// events the person cells are brought up to date from the result before, and only the blocks of
// the persons whose entries changed are summed again; the sums must be, to the last bit, what a
// pass over every entry gives, and close to a sum by hand of each person's units and pc share.
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import type { PanelIndex } from '../../../engine/measure/panel/types'
import { IVT, KIND, PLATFORM, packFlags } from '../../../engine/measure/types'
import { derivationOf, personCells, type PersonCells } from '../../../engine/reports/persons'
import { positionSums, type PositionSums } from '../../../engine/reports/position-sums'
import { AD_KINDS, flagTable } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
const PERSONS = 600 // several blocks of persons
const T = 12
const random = prng(11)
const panel = {
  size: PERSONS, units: Float64Array.from({ length: PERSONS }, () => 0.5 + random() * 3), tagBytes: 2, tagIds: Array.from({ length: T }, (_, t) => `tag${t}`),
  tags: Uint8Array.from({ length: PERSONS * 2 }, (_, i) => Math.floor(random() * 256) & (i % 2 === 1 ? 0x0f : 0xff)),
} as unknown as PanelIndex
/** Identities 0-1,199: the first 1,000 are panel persons' devices (two per person for some). */
const personOf = Int32Array.from({ length: 1200 }, (_, i) => (i < 1000 ? i % PERSONS : -1))
const sel = { from: FROM, to: FROM + 9, ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' }), spotBase: 0, spotPos: Int32Array.from([-1, 0, 1, 2]), spotDc: new Uint8Array(4), keywordPos: null, eventPos: null }

const hasTag = (person: number, t: number) => (panel.tags[person * 2 + (t >> 3)]! & (1 << (t & 7))) !== 0
const arrays = (x: PositionSums) => [x.imp.pc, x.imp.mb, x.clk.pc, x.clk.mb, x.impCount, x.clkCount, x.impTags!.pc, x.impTags!.mb, x.clkTags!.pc, x.clkTags!.mb].map((a) => Array.from(a))

/** The sums by hand: per entry, its person's units split by the pc share of their impressions (clicks). */
function byHand(c: PersonCells): number[][] {
  const z = (n: number) => new Array<number>(n).fill(0)
  const [ip, im, cp, cm, ic, cc, itp, itm, ctp, ctm] = [z(3), z(3), z(3), z(3), z(3), z(3), z(3 * T), z(3 * T), z(3 * T), z(3 * T)]
  for (let j = 0; j < c.n; j++) {
    const [person, pos, imps, clicks] = [c.person[j]!, c.cell[j]!, c.impressions[j]!, c.clicks[j]!]
    const u = panel.units[person]!
    const add = (pc: number[], mb: number[], tpc: number[], tmb: number[], count: number[], share: number) => {
      pc[pos]! += u * share
      mb[pos]! += u * (1 - share)
      count[pos]!++
      for (let t = 0; t < T; t++) if (hasTag(person, t)) (tpc[pos * T + t]! += u * share, tmb[pos * T + t]! += u * (1 - share))
    }
    if (imps > 0) add(ip, im, itp, itm, ic, c.impPc[j]! / imps)
    if (clicks > 0) add(cp, cm, ctp, ctm, cc, c.clkPc[j]! / clicks)
  }
  return [ip, im, cp, cm, ic, cc, itp, itm, ctp, ctm]
}

describe('positionSums', () => {
  it('gives, after panel persons\' events, the sums of a pass over every entry, bit for bit, and the sums by hand', () => {
    const part = new Partition()
    const add = (identity: number) => {
      const pc = random() < 0.4
      part.add(FROM + Math.floor(random() * 10), 9, random() < 0.2 ? KIND.click : KIND.impression, packFlags({ ivt: IVT.valid, stable: false, platform: pc ? PLATFORM.pc : PLATFORM.mb, sdk: 0 }), 0, 1 + Math.floor(random() * 3), 0, identity)
    }
    for (let i = 0; i < 6000; i++) add(Math.floor(random() * 1200))
    const cellsNow = () => personCells({ part, sel, personOf, nPos: 3, homeFirst: new Int32Array(PERSONS), homeSecond: new Int32Array(PERSONS).fill(-1), nRegions: 1, days: false, split: true })
    let before = cellsNow()
    positionSums(panel, before, 3, true)
    let derived = 0
    for (let round = 0; round < 20; round++) {
      // persons in one block, in several, a person again
      for (let n = 0; n < 1 + (round % 4); n++) add(Math.floor(random() * 1000))
      const now = cellsNow()
      if (derivationOf(now)?.prev === before) derived++
      const kept = arrays(positionSums(panel, now, 3, true))
      expect(kept, `round ${round}`).toEqual(arrays(positionSums(panel, { ...now }, 3, true)))
      byHand(now).forEach((want, i) => want.forEach((x, k) => expect(kept[i]![k], `round ${round}, array ${i}, slot ${k}`).toBeCloseTo(x, 9)))
      // the overview's sums (no tags) agree with the tagged ones
      const plain = positionSums(panel, { ...now }, 3, false)
      expect(Array.from(plain.imp.pc)).toEqual(kept[0])
      before = now
    }
    expect(derived).toBe(20)
  })
})
