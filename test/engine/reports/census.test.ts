// The census kernel's unique counts per cell and per cell-day: the same with per-day stamps held in
// arrays as with the set per identity run used when the arrays would not fit, and equal to a count
// written here with Sets
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import { KIND } from '../../../engine/measure/types'
import { census } from '../../../engine/reports/census'
import { AD_KINDS, flagTable, type Selector } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
const SPAN = 9

function dataset(seed: number): { part: Partition; identities: number } {
  const random = prng(seed)
  const part = new Partition()
  const identities = 300
  for (let i = 0; i < 6000; i++) {
    const kind = random() < 0.2 ? KIND.click : KIND.impression
    part.add(FROM + Math.floor(random() * (SPAN + 2)) - 1, Math.floor(random() * 24), kind, 0, Math.floor(random() * 4), 1 + Math.floor(random() * 5), 0, Math.floor(random() * identities))
  }
  return { part, identities }
}

function selector(): Selector {
  const spotPos = Int32Array.from([-1, 0, 1, 2, 3, 4])
  return { from: FROM, to: FROM + SPAN - 1, ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'none' }), spotBase: 0, spotPos, spotDc: new Uint8Array(6), keywordPos: null, eventPos: null }
}

describe('census', () => {
  it('counts uniques per cell, per cell on the day and per cell-day alike with dense and sparse day stamps', () => {
    for (const seed of [1, 2, 3]) {
      const { part, identities } = dataset(seed)
      // regions 0..3: level cells 0..3 and a parent cell 4 for regions 2 and 3
      const spec = {
        part, identities, sel: selector(), day: FROM + 4, nPos: 5, nRegions: 5,
        regionFirst: Int32Array.from([0, 1, 2, 3]), regionSecond: Int32Array.from([-1, -1, 4, 4]), uniques: true, averages: true,
      }
      const dense = census(spec)
      const sparse = census({ ...spec, maxDenseStamps: 0 })
      expect(sparse).toEqual(dense)
      // by hand: sets of identities per cell and per cell-day
      const uim = new Map<number, Set<number>>()
      const uimDays = new Map<number, Set<string>>()
      const a = part.arrays()
      for (let i = 0; i < part.n; i++) {
        if (a.kind[i] !== KIND.impression || a.day[i]! < FROM || a.day[i]! > FROM + SPAN - 1) continue
        for (const r of [spec.regionFirst[a.region[i]!]!, spec.regionSecond[a.region[i]!]!]) {
          if (r < 0) continue
          const cell = (a.spot[i]! - 1) * 5 + r
          uim.set(cell, (uim.get(cell) ?? new Set()).add(a.identity[i]!))
          uimDays.set(cell, (uimDays.get(cell) ?? new Set()).add(`${a.identity[i]} ${a.day[i]}`))
        }
      }
      for (let c = 0; c < 25; c++) {
        expect(dense.uim[c]).toBe(uim.get(c)?.size ?? 0)
        expect(dense.uimDays[c]).toBe(uimDays.get(c)?.size ?? 0)
      }
      expect([...dense.seen].filter((x) => x === 1).length).toBeGreaterThan(15)
    }
  })
})
