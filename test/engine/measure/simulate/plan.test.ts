// docs/simulator.md: volumes per spot and day
import { beforeAll, describe, expect, it } from 'vitest'
import { CTR_RANGE, DEFAULT_DAILY_IMPRESSIONS, DEFAULT_KEYWORD_DAILY_IMPRESSIONS, KEYWORD_CTR_RANGE } from '../../../../engine/measure/simulate/distributions'
import { plan, simulate } from '../../../../engine/measure/simulate'
import { datesOf, fixture, type Fixture } from './fixture'

const FROM = '2025-01-13' // a Monday
const TO = '2025-01-26'

describe('simulate plan', () => {
  let f: Fixture
  beforeAll(async () => {
    f = await fixture(FROM, TO, [
      { plan: { dates: datesOf('2025-01-14', '2025-01-16'), impressions: [10_000, 20_000, 0], clicks: [50, 0, 0] } },
      {},
      { form: { placement_type: 'video' } },
      { form: { keyword: 'milk^>cheese^>butter^' } },
      { form: { report_metrics: 'impression' } },
      { form: { report_metrics: 'click' } },
    ])
  })

  it('clamps from..to to the campaign dates, and has no days when the range misses them', () => {
    expect(plan(f.input({ from: '2025-01-01', to: '2025-01-14' })).days).toEqual(['2025-01-13', '2025-01-14'])
    expect(plan(f.input({ from: '2025-01-25', to: '2025-03-01' })).days).toEqual(['2025-01-25', '2025-01-26'])
    const none = plan(f.input({ from: '2025-02-01', to: '2025-02-05' }))
    expect(none).toMatchObject({ days: [], impressions: 0, clicks: 0, hits: 0 })
  })

  it('takes est_impression and est_click of plan days, scaled, and runs a planned spot on its plan dates only', () => {
    const p = plan(f.input({ scale: 0.5 }))
    const s = p.spots[0]!
    // a planned 0 is "not live that day" (not the default volume)
    expect(s.impressions.slice(0, 4)).toEqual([0, 5000, 10_000, 0])
    expect(s.impressions.slice(4)).toEqual(new Array(10).fill(0))
    expect(s.clicks[1]).toBe(25)
    expect(s.clicks[2]! / s.impressions[2]!).toBeGreaterThanOrEqual(CTR_RANGE.display![0] * 0.85) // est_click 0: from the CTR
  })

  it('gives a spot without a plan a default volume by placement type every day, more at weekends', () => {
    const p = plan(f.input())
    const within = (v: number[], base: number) => v.every((x, i) => {
      const weekend = [5, 6, 12, 13].includes(i) ? 1.15 : 1
      return x >= Math.floor(base * weekend * 0.9) && x <= Math.ceil(base * weekend * 1.1)
    })
    expect(within(p.spots[1]!.impressions, DEFAULT_DAILY_IMPRESSIONS.display!)).toBe(true)
    expect(within(p.spots[2]!.impressions, DEFAULT_DAILY_IMPRESSIONS.video!)).toBe(true)
    expect(within(p.spots[3]!.impressions, DEFAULT_KEYWORD_DAILY_IMPRESSIONS)).toBe(true)
    expect(p.spots[3]!.keywords).toHaveLength(3)
  })

  it('draws clicks from a click-through rate in the range of the placement type', () => {
    const p = plan(f.input({ scale: 10 }))
    const ctr = (s: number) => p.spots[s]!.clicks.reduce((a, b) => a + b, 0) / p.spots[s]!.impressions.reduce((a, b) => a + b, 0)
    const inRange = (x: number, [lo, hi]: readonly [number, number]) => x >= lo * 0.9 && x <= hi * 1.1
    expect(inRange(ctr(1), CTR_RANGE.display!)).toBe(true)
    expect(inRange(ctr(2), CTR_RANGE.video!)).toBe(true)
    expect(inRange(ctr(3), KEYWORD_CTR_RANGE)).toBe(true)
  })

  it('gives no clicks to a spot that reports impressions only, and emits no impressions of a click-only spot', () => {
    const p = plan(f.input())
    expect(p.spots[4]!.clicks.every((c) => c === 0)).toBe(true)
    expect(p.spots[5]!.emitsImpressions).toBe(false)
    expect(p.spots[5]!.clicks.some((c) => c > 0)).toBe(true)
    const emitted = p.spots.filter((s) => s.emitsImpressions).flatMap((s) => s.impressions).reduce((a, b) => a + b, 0)
    expect(p.impressions).toBe(emitted)
    expect(p.hits).toBe(p.impressions + p.clicks)
  })

  it('is what simulate() emits, day by day', () => {
    const sim = simulate(f.input({ from: '2025-01-13', to: '2025-01-16' }))
    let n = 0
    for (const chunk of sim.chunks) n += chunk.length
    expect(n).toBe(sim.plan.hits)
    sim.summary.byDay.forEach((d, i) => {
      expect(d.impressions).toBe(sim.plan.spots.filter((s) => s.emitsImpressions).reduce((a, s) => a + s.impressions[i]!, 0))
      expect(d.clicks).toBe(sim.plan.spots.reduce((a, s) => a + s.clicks[i]!, 0))
    })
  })

  it('refuses an unknown campaign, a malformed date, a negative scale, a chunk size above 50,000 and an unknown zone', () => {
    expect(() => plan(f.input({ campaignId: 999 }))).toThrow(expect.objectContaining({ body: expect.objectContaining({ error: 'invalid_campaign_id' }) }))
    expect(() => plan(f.input({ from: '2025-1-13' }))).toThrow(/'from'/)
    expect(() => plan(f.input({ to: '2025-02-30' }))).toThrow(/'to'/)
    expect(() => plan(f.input({ scale: -1 }))).toThrow(/'scale'/)
    expect(() => plan(f.input({ chunkSize: 50_001 }))).toThrow(/'chunkSize'/)
    expect(() => plan(f.input({ timeZone: 'Mars/Olympus' }))).toThrow(/'timeZone'/)
  })
})
