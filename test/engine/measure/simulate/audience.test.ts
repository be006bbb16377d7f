// docs/simulator.md: the audience (platforms, identity texts, regions, frequency, invalid traffic, panel)
import { beforeAll, describe, expect, it } from 'vitest'
import { simulate } from '../../../../engine/measure/simulate'
import { FREQUENCY_WINDOW_MS, MAX_IMPRESSIONS_PER_WINDOW } from '../../../../engine/measure/identities'
import { IVT, KIND, PLATFORM, SDK, type Hit } from '../../../../engine/measure/types'
import { regionTable } from '../../../../engine/reports/region-cells'
import { collect, datesOf, fixture, type Fixture } from './fixture'

const FROM = '2025-01-13'
const TO = '2025-01-19'
const FORMATS: Record<string, RegExp> = {
  idfa: /^idfa:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  oaid: /^oaid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  imei: /^imei:86\d{13}$/,
  androidid: /^androidid:[0-9a-f]{16}$/,
  amid: /^amid:[0-9a-f]{32}$/,
}

function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

const share = (part: number, whole: number) => part / whole

describe('simulate audience', () => {
  let f: Fixture
  let hits: Hit[]
  let impressions: Hit[]
  beforeAll(async () => {
    f = await fixture(FROM, TO, [
      { plan: { dates: datesOf(FROM, TO), impressions: new Array(7).fill(30_000), clicks: new Array(7).fill(150) } },
      { form: { keyword: 'milk^>cheese^' } },
    ], 20_000)
    hits = collect(f.input()).hits
    impressions = hits.filter((h) => h.kind === KIND.impression)
  }, 60_000)

  it('draws about 70% of identities mobile (idfa, oaid, imei) and 30% PC (amid), in the formats of the attribution', () => {
    const platformOf = new Map(hits.map((h) => [h.identity, h.platform]))
    let mobile = 0
    const wrong: string[] = []
    for (const [identity, platform] of platformOf) {
      const ns = identity.slice(0, identity.indexOf(':'))
      const ok = FORMATS[ns]?.test(identity) === true && platform === (ns === 'amid' ? PLATFORM.pc : PLATFORM.mb)
      if (!ok || (ns === 'imei' && !luhnValid(identity.slice(5)))) wrong.push(identity)
      if (platform === PLATFORM.mb) mobile++
    }
    expect(wrong).toEqual([])
    expect(share(mobile, platformOf.size)).toBeCloseTo(0.7, 1)
  })

  it('marks about 30% of mobile hits with the MMA SDK and 20% with the Miaozhen SDK, and no PC hit', () => {
    const mobile = impressions.filter((h) => h.platform === PLATFORM.mb)
    expect(share(mobile.filter((h) => h.sdk === SDK.mm).length, mobile.length)).toBeCloseTo(0.3, 1)
    expect(share(mobile.filter((h) => h.sdk === SDK.mz).length, mobile.length)).toBeCloseTo(0.2, 1)
    expect(impressions.filter((h) => h.platform === PLATFORM.pc && h.sdk !== SDK.none)).toEqual([])
  })

  it('locates hits in cities, big ones more, about 3% only in a province and 1% abroad', () => {
    const regions = regionTable()
    const byLevel = [0, 0, 0]
    const byCity = new Map<string, number>()
    for (const h of impressions) {
      const r = regions[h.region]!
      byLevel[r.level]!++
      if (r.level === 2) byCity.set(r.gb_code, (byCity.get(r.gb_code) ?? 0) + 1)
    }
    expect(share(byLevel[1]!, impressions.length)).toBeCloseTo(0.03, 2)
    expect(share(byLevel[0]!, impressions.length)).toBeGreaterThan(0.008)
    expect(share(byLevel[0]!, impressions.length)).toBeLessThan(0.02)
    expect(byCity.size).toBeGreaterThan(300)
    expect(byCity.get('310100')!).toBeGreaterThan(byCity.get('540100')! * 10) // Shanghai, Lhasa
  })

  it('reaches identities about 2.3 times in a week (3 in four weeks: realism.test.ts), most of them 1-3 times and a tail 10 times or more', () => {
    const frequency = new Map<string, number>()
    for (const h of impressions) frequency.set(h.identity, (frequency.get(h.identity) ?? 0) + 1)
    const values = [...frequency.values()]
    const average = impressions.length / frequency.size
    expect(average).toBeGreaterThan(1.9)
    expect(average).toBeLessThan(2.8)
    expect(share(values.filter((n) => n <= 3).length, values.length)).toBeGreaterThan(0.75)
    expect(share(values.filter((n) => n >= 10).length, values.length)).toBeGreaterThan(0.01)
  })

  it('sends about 2% of hits as declared bots and 1% from data centres', () => {
    expect(share(impressions.filter((h) => h.ivt === IVT.bot).length, impressions.length)).toBeCloseTo(0.02, 2)
    expect(share(impressions.filter((h) => h.ivt === IVT.datacenter).length, impressions.length)).toBeCloseTo(0.01, 2)
    expect(impressions.filter((h) => h.ivt === IVT.abnormal)).toEqual([])
  })

  it('makes identities fire bursts of more than 30 impressions of a spot within 10 minutes, left valid for the ingest to mark', () => {
    const runs = new Map<string, number[]>()
    for (const h of impressions) {
      const key = `${h.identity}|${h.spot}`
      if (!runs.has(key)) runs.set(key, [])
      runs.get(key)!.push(h.ts)
    }
    let bursts = 0
    for (const times of runs.values()) {
      for (let i = MAX_IMPRESSIONS_PER_WINDOW; i < times.length; i++) {
        if (times[i]! - times[i - MAX_IMPRESSIONS_PER_WINDOW]! < FREQUENCY_WINDOW_MS) {
          bursts++
          break
        }
      }
    }
    expect(bursts).toBeGreaterThanOrEqual(7) // at least one a day
    expect(bursts).toBeLessThan(100)
  })

  it('makes the devices of a few hundred panel persons part of the audience, located around their homes', () => {
    const panel = f.panel!
    const persons = new Set<number>()
    let home = 0
    let panelHits = 0
    for (const h of impressions) {
      const person = panel.personOfDevice.get(h.identity)
      if (person === undefined) continue
      persons.add(person)
      panelHits++
      if (panel.homeRegion[person] === h.region) home++
    }
    expect(persons.size).toBeGreaterThan(300)
    expect(persons.size).toBeLessThan(3000)
    expect(share(home, panelHits)).toBeGreaterThan(0.9)
    const sim = simulate(f.input())
    for (const chunk of sim.chunks) void chunk
    expect(sim.summary.panelPersons).toBe(persons.size)
    // a 20,000-person panel stands for 1.1 billion people: at its true share the audience would
    // hold a handful of its persons, so they are oversampled, and the summary says how much
    expect(sim.summary.panelOversampling).toBeGreaterThan(100)
    expect(sim.summary.panelOversampling).toBeLessThan(1000)
  })
})
