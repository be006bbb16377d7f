// docs/simulator.md: determinism, volumes, clicks, time of day, chunks
import { beforeAll, describe, expect, it } from 'vitest'
import { simulate } from '../../../../engine/measure/simulate'
import { HOUR_WEIGHTS } from '../../../../engine/measure/simulate/distributions'
import { KIND, type Hit } from '../../../../engine/measure/types'
import { dateIn, localDayHour } from '../../../../engine/time-zone'
import { collect, datesOf, fixture, ZONE, type Fixture } from './fixture'

const FROM = '2025-01-13'
const TO = '2025-01-19'

describe('simulate', () => {
  let f: Fixture
  let hits: Hit[]
  beforeAll(async () => {
    f = await fixture(FROM, TO, [
      { plan: { dates: datesOf(FROM, TO), impressions: [20_000, 24_000, 18_000, 30_000, 22_000, 26_000, 15_000], clicks: [100, 120, 90, 150, 110, 130, 75] } },
      { form: { placement_type: 'video' } },
      { form: { keyword: 'milk^>cheese^>butter^>yoghurt^' } },
    ])
    hits = collect(f.input()).hits
  })

  it('gives the same hits for the same input, and other hits for another seed', () => {
    const again = collect(f.input()).hits
    expect(again.length).toBe(hits.length)
    expect(JSON.stringify(again)).toBe(JSON.stringify(hits))
    const other = collect(f.input({ seed: 2 })).hits
    expect(JSON.stringify(other.slice(0, 100))).not.toBe(JSON.stringify(hits.slice(0, 100)))
  })

  it('hands out chunks of at most chunkSize hits, in time order', () => {
    const { sizes } = collect(f.input({ chunkSize: 10_000 }))
    expect(Math.max(...sizes)).toBe(10_000)
    expect(sizes.slice(0, -1).every((n) => n === 10_000)).toBe(true)
    for (let i = 1; i < hits.length; i++) if (hits[i]!.ts < hits[i - 1]!.ts) throw new Error(`hit ${i} is earlier than hit ${i - 1}`)
  })

  it('emits the planned impressions and clicks of each spot and day', () => {
    const sim = simulate(f.input())
    const count = new Map<string, number>()
    for (const h of hits) {
      const key = `${h.kind}|${h.spot}|${dateIn(ZONE, h.ts)}`
      count.set(key, (count.get(key) ?? 0) + 1)
    }
    for (const s of sim.plan.spots) {
      sim.plan.days.forEach((date, d) => {
        expect(count.get(`${KIND.impression}|${s.spot_id}|${date}`) ?? 0).toBe(s.impressions[d])
        expect(count.get(`${KIND.click}|${s.spot_id}|${date}`) ?? 0).toBe(s.clicks[d])
      })
    }
  })

  it('lets only an identity that saw the spot that day click it, after the impression', () => {
    const seen = new Map<string, number>()
    let clicks = 0
    for (const h of hits) {
      const key = `${h.identity}|${h.spot}|${dateIn(ZONE, h.ts)}`
      if (h.kind === KIND.impression) {
        if (!seen.has(key)) seen.set(key, h.ts)
        continue
      }
      clicks++
      if (!(seen.get(key)! <= h.ts)) throw new Error(`click ${JSON.stringify(h)} without an earlier impression that day`)
    }
    expect(clicks).toBeGreaterThan(800)
  })

  it('puts every hit inside the requested days of the time zone, low at 2-6 am and high at lunch and in the evening', () => {
    const share = new Array<number>(24).fill(0)
    const days = new Set(datesOf(FROM, TO))
    const outside = hits.filter((h) => !days.has(dateIn(ZONE, h.ts)))
    expect(outside).toEqual([])
    for (const h of hits) share[localDayHour(ZONE, h.ts).hour]! += 1 / hits.length
    const total = HOUR_WEIGHTS.reduce((a, b) => a + b, 0)
    share.forEach((s, hour) => expect(Math.abs(s - HOUR_WEIGHTS[hour]! / total)).toBeLessThan(0.006))
    const night = share[2]! + share[3]! + share[4]! + share[5]!
    expect(night).toBeLessThan(0.04)
    for (const peak of [12, 13, 20, 21, 22]) expect(share[peak]!).toBeGreaterThan(0.055)
  })

  it('carries keyword ids of its own spot on keyword hits, and no keyword elsewhere, popular keywords more often', () => {
    const keywordSpot = simulate(f.input()).plan.spots[2]!
    const byKeyword = new Map<number, number>()
    expect(hits.filter((h) => h.spot !== keywordSpot.spot_id && h.keyword !== 0)).toEqual([])
    for (const h of hits) if (h.spot === keywordSpot.spot_id) byKeyword.set(h.keyword, (byKeyword.get(h.keyword) ?? 0) + 1)
    expect([...byKeyword.keys()].sort((a, b) => a - b)).toEqual(keywordSpot.keywords)
    const counts = keywordSpot.keywords.map((k) => byKeyword.get(k)!)
    expect(counts[0]).toBeGreaterThan(counts[3]! * 2)
  })

  it('stops after maxHits, with a summary of what was emitted', () => {
    const sim = simulate(f.input({ maxHits: 12_345, chunkSize: 5000 }))
    const sizes: number[] = []
    for (const chunk of sim.chunks) sizes.push(chunk.length)
    expect(sizes).toEqual([5000, 5000, 2345])
    expect(sim.summary.impressions + sim.summary.clicks).toBe(12_345)
    expect(sim.summary.done).toBe(true)
    const first = new Set(hits.slice(0, 12_345).map((h) => h.identity))
    expect(sim.summary.identities).toBe(first.size)
  })

  it('stops at `until`, inside its hour too: no hit is stamped after now', () => {
    const until = Date.parse(`${FROM}T19:10:00+08:00`)
    const cut = collect(f.input({ until })).hits
    expect(cut.length).toBeGreaterThan(0)
    expect(Math.max(...cut.map((h) => h.ts))).toBeLessThan(until)
    // the hours before it as without `until` (the audience, sized for the hours simulated, is
    // another), and the hour it falls in up to it
    const byHour = (list: Hit[]) => {
      const n = new Array<number>(24).fill(0)
      for (const h of list) if (dateIn(ZONE, h.ts) === FROM) n[localDayHour(ZONE, h.ts).hour]!++
      return n
    }
    const whole = byHour(hits)
    const part = byHour(cut)
    expect(part.slice(0, 19)).toEqual(whole.slice(0, 19))
    expect(part[19]!).toBeGreaterThan(0)
    expect(part[19]!).toBeLessThan(whole[19]!)
    expect(part.slice(20)).toEqual(new Array(4).fill(0))
  })

  it('gives the same hits before `until` whatever time of the day it stops: a run minutes later repeats every past day', () => {
    const at = (time: string) => collect(f.input({ until: Date.parse(`2025-01-16T${time}+08:00`) })).hits
    const early = at('09:05:00')
    const late = at('21:40:00')
    const earlier = early.at(-1)!.ts
    expect(early.length).toBeGreaterThan(1000)
    expect(late.length).toBeGreaterThan(early.length)
    expect(JSON.stringify(late.filter((h) => h.ts <= earlier))).toBe(JSON.stringify(early))
  })
})

describe('simulate in a zone whose clock changes', () => {
  it('spreads the 23-hour day of the change over its 23 hours, without hits outside the days', async () => {
    const zone = 'America/New_York' // clocks go from 02:00 to 03:00 on 2025-03-09
    const f = await fixture('2025-03-08', '2025-03-10', [{}])
    const { hits } = collect(f.input({ timeZone: zone }))
    const hours = new Map<string, Set<number>>()
    for (const h of hits) {
      const date = dateIn(zone, h.ts)
      if (!hours.has(date)) hours.set(date, new Set())
      hours.get(date)!.add(localDayHour(zone, h.ts).hour)
    }
    expect([...hours.keys()].sort()).toEqual(['2025-03-08', '2025-03-09', '2025-03-10'])
    expect(hours.get('2025-03-08')!.size).toBe(24)
    expect(hours.get('2025-03-09')!.size).toBe(23)
    expect(hours.get('2025-03-09')!.has(2)).toBe(false)
  })
})
