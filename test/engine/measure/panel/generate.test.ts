// The demo panel generator (docs/panel.md): deterministic, realistic marginals, exact weights
import { beforeAll, describe, expect, it } from 'vitest'
import { exportPersons } from '../../../../engine/measure/panel/export'
import { GENERATED_TAGS, INTERNET_POPULATION, generatePanel, generatePersons } from '../../../../engine/measure/panel/generate'
import { NAMED_CITY_CODES, cityFrame } from '../../../../engine/measure/panel/generate/cities'
import * as pop from '../../../../engine/measure/panel/generate/population'
import { Rng } from '../../../../engine/measure/panel/generate/random'
import { deviceIdentity, type PersonRecord } from '../../../../engine/measure/panel/person'
import { PANEL_TAGS } from '../../../../engine/reference/demo'
import { buildRegions } from '../../../../engine/reference/regions'
import { panelDb } from './helpers'

const regions = buildRegions()
const N = 20_000
let persons: PersonRecord[]

beforeAll(() => {
  persons = generatePersons(regions, N, 1)
})

const has = (p: PersonRecord, tag: string) => p.tags.includes(tag)
const share = (f: (p: PersonRecord) => boolean, ps = persons) => ps.filter(f).length / ps.length
const weightShare = (f: (p: PersonRecord) => boolean, ps = persons) => ps.filter(f).reduce((w, p) => w + p.weight, 0) / ps.reduce((w, p) => w + p.weight, 0)

describe('Rng', () => {
  it('repeats for a seed and differs between seeds', () => {
    const draw = (seed: number) => {
      const r = new Rng(seed)
      return Array.from({ length: 5 }, () => r.u32())
    }
    expect(draw(1)).toEqual(draw(1))
    expect(draw(1)).not.toEqual(draw(2))
    const r = new Rng(9)
    const xs = Array.from({ length: 10_000 }, () => r.next())
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...xs)).toBeLessThan(1)
    expect(xs.reduce((a, b) => a + b, 0) / xs.length).toBeCloseTo(0.5, 1)
  })
})

describe('generatePanel', () => {
  it('gives an identical panel for the same seed and another for another seed', async () => {
    const [a, b, c] = [await panelDb(), await panelDb(), await panelDb()]
    expect(generatePanel(a, 'china-pm-2025', 500, 11)).toEqual(generatePanel(b, 'china-pm-2025', 500, 11))
    generatePanel(c, 'china-pm-2025', 500, 12)
    const file = exportPersons(a, 'china-pm-2025', 'ndjson', buildRegions())
    expect(exportPersons(b, 'china-pm-2025', 'ndjson', buildRegions())).toBe(file)
    expect(exportPersons(c, 'china-pm-2025', 'ndjson', buildRegions())).not.toBe(file)
  })

  it('replaces the panel and answers persons, devices and the weighted total', async () => {
    const db = await panelDb()
    generatePanel(db, 'china-pm-2025', 300, 1)
    const r = generatePanel(db, 'china-pm-2025', 200, 2)
    expect(r).toMatchObject({ panel_id: 'china-pm-2025', persons: 200, weight_total: INTERNET_POPULATION })
    expect(db.scalar('SELECT COUNT(*) FROM panel_persons WHERE panel_id = ?', ['china-pm-2025'])).toBe(200)
    expect(db.scalar('SELECT COUNT(*) FROM panel_devices WHERE panel_id = ?', ['china-pm-2025'])).toBe(r.devices)
  })

  it('refuses a panel without the demo tags, naming panel_id', async () => {
    const db = await panelDb()
    db.tx(() => db.run("DELETE FROM panel_tags WHERE panel_id = 'china-pm-2025' AND tag_id = 'tier-1'"))
    expect(() => generatePanel(db, 'china-pm-2025', 100, 1)).toThrow(/'panel_id'.*tier-1/)
  })
})

