// docs/attribution.md §5 (the frequency rule), docs/measurement.md "Identities" (the recent times)
import { describe, expect, it } from 'vitest'
import { CLK_MAX, IMP_MAX, RecentTimes, TIER_CLK, TIER_IMP } from '../../../engine/measure/recent-times'

const MIN = 60_000
const WINDOW = 10 * MIN
const T0 = Date.parse('2025-01-10T12:00:00Z')

/** A small deterministic generator (mulberry32), so that a failure repeats. */
function rng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('RecentTimes: slots of few and of many times', () => {
  it('does answer every hit with the count of its own 10 minutes, for devices of two hits and of 80, some late, some slots moved', () => {
    const random = rng(7)
    const r = new RecentTimes()
    const devices = 400
    const slot = new Map<number, number>()
    // the truth: every time each device had, per kind, as the hits arrived
    const seen = new Map<string, number[]>()
    const hits: { dev: number; click: boolean; ts: number }[] = []
    for (let dev = 1; dev <= devices; dev++) {
      // a tenth of the devices are busy (through every size of block), the rest have two to five hits
      const n = dev % 10 === 0 ? 60 + Math.floor(random() * 30) : 2 + Math.floor(random() * 4)
      const clicks = dev % 10 === 0 ? 15 : Math.floor(random() * 3)
      for (let i = 0; i < n; i++) hits.push({ dev, click: false, ts: T0 + Math.floor(random() * 25 * MIN) })
      for (let i = 0; i < clicks; i++) hits.push({ dev, click: true, ts: T0 + Math.floor(random() * 25 * MIN) })
    }
    // in time order, a fifth of them up to 4 minutes late
    const arrival = hits.map((h) => ({ h, at: h.ts + (random() < 0.2 ? Math.floor(random() * 4 * MIN) : 0) })).sort((a, b) => a.at - b.at)
    let checked = 0
    for (const { h } of arrival) {
      let at = slot.get(h.dev)
      if (at === undefined) slot.set(h.dev, (at = r.open(h.dev)))
      const key = `${h.dev}|${h.click}`
      const before = seen.get(key) ?? []
      const truth = before.filter((t) => t > h.ts - WINDOW && t <= h.ts).length
      expect(r.judge(at, h.click, h.ts, WINDOW)).toBe(truth)
      checked++
      seen.set(key, [...before, h.ts])
      if (random() < 0.05) {
        // a device merge moves its times to a slot of its own (identities.ts): the block is let go and reused
        const [imp, clk] = [r.list(at, false), r.list(at, true)]
        r.close(at)
        const to = r.open(h.dev)
        r.set(to, false, imp)
        r.set(to, true, clk)
        slot.set(h.dev, to)
      }
    }
    expect(checked).toBe(hits.length)
    // the busy devices did outgrow their small blocks, and every kept list is ascending, within its kind's bound
    const busy = slot.get(10)!
    expect(r.count(busy, false)).toBeGreaterThan(TIER_IMP[2])
    expect(r.count(busy, true)).toBeGreaterThan(TIER_CLK[2])
    for (const at of slot.values()) {
      for (const click of [false, true]) {
        const list = r.list(at, click)
        expect(list).toEqual([...list].sort((a, b) => a - b))
        expect(list.length).toBeLessThanOrEqual(click ? CLK_MAX : IMP_MAX)
      }
    }
  })

  it('does give back the same slots from its checkpoint array, small and full ones alike', () => {
    const r = new RecentTimes()
    const want = new Map<number, [number[], number[]]>()
    for (let owner = 1; owner <= 50; owner++) {
      const at = r.open(owner)
      const imp = Array.from({ length: owner % 7 === 0 ? 40 : 2 + (owner % 3) }, (_, i) => T0 + owner * 1000 + i * 7000)
      const clk = Array.from({ length: owner % 5 === 0 ? 9 : owner % 2 }, (_, i) => T0 + owner * 1000 + i * 3000)
      for (const t of imp) r.judge(at, false, t, WINDOW)
      for (const t of clk) r.judge(at, true, t, WINDOW)
      want.set(owner, [imp, clk])
    }
    r.latest = T0 + 99
    const placed = new Map<number, number>()
    const back = RecentTimes.fromArray(r.toArray(), (owner, slot) => placed.set(owner, slot))
    expect(back.latest).toBe(T0 + 99)
    expect(placed.size).toBe(50)
    for (const [owner, [imp, clk]] of want) {
      const at = placed.get(owner)!
      expect([back.list(at, false), back.list(at, true)]).toEqual([imp, clk])
      expect(back.ownerOf(at)).toBe(owner)
    }
    expect(back.toArray()).toEqual(r.toArray())
  })

  it('does hold a device of two impressions in under 200 bytes, room for growth included', () => {
    const r = new RecentTimes()
    for (let owner = 1; owner <= 20_000; owner++) {
      const at = r.open(owner)
      r.judge(at, false, T0 + owner, WINDOW)
      r.judge(at, false, T0 + owner + MIN, WINDOW)
    }
    expect(r.live).toBe(20_000)
    expect(r.bytes / 20_000).toBeLessThan(200)
  })
})
