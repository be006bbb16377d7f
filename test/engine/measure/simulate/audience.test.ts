// docs/simulator.md: the audience (platforms, identity texts, regions, frequency, invalid traffic, panel)
import { beforeAll, describe, expect, it } from 'vitest'
import { simulate } from '../../../../engine/measure/simulate'
import { FREQUENCY_WINDOW_MS, MAX_IMPRESSIONS_PER_WINDOW } from '../../../../engine/measure/identities'
import { IVT, KIND, PLATFORM, SDK, type Hit } from '../../../../engine/measure/types'
import { regionTable } from '../../../../engine/reference/region-table'
import { collect, datesOf, fixture, personsOfHits, type Fixture } from './fixture'

const FROM = '2025-01-13'
const TO = '2025-01-19'
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'
const FORMATS: Record<string, RegExp> = {
  idfa: new RegExp(`^idfa:${UUID}$`),
  caid: new RegExp(`^caid:${UUID}$`),
  oaid: new RegExp(`^oaid:${UUID}$`),
  imei: /^imei:86\d{13}$/,
  androidid: /^androidid:[0-9a-f]{16}$/,
  amid: /^amid:[0-9a-f]{32}$/,
  ipua: /^ipua:[0-9a-f]{32}$/,
}
const DEVICE = /^(idfa|caid|oaid|imei|androidid):/

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

  it('makes identities in the forms of the attribution: device ids mobile, cookies and address identities on both platforms, about 70% of impressions mobile', () => {
    const wrong: string[] = []
    const namespaces = new Set<string>()
    for (const h of hits) {
      const ns = h.identity.slice(0, h.identity.indexOf(':'))
      namespaces.add(ns)
      const ok = FORMATS[ns]?.test(h.identity) === true && (!DEVICE.test(h.identity) || h.platform === PLATFORM.mb)
      if (!ok || (ns === 'imei' && !luhnValid(h.identity.slice(5)))) wrong.push(h.identity)
    }
    expect(wrong.slice(0, 5)).toEqual([])
    expect([...namespaces].sort()).toEqual(['amid', 'androidid', 'caid', 'idfa', 'imei', 'ipua', 'oaid'])
    expect(share(impressions.filter((h) => h.platform === PLATFORM.mb).length, impressions.length)).toBeCloseTo(0.7, 1)
    expect(hits.some((h) => h.identity.startsWith('amid:') && h.platform === PLATFORM.mb)).toBe(true)
  })

  it('marks about 30% of app hits with the MMA SDK and 20% with the Miaozhen SDK, and no PC hit', () => {
    const apps = impressions.filter((h) => DEVICE.test(h.identity))
    expect(share(apps.filter((h) => h.sdk === SDK.mm).length, apps.length)).toBeCloseTo(0.3, 1)
    expect(share(apps.filter((h) => h.sdk === SDK.mz).length, apps.length)).toBeCloseTo(0.2, 1)
    expect(impressions.filter((h) => h.platform === PLATFORM.pc && h.sdk !== SDK.none)).toEqual([])
  })

  it('locates hits by their address: cities, big ones more, a few only in a province or abroad', () => {
    const regions = regionTable()
    const byLevel = [0, 0, 0]
    const byCity = new Map<string, number>()
    for (const h of impressions) {
      const r = regions[h.region]!
      byLevel[r.level]!++
      if (r.level === 2) byCity.set(r.gb_code, (byCity.get(r.gb_code) ?? 0) + 1)
    }
    expect(share(byLevel[2]!, impressions.length)).toBeGreaterThan(0.85)
    expect(share(byLevel[1]!, impressions.length)).toBeGreaterThan(0.005)
    expect(share(byLevel[0]!, impressions.length)).toBeGreaterThan(0.003)
    expect(share(byLevel[0]!, impressions.length)).toBeLessThan(0.05)
    expect(byCity.size).toBeGreaterThan(250)
    expect(byCity.get('310100')!).toBeGreaterThan((byCity.get('540100') ?? 0) * 10) // Shanghai, Lhasa
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

  it('sends about 2% of hits from declared bots and 1% from data centres, as the attribution classes them', () => {
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
    const personOf = personsOfHits(hits, panel)
    for (const h of impressions) {
      const person = personOf(h)
      if (person === undefined) continue
      persons.add(person)
      panelHits++
      if (panel.homeRegion[person] === h.region) home++
    }
    expect(persons.size).toBeGreaterThan(300)
    expect(persons.size).toBeLessThan(3000)
    expect(share(home, panelHits)).toBeGreaterThan(0.8)
    const sim = simulate(f.input())
    for (const chunk of sim.chunks) void chunk
    // (the summary counts every person whose device was reached; a few are reached only under
    // ids their panel device never arrived with, CAID alone: no hit tells who they are)
    expect(sim.summary.panelPersons).toBeGreaterThanOrEqual(persons.size)
    expect(sim.summary.panelPersons).toBeLessThan(persons.size * 1.03)
    // a 20,000-person panel stands for 1.1 billion people: at its true share the audience would
    // hold a handful of its persons, so they are oversampled, and the summary says how much
    expect(sim.summary.panelOversampling).toBeGreaterThan(100)
    expect(sim.summary.panelOversampling).toBeLessThan(1000)
  })
})
