// The censuses of a range's days read from censuses with cells per day (census-days.ts, census.ts
// byDay) count for each day what a census of that day alone counts (the spec basic/show makes with
// metrics=day): the cells seen from the window's start to the day and the day's impressions,
// clicks and unique counts; for days before the start and after the end too, whatever the order of
// an identity's events, in chunks of days, and from kept censuses brought up to date with added events
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import { IVT, KIND, PLATFORM, SDK, packFlags } from '../../../engine/measure/types'
import { census, type CensusResult, type CensusSpec } from '../../../engine/reports/census'
import { CensusCache } from '../../../engine/reports/census-cache'
import { DayCensuses } from '../../../engine/reports/census-days'
import { AD_KINDS, flagTable } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

/** The campaign's first and last day. */
const START = 20_000
const END = START + 7
const IDENTITIES = 200

type Ev = [day: number, hour: number, kind: number, flags: number, region: number, spot: number, identity: number]

/**
 * Events of 200 identities from two days before the start to two after the end, some of them
 * invalid (the net rules leave those out); `order`: in day order, or at random (an import of
 * unsorted logs).
 */
function events(seed: number, order: 'days' | 'random'): Ev[] {
  const random = prng(seed)
  const out: Ev[] = []
  for (let i = 0; i < 4000; i++) {
    const kind = random() < 0.2 ? KIND.click : KIND.impression
    const flags = packFlags({ ivt: random() < 0.1 ? IVT.bot : IVT.valid, stable: false, platform: random() < 0.5 ? PLATFORM.pc : PLATFORM.mb, sdk: SDK.none })
    out.push([START - 2 + Math.floor(random() * (END - START + 5)), Math.floor(random() * 24), kind, flags, Math.floor(random() * 4), 1 + Math.floor(random() * 3), Math.floor(random() * IDENTITIES)])
  }
  if (order === 'days') out.sort((x, y) => x[0] - y[0])
  return out
}

function partition(list: readonly Ev[], settleAt: number): Partition {
  const part = new Partition()
  for (const [k, e] of list.entries()) {
    if (k === settleAt) part.settle(IDENTITIES, true)
    add(part, e)
  }
  return part
}

const add = (part: Partition, [day, hour, kind, flags, region, spot, identity]: Ev) => part.add(day, hour, kind, flags, region, spot, 0, identity)

/** The spec basic/show makes for report day `day` with metrics=day: the window from the start to the day (or the end). */
function daySpec(part: Partition, day: number): CensusSpec {
  const sel = {
    from: START, to: Math.min(day, END), ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' }),
    spotBase: 0, spotPos: Int32Array.from([-1, 0, 1, 2]), spotDc: new Uint8Array(4), keywordPos: null, eventPos: null,
  }
  // regions 0..3: cells 0..3, and a parent cell 4 of regions 2 and 3
  return { part, identities: IDENTITIES, sel, day, nPos: 3, nRegions: 5, regionFirst: Int32Array.from([0, 1, 2, 3]), regionSecond: Int32Array.from([-1, -1, 4, 4]), uniques: true, averages: false }
}

/** What basic/show reads of a census for metrics=day. */
const dayFigures = (r: CensusResult) => ({ seen: [...r.seen], imp: [...r.impDay], clk: [...r.clkDay], uim: [...r.uimDay], ucl: [...r.uclDay] })

const DAYS = Array.from({ length: END - START + 7 }, (_, i) => START - 3 + i)

/** Each day of DAYS from `days` and from a census of that day alone, side by side. */
function compare(part: Partition, days: DayCensuses, what: string): void {
  for (const day of DAYS) {
    const s = daySpec(part, day)
    const got = dayFigures(days.of(s))
    expect(got, `${what} day ${day - START}`).toEqual(dayFigures(census(daySpec(part, day))))
  }
}

describe('DayCensuses', () => {
  it("counts each day of a range as a census of that day alone, in one census or in chunks of days", () => {
    for (const seed of [1, 2]) {
      for (const order of ['days', 'random'] as const) {
        for (const settleAt of [0, 2500]) {
          const list = events(seed, order)
          const part = partition(list, settleAt)
          // the figures are not all zero: a day's own counts differ from the window's
          const mid = dayFigures(census(daySpec(part, START + 3)))
          expect(mid.imp.filter((x) => x > 0).length).toBeGreaterThan(10)
          for (const maxCells of [undefined, 15, 45, 100]) {
            let passes = 0
            const days = new DayCensuses((s) => (passes++, census(s)), DAYS.at(-1)!, maxCells)
            compare(part, days, `seed ${seed} ${order} settled ${settleAt} cells ${maxCells}`)
            // one census for the range's campaign days, or one per chunk (15 cells: a day)
            expect(passes).toBe(maxCells === undefined ? 1 : Math.ceil((END - START + 1) / Math.floor(maxCells / 15)))
          }
        }
      }
    }
  })

  it('reads kept censuses brought up to date with added events as a census of every event counts', () => {
    for (const order of ['days', 'random'] as const) {
      const list = events(3, order)
      const part = new Partition()
      const cache = new CensusCache()
      let at = 0
      for (const [step, size] of [1, 30, 600, 1, 1500, 1868].entries()) {
        for (const e of list.slice(at, at + size)) add(part, e)
        at += size
        if (step === 3) part.settle(IDENTITIES, true)
        compare(part, new DayCensuses((s) => cache.get(s), DAYS.at(-1)!, 45), `${order} step ${step}`)
      }
      expect(at).toBe(list.length)
    }
  })
})
