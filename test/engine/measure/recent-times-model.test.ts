// docs/attribution.md §5 (the frequency rule), docs/measurement.md "Identities" (the recent times):
// RecentTimes against a plain model of what a slot keeps, through every block size and its reuse
import { describe, expect, it } from 'vitest'
import { CLK_MAX, IMP_MAX, RecentTimes } from '../../../engine/measure/recent-times'
import { prng } from '../../helpers/prng'

const MIN = 60_000
const WINDOW = 10 * MIN
const T0 = Date.parse('2025-01-10T12:00:00Z')

/** What a slot keeps of a kind after a time is added: the largest `max`, none two windows before the newest. */
function keep(list: number[], ts: number, max: number): number[] {
  const all = [...list, ts].sort((a, b) => a - b).slice(-max)
  const newest = all[all.length - 1]!
  return all.filter((t, i) => t > newest - 2 * WINDOW || i === all.length - 1)
}

describe('RecentTimes against a model', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`keeps and counts what the model does (seed ${seed})`, () => {
      const random = prng(seed)
      let r = new RecentTimes()
      const model = new Map<number, [number[], number[]]>()
      const slotOf = new Map<number, number>()
      let nextOwner = 1
      const deepest = [0, 0]
      for (let step = 0; step < 20_000; step++) {
        const x = random()
        if (x < 0.02 || slotOf.size === 0) {
          const owner = nextOwner++
          slotOf.set(owner, r.open(owner))
          model.set(owner, [[], []])
          continue
        }
        const owners = [...slotOf.keys()]
        const owner = owners[Math.floor(random() * owners.length)]!
        const at = slotOf.get(owner)!
        const m = model.get(owner)!
        if (x < 0.04) {
          r.close(at)
          slotOf.delete(owner)
          model.delete(owner)
        } else if (x < 0.05) {
          // a merge's move: the times set on a new slot
          const [imp, clk] = [r.list(at, false), r.list(at, true)]
          r.close(at)
          const to = r.open(owner)
          r.set(to, false, imp)
          r.set(to, true, clk)
          slotOf.set(owner, to)
        } else if (x < 0.055) {
          const back = new Map<number, number>()
          r = RecentTimes.fromArray(r.toArray(), (o, s) => back.set(o, s))
          for (const [o, s] of back) slotOf.set(o, s)
        } else {
          const click = random() < 0.25
          const list = m[click ? 1 : 0]
          const newest = list.length ? list[list.length - 1]! : T0
          // (owners of four paces: a few times in 20 minutes, up to more than a slot keeps)
          const pace = [3 * MIN, MIN / 3, 2_000, 30_000][owner % 4]!
          const ts = newest + Math.floor((random() - 0.3) * pace)
          const truth = list.filter((t) => t > ts - WINDOW && t <= ts).length
          expect(r.judge(at, click, ts, WINDOW)).toBe(truth)
          m[click ? 1 : 0] = keep(list, ts, click ? CLK_MAX : IMP_MAX)
          deepest[click ? 1 : 0] = Math.max(deepest[click ? 1 : 0]!, m[click ? 1 : 0].length)
        }
        for (const [o, s] of slotOf) {
          const mm = model.get(o)!
          if (step % 97 !== 0 && o !== owner) continue
          expect([r.list(s, false), r.list(s, true)], `owner ${o} at step ${step}`).toEqual(mm)
          expect(r.ownerOf(s)).toBe(o)
        }
      }
      expect(deepest).toEqual([IMP_MAX, CLK_MAX])
    })
  }
})

describe('RecentTimes at each block size boundary', () => {
  const IMPS = [6, 7, 14, 15, 28, 29, 96, 97]
  const CLKS = [2, 3, 4, 5, 24, 25]
  for (const [imps, clks] of IMPS.flatMap((i) => CLKS.map((c) => [i, c] as const))) {
    it(`${imps} impressions and ${clks} clicks within a window: the same counts after a checkpoint round trip, and for a late hit`, () => {
      let r = new RecentTimes()
      // another device's slot before and after, so that a block moved or reused next to it shows
      const left = r.open(1)
      let at = r.open(2)
      const right = r.open(3)
      const model: [number[], number[]] = [[], []]
      const other = new Map<number, [number[], number[]]>([[left, [[], []]], [right, [[], []]]])
      const add = (click: boolean, ts: number) => {
        const list = model[click ? 1 : 0]
        expect(r.judge(at, click, ts, WINDOW)).toBe(list.filter((t) => t > ts - WINDOW && t <= ts).length)
        model[click ? 1 : 0] = keep(list, ts, click ? CLK_MAX : IMP_MAX)
      }
      for (let i = 0; i < Math.max(imps, clks); i++) {
        if (i < imps) add(false, T0 + i * 5_000)
        if (i < clks) add(true, T0 + i * 5_000 + 1)
        for (const [s, m] of other) {
          r.judge(s, i % 2 === 1, T0 + i * 5_000 + s, WINDOW)
          m[i % 2] = keep(m[i % 2]!, T0 + i * 5_000 + s, i % 2 === 1 ? CLK_MAX : IMP_MAX)
        }
      }
      const placed = new Map<number, number>()
      r = RecentTimes.fromArray(r.toArray(), (o, s) => placed.set(o, s))
      at = placed.get(2)!
      expect([r.list(at, false), r.list(at, true)]).toEqual(model)
      // a late hit of each kind, then one more on time
      add(false, T0 + 1_000)
      add(true, T0 + 1_000)
      add(false, T0 + imps * 5_000)
      add(true, T0 + clks * 5_000)
      expect([r.list(at, false), r.list(at, true)]).toEqual(model)
      for (const [s, m] of other) {
        const back = placed.get(s)!
        expect([r.list(back, false), r.list(back, true)]).toEqual(m)
      }
    })
  }
})
