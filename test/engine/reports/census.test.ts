// The census kernel's unique counts per cell and per cell-day: the same whether each identity's
// events come in day order (one last day per cell) or not (a set of cell-days from where the days
// go back), and equal to a count written here with Sets; kept censuses (census-cache.ts) brought up
// to date with added events count the same
import { describe, expect, it } from 'vitest'
import { Partition } from '../../../engine/measure/columns'
import { KIND } from '../../../engine/measure/types'
import { census, type CensusResult } from '../../../engine/reports/census'
import { CensusCache } from '../../../engine/reports/census-cache'
import { AD_KINDS, flagTable, type Selector } from '../../../engine/reports/selector'
import { prng } from '../../helpers/prng'

const FROM = 20_000
const SPAN = 9

type Ev = [day: number, hour: number, kind: number, region: number, spot: number, identity: number]

/**
 * Events of 300 identities over the window (and a day either side); `order` puts them in day
 * order (as live hits arrive), in random order (an import of unsorted logs), or in day order with
 * a few identities' days going back late in their run. The first `settleAt` events are sorted by
 * identity in the partition, the rest are its tail (an identity's run spans both).
 */
function dataset(seed: number, order: 'days' | 'random' | 'late', settleAt: number): { part: Partition; identities: number; events: Ev[] } {
  const random = prng(seed)
  const identities = 300
  const events: Ev[] = []
  for (let i = 0; i < 6000; i++) {
    const kind = random() < 0.2 ? KIND.click : KIND.impression
    events.push([FROM + Math.floor(random() * (SPAN + 2)) - 1, Math.floor(random() * 24), kind, Math.floor(random() * 4), 1 + Math.floor(random() * 5), Math.floor(random() * identities)])
  }
  if (order !== 'random') events.sort((x, y) => x[0] - y[0])
  if (order === 'late') for (const e of events.filter((x) => x[5] % 10 === 0 && x[0] < FROM + 2)) events.push(events.splice(events.indexOf(e), 1)[0]!)
  const part = new Partition()
  for (const [k, [day, hour, kind, region, spot, identity]] of events.entries()) {
    // the events so far put in identity order (as before a checkpoint): later ones make the tail
    if (k === settleAt) part.settle(identities, true)
    part.add(day, hour, kind, 0, region, spot, 0, identity)
  }
  return { part, identities, events }
}

function selector(): Selector {
  const spotPos = Int32Array.from([-1, 0, 1, 2, 3, 4])
  return { from: FROM, to: FROM + SPAN - 1, ...AD_KINDS, flagOk: flagTable({ platforms: 3, sdk: 0, stableOnly: false, filtration: 'none' }), spotBase: 0, spotPos, spotDc: new Uint8Array(6), keywordPos: null, eventPos: null }
}

type Spec = Parameters<typeof census>[0]
type Counts = 'uim' | 'ucl' | 'uimDay' | 'uclDay' | 'uimDays' | 'uclDays'

/** regions 0..3: level cells 0..3 and a parent cell 4 for regions 2 and 3 */
const spec = (part: Partition, identities: number, over: Partial<Spec> = {}): Spec => ({
  part, identities, sel: selector(), day: FROM + 4, nPos: 5, nRegions: 5,
  regionFirst: Int32Array.from([0, 1, 2, 3]), regionSecond: Int32Array.from([-1, -1, 4, 4]), uniques: true, averages: true, ...over,
})

/** By hand: sets of identities per cell, on the day, and of identity-days per cell; and the impressions. */
function byHand(events: readonly Ev[], s: Spec): { sets: Record<Counts, Map<number, Set<string>>>; imp: number } {
  const sets = { uim: new Map<number, Set<string>>(), ucl: new Map<number, Set<string>>(), uimDay: new Map<number, Set<string>>(), uclDay: new Map<number, Set<string>>(), uimDays: new Map<number, Set<string>>(), uclDays: new Map<number, Set<string>>() }
  const add = (m: Map<number, Set<string>>, cell: number, key: string) => m.set(cell, (m.get(cell) ?? new Set()).add(key))
  let imp = 0
  for (const [day, , kind, region, spot, identity] of events) {
    if (day < FROM || day > FROM + SPAN - 1) continue
    for (const c of [s.regionFirst[region]!, s.regionSecond[region]!]) {
      if (c < 0) continue
      const cell = (spot - 1) * 5 + c
      if (kind === KIND.impression) {
        imp++
        add(sets.uim, cell, `${identity}`)
        add(sets.uimDays, cell, `${identity} ${day}`)
        if (day === s.day) add(sets.uimDay, cell, `${identity}`)
      } else {
        add(sets.ucl, cell, `${identity}`)
        add(sets.uclDays, cell, `${identity} ${day}`)
        if (day === s.day) add(sets.uclDay, cell, `${identity}`)
      }
    }
  }
  return { sets, imp }
}

