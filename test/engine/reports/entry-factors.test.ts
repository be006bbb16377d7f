// Calibration factors per entry of the panel kernel's cells (engine/reports/calibration.ts
// entryFactors): after panel persons' events, the cells are brought up to date from the result
// before, and with the same factors only the added persons' entries are computed; they must be
// what a computation over every entry gives, and the mean of the platforms' factors by hand.
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import { IVT, KIND, PLATFORM, packFlags } from '../../../engine/measure/types'
import { entryFactors, type Calibration } from '../../../engine/reports/calibration'
import { derivationOf, personCells, type PersonCells } from '../../../engine/reports/persons'
import { AD_KINDS, flagTable } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
const personOf = Int32Array.from({ length: 300 }, (_, i) => (i < 100 ? i % 50 : -1))
const home = { homeFirst: Int32Array.from({ length: 50 }, (_, p) => p % 3), homeSecond: new Int32Array(50).fill(-1), nRegions: 3 }
const sel = { from: FROM, to: FROM + 9, ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' }), spotBase: 0, spotPos: Int32Array.from([-1, 0, 1]), spotDc: new Uint8Array(3), keywordPos: null, eventPos: null }
/** pc and mobile factors of positions 0 and 1. */
const k: Calibration = { imp: Float64Array.from([0.1, 0.5, 0.2, 0.7]), clk: Float64Array.from([0.3, 0.9, 0.4, 0.6]), member: {} }

/** The same cells as a new object: no kept factors, no derivation. */
const clone = (c: PersonCells): PersonCells => ({ ...c })

describe('entryFactors', () => {
  it('gives, for cells brought up to date after panel persons\' events, the factors of a computation over every entry, the platforms\' mean by hand', () => {
    const random = prng(3)
    const part = new Partition()
    const add = (identity: number, day = FROM + Math.floor(random() * 10)) => {
      const pc = random() < 0.4
      part.add(day, 9, random() < 0.2 ? KIND.click : KIND.impression, packFlags({ ivt: IVT.valid, stable: false, platform: pc ? PLATFORM.pc : PLATFORM.mb, sdk: 0 }), 0, 1 + Math.floor(random() * 2), 0, identity)
    }
    for (let i = 0; i < 2000; i++) add(Math.floor(random() * 300))
    const cellsNow = () => personCells({ part, sel, personOf, nPos: 2, ...home, days: false, split: true })
    let before = cellsNow()
    entryFactors(k, before, 3, 3, false)
    let derived = 0
    for (let round = 0; round < 20; round++) {
      for (let n = 0; n < 1 + (round % 4); n++) add(Math.floor(random() * 100))
      const now = cellsNow()
      if (derivationOf(now)?.prev === before) derived++
      const f = entryFactors(k, now, 3, 3, false)
      const whole = entryFactors(k, clone(now), 3, 3, false)
      expect(Array.from(f.imp), `round ${round}`).toEqual(Array.from(whole.imp))
      expect(Array.from(f.clk), `round ${round}`).toEqual(Array.from(whole.clk))
      for (let j = 0; j < now.n; j++) {
        const pos = Math.floor(now.cell[j]! / 3)
        const all = now.impressions[j]!
        const want = all > 0 ? (now.impPc[j]! * k.imp[pos * 2]! + (all - now.impPc[j]!) * k.imp[pos * 2 + 1]!) / all : 0
        expect(f.imp[j]).toBeCloseTo(want, 12)
      }
      before = now
    }
    expect(derived).toBe(20)
  })
})