describe('generatePersons', () => {
  it('writes only tags of the demo panels, one of each type, and devices as attribution writes them', () => {
    const known = new Set(PANEL_TAGS.map((t) => t.tag_id))
    expect(GENERATED_TAGS.every((t) => known.has(t))).toBe(true)
    for (const p of persons) {
      expect(p.tags).toHaveLength(7)
      expect(new Set(p.tags.map((t) => PANEL_TAGS.find((x) => x.tag_id === t)!.type_id)).size).toBe(7)
      expect(p.devices.length).toBeGreaterThanOrEqual(1)
      expect(p.devices.length).toBeLessThanOrEqual(3)
      for (const d of p.devices) expect(deviceIdentity(d.device, d.platform)).toBe(d.device)
    }
    expect(new Set(persons.flatMap((p) => p.devices.map((d) => d.device))).size).toBe(persons.reduce((n, p) => n + p.devices.length, 0))
    expect(new Set(persons.map((p) => p.person_id)).size).toBe(N)
  })

  it('weights add up to the internet population, post-stratified by gender and age band', () => {
    const total = persons.reduce((w, p) => w + p.weight, 0)
    expect(total / INTERNET_POPULATION).toBeCloseTo(1, 9)
    pop.GENDERS.forEach((g, i) => expect(weightShare((p) => has(p, g))).toBeCloseTo(pop.GENDER_POPULATION[i]!, 9))
    pop.AGES.forEach((a, i) => expect(weightShare((p) => has(p, a))).toBeCloseTo(pop.AGE_POPULATION[i]!, 9))
    expect(new Set(persons.map((p) => p.weight)).size).toBe(20)
  })

  it('samples the panel recruitment shares: half men, skewed to 25-44', () => {
    expect(Math.abs(share((p) => has(p, 'male')) - 0.5)).toBeLessThan(0.015)
    pop.AGES.forEach((a, i) => expect(Math.abs(share((p) => has(p, a)) - pop.AGE_SAMPLE[i]!)).toBeLessThan(0.01))
    expect(share((p) => ['25-29Y', '30-34Y', '35-39Y', '40-44Y'].some((a) => has(p, a)))).toBeGreaterThan(0.5)
  })

  it('ties marital status, education and income to age', () => {
    const minors = persons.filter((p) => has(p, '0-17Y'))
    expect(minors.every((p) => has(p, 'single') && has(p, 'inc-lt3k') && (has(p, 'edu-junior-high') || has(p, 'edu-high-school')))).toBe(true)
    const thirties = persons.filter((p) => has(p, '35-39Y'))
    expect(share((p) => has(p, 'married-with-kids'), thirties)).toBeGreaterThan(0.7)
    const graduates = persons.filter((p) => has(p, 'edu-master-plus'))
    expect(share((p) => has(p, 'inc-12k-20k') || has(p, 'inc-20k-plus'), graduates)).toBeGreaterThan(share((p) => has(p, 'inc-12k-20k') || has(p, 'inc-20k-plus')))
  })

  it('gives nearly everyone a phone and about 45% of phone owners a PC', () => {
    const mobile = share((p) => p.devices.some((d) => d.platform === 'mb'))
    expect(Math.abs(mobile - pop.DEVICE_SHARES.mobile)).toBeLessThan(0.01)
    const owners = persons.filter((p) => p.devices.some((d) => d.platform === 'mb'))
    expect(Math.abs(share((p) => p.devices.some((d) => d.platform === 'pc'), owners) - pop.DEVICE_SHARES.pcWithMobile)).toBeLessThan(0.015)
    expect(persons.every((p) => p.devices.some((d) => d.platform === 'mb') || p.devices.some((d) => d.platform === 'pc'))).toBe(true)
    const ios = share((p) => p.devices.some((d) => d.device.startsWith('idfa:')), owners)
    expect(Math.abs(ios - pop.DEVICE_SHARES.ios)).toBeLessThan(0.02)
  })

  it('homes everyone in a mainland city, every province, big cities most, tier from the city', () => {
    const level = new Map(regions.map((r) => [r.region_id, r]))
    expect(persons.every((p) => level.get(p.home_region)?.level === 2)).toBe(true)
    const count = (code: string) => persons.filter((p) => p.home_region.endsWith(code)).length
    expect(count('310100')).toBeGreaterThan(count('440300'))
    expect(count('440300')).toBeGreaterThan(count('540100') * 5)
    const tier1 = persons.filter((p) => has(p, 'tier-1'))
    expect(new Set(tier1.map((p) => p.home_region.slice(-6)))).toEqual(new Set(['110100', '310100', '440100', '440300']))
    expect(tier1.length / N).toBeGreaterThan(0.04)
    expect(tier1.length / N).toBeLessThan(0.1)
    const frame = cityFrame(regions)
    expect(frame.filter((c) => c.tier === 'tier-new1')).toHaveLength(15)
    expect(frame.filter((c) => c.tier === 'tier-2')).toHaveLength(30)
    expect(frame.filter((c) => c.tier === 'tier-3')).toHaveLength(70)
  })

  it('represents all 31 provinces and keeps the total exact in the smallest panel', () => {
    const small = generatePersons(regions, 100, 5)
    expect(new Set(small.map((p) => p.home_region.slice(14, 20))).size).toBe(31)
    expect(small.reduce((w, p) => w + p.weight, 0) / INTERNET_POPULATION).toBeCloseTo(1, 9)
  })

  it('names only cities of the region table', () => {
    const codes = new Set(regions.filter((r) => r.level === 2).map((r) => r.gb_code))
    expect(NAMED_CITY_CODES.filter((c) => !codes.has(c))).toEqual([])
  })
})