function expectByHand(r: CensusResult, events: readonly Ev[], s: Spec, what: string): void {
  const { sets, imp } = byHand(events, s)
  for (let c = 0; c < 25; c++) {
    for (const k of ['uim', 'ucl', 'uimDay', 'uclDay', 'uimDays', 'uclDays'] as const) expect(r[k][c], `${what} ${k} cell ${c}`).toBe(sets[k].get(c)?.size ?? 0)
  }
  expect(r.imp.reduce((x, y) => x + y, 0), what).toBe(imp)
}

describe('census', () => {
  it('counts uniques per cell, per cell on the day and per cell-day exactly, whatever the order of the events', () => {
    for (const seed of [1, 2, 3]) {
      const orders = [['days', 0], ['random', 0], ['late', 0], ['days', 3600], ['random', 3600], ['late', 3600], ['late', 5990]] as const
      const results = orders.map(([order, settleAt]) => {
        const { part, identities, events } = dataset(seed, order, settleAt)
        expect(part.identityOrder(identities).sorted).toBe(settleAt)
        const r = census(spec(part, identities))
        expectByHand(r, events, spec(part, identities), order)
        expect([...r.seen].filter((x) => x === 1).length).toBeGreaterThan(15)
        return r
      })
      for (const r of results) expect(r).toEqual(results[0])
    }
  })
})

/** A result without its bookkeeping (rev, change counts, kept text): what a report reads. */
const counters = (r: CensusResult) => ({ ...r, rev: undefined, changes: undefined, newCells: undefined, written: undefined })
/** Every figure of one cell. */
const cellValues = (r: CensusResult, c: number): number[] => [
  r.imp[c]!, r.clk[c]!, r.impDay[c]!, r.clkDay[c]!, r.uim[c]!, r.ucl[c]!, r.uimDay[c]!, r.uclDay[c]!, r.uimDays[c]!, r.uclDays[c]!, r.seen[c]!,
  ...r.impHour.subarray(c * 24, c * 24 + 24), ...r.clkHour.subarray(c * 24, c * 24 + 24),
]

describe('kept censuses (CensusCache)', () => {
  it('brought up to date with added events, count what a census of every event counts', () => {
    for (const seed of [4, 5]) {
      for (const order of ['days', 'random', 'late'] as const) {
        // the whole dataset, then the same events added to a new partition step by step
        const { events, identities } = dataset(seed, order, 0)
        const part = new Partition()
        const cache = new CensusCache()
        const specs = [spec(part, identities), spec(part, identities, { averages: false }), spec(part, identities, { uniques: false, averages: false }), spec(part, identities, { day: FROM + 7 })]
        const kept = new Map<Spec, CensusResult>()
        const before = new Map<Spec, { values: number[][]; rev: number[] }>()
        let at = 0
        for (const [step, size] of [1, 1, 40, 7, 900, 1, 2000, 300, 2750].entries()) {
          const chunk = events.slice(at, at + size)
          at += size
          for (const [day, hour, kind, region, spot, identity] of chunk) part.add(day, hour, kind, 0, region, spot, 0, identity)
          // a checkpoint puts the events so far in identity order: kept results are counted afresh
          if (step === 4) part.settle(identities, true)
          for (const s of specs) {
            const r = cache.get(s)
            const what = `seed ${seed} ${order} step ${step} ${s.uniques ? (s.averages ? `day ${s.day}` : 'no averages') : 'no uniques'}`
            // updated in place, but at the step that renumbered the events
            if (kept.has(s) && step !== 4) {
              expect(r, what).toBe(kept.get(s))
              // a cell whose figures changed has a new rev (its kept answer text is written again)
              const was = before.get(s)!
              for (let c = 0; c < r.nCells; c++) {
                if (cellValues(r, c).join() !== was.values[c]!.join()) expect(r.rev[c], `${what} cell ${c}`).not.toBe(was.rev[c])
              }
            }
            kept.set(s, r)
            before.set(s, { values: Array.from({ length: r.nCells }, (_, c) => cellValues(r, c)), rev: [...r.rev] })
            const fresh = census(s)
            expect(counters(r), what).toEqual(counters(fresh))
            if (s.uniques && s.averages) expectByHand(r, events.slice(0, at), s, what)
          }
        }
        expect(at).toBe(events.length)
      }
    }
  })

  it('keeps results within its memory limit, the newest always', () => {
    const { part, identities } = dataset(6, 'days', 3000)
    const one = census(spec(part, identities))
    const size = Object.values(one).reduce<number>((n, v) => n + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0)
    const cache = new CensusCache(size * 2)
    const a = cache.get(spec(part, identities))
    const b = cache.get(spec(part, identities, { day: FROM + 1 }))
    expect(cache.get(spec(part, identities))).toBe(a)
    cache.get(spec(part, identities, { day: FROM + 2 }))
    // the least recently used (b) went; a stayed
    expect(cache.get(spec(part, identities))).toBe(a)
    expect(cache.get(spec(part, identities, { day: FROM + 1 }))).not.toBe(b)
  })
})
