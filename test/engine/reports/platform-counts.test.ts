// The census figures the calibration divides by (engine/reports/platform-counts.ts): counted
// events per position, platform and kind, brought up to date as events come and counted afresh
// after a renumbering, equal to a count by hand of what the test added.
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import { IVT, KIND, PLATFORM, packFlags } from '../../../engine/measure/types'
import { platformCounts } from '../../../engine/reports/platform-counts'
import { AD_KINDS, flagTable, type Selector } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
type Ev = { day: number; kind: number; spot: number; keyword: number; identity: number; pc: boolean; ivt: number }

/** Spots 1 and 2 at positions 0 and 1, both filtering data-centre hits (spot 4 lies beyond the table); or keywords 1 and 2 at positions 0 and 1. */
const selector = (platforms: number, keywords = false): Selector => ({
  from: FROM, to: FROM + 6, ...AD_KINDS, flagOk: flagTable({ platforms, sdk: 0, stableOnly: false, filtration: 'net' }), spotBase: 0,
  spotPos: Int32Array.from([-1, 0, 1, -1]), spotDc: Uint8Array.from([0, 1, 1, 0]), keywordPos: keywords ? new Map([[1, 0], [2, 1]]) : null, eventPos: null,
})

function byHand(events: readonly Ev[], platforms: number, keywords = false): number[] {
  const out = new Array<number>(8).fill(0)
  for (const e of events) {
    const spotPos = [-1, 0, 1, -1][e.spot] ?? -1
    const pos = spotPos < 0 || !keywords ? spotPos : ([-1, 0, 1][e.keyword] ?? -1)
    const platform = e.pc ? 0 : 1
    if (pos < 0 || e.day < FROM || e.day > FROM + 6 || e.ivt !== IVT.valid || (platforms & (1 << platform)) === 0) continue
    out[pos * 4 + platform * 2 + (e.kind === KIND.click ? 1 : 0)]!++
  }
  return out
}

describe('platformCounts', () => {
  it('counts what a count by hand gives, as events come, for each platform choice, and after a renumbering', () => {
    const random = prng(21)
    const part = new Partition()
    const events: Ev[] = []
    const add = (n: number) => {
      for (let i = 0; i < n; i++) {
        const e: Ev = { day: FROM - 1 + Math.floor(random() * 9), kind: random() < 0.2 ? KIND.click : KIND.impression, spot: Math.floor(random() * 5), keyword: Math.floor(random() * 4), identity: Math.floor(random() * 50), pc: random() < 0.3, ivt: random() < 0.1 ? IVT.datacenter : IVT.valid }
        events.push(e)
        part.add(e.day, 9, e.kind, packFlags({ ivt: e.ivt as 0, stable: false, platform: e.pc ? PLATFORM.pc : PLATFORM.mb, sdk: 0 }), 0, e.spot, e.keyword, e.identity)
      }
    }
    add(500)
    for (let round = 0; round < 6; round++) {
      for (const platforms of [1, 2, 3]) {
        expect(Array.from(platformCounts(part, selector(platforms), 2)), `round ${round}, platforms ${platforms}`).toEqual(byHand(events, platforms))
        expect(Array.from(platformCounts(part, selector(platforms, true), 2)), `round ${round}, platforms ${platforms}, keywords`).toEqual(byHand(events, platforms, true))
      }
      add(1 + round * 37)
    }
    part.settle(50, true)
    expect(Array.from(platformCounts(part, selector(3), 2))).toEqual(byHand(events, 3))
  })
})
