// Panels as the report kernels read them (DESIGN §3.6): load, cache, targets, universes
import { beforeAll, describe, expect, it } from 'vitest'
import { generatePanel } from '../../../../engine/measure/panel/generate'
import { importPersons } from '../../../../engine/measure/panel/import'
import { PanelCache, insideRegion, loadPanel, matchTarget, matches, panelCacheOf, universe, type PanelIndex, type UniversePlatform } from '../../../../engine/measure/panel/index'
import type { PersonRecord } from '../../../../engine/measure/panel/person'
import { eachPersonPage } from '../../../../engine/measure/panel/store'
import { buildRegions } from '../../../../engine/reference/regions'
import type { Db } from '../../../../engine/storage/db'
import { REGION, amid, idfa, ndjson, panelDb, person } from './helpers'

const PANEL = 'china-pm-2026'
const regions = buildRegions()
const parentOf = new Map(regions.map((r) => [r.region_id, r.parent_id]))
const inside = (container: string, region: string): boolean => (region === container ? true : region === '' ? false : inside(container, parentOf.get(region) ?? ''))
const typeOf = new Map<string, string>()

let db: Db
let panel: PanelIndex
let records: PersonRecord[]

beforeAll(async () => {
  db = await panelDb()
  generatePanel(db, PANEL, 3000, 7)
  for (const r of db.query<{ tag_id: string; type_id: string }>('SELECT tag_id, type_id FROM panel_tags WHERE panel_id = ?', [PANEL])) typeOf.set(r.tag_id, r.type_id)
  records = []
  eachPersonPage(db, PANEL, (page) => records.push(...page))
  panel = loadPanel(db, PANEL, regions)
})

/** The target semantics written out: every &-group has one of its ,-tags; unknown tags never match. */
function bruteMatch(p: PersonRecord, expression: string): boolean {
  return expression.split('&').every((g) => g.split(',').some((t) => typeOf.has(t) && p.tags.includes(t)))
}
function bruteUniverse(container: string, platform: UniversePlatform, expression?: string): { weight: number; persons: number } {
  let weight = 0
  let persons = 0
  for (const p of records) {
    const on = p.devices.some((d) => platform === 'pm' || d.platform === platform)
    if (!on || !inside(container, p.home_region) || (expression !== undefined && !bruteMatch(p, expression))) continue
    weight += p.weight
    persons++
  }
  return { weight, persons }
}

describe('loadPanel', () => {
  it('holds every person with weight, home region, tags, platforms and devices', () => {
    expect(panel.size).toBe(3000)
    expect(panel.personIds).toEqual(records.map((p) => p.person_id))
    const tree = new Map(regions.map((r, i) => [r.region_id, i]))
    records.forEach((p, i) => {
      expect(panel.units[i]! / panel.unit).toBe(p.weight)
      expect(panel.homeRegion[i]).toBe(tree.get(p.home_region))
      const tags = panel.tagIds.filter((_, b) => (panel.tags[i * panel.tagBytes + (b >> 3)]! & (1 << (b & 7))) !== 0)
      expect(tags.sort()).toEqual([...p.tags].sort())
      const bits = (p.devices.some((d) => d.platform === 'pc') ? 1 : 0) | (p.devices.some((d) => d.platform === 'mb') ? 2 : 0)
      expect(panel.platforms[i]).toBe(bits)
      for (const d of p.devices) expect(panel.personOfDevice.get(d.device)).toBe(i)
    })
    expect(panel.personOfDevice.size).toBe(records.reduce((n, p) => n + p.devices.length, 0))
    expect(panel.tagTypes[panel.tagIds.indexOf('female')]).toBe('gender')
  })

  it('loads an empty panel', () => {
    const empty = loadPanel(db, 'china-pc-2025', regions)
    expect(empty.size).toBe(0)
    expect(universe(empty, { regionFilter: () => true, platform: 'pm' })).toEqual({ weight: 0, persons: 0 })
  })

  it('loads 20,000 persons in one pass (a guard against quadratic reads: under a second)', async () => {
    const big = await panelDb()
    generatePanel(big, PANEL, 20_000, 1)
    loadPanel(big, PANEL, regions)
    const t = performance.now()
    const p = loadPanel(big, PANEL, regions)
    expect(p.size).toBe(20_000)
    expect(performance.now() - t).toBeLessThan(1000)
  })
})

describe('PanelCache', () => {
  it('gives the same index while the panel is unchanged and reflects an import at once', async () => {
    const mine = await panelDb()
    const cache = new PanelCache()
    const first = cache.get(mine, PANEL, regions)
    expect(first.size).toBe(0)
    expect(cache.get(mine, PANEL, regions)).toBe(first)
    importPersons(mine, PANEL, ndjson([person('p1', { devices: [{ device: idfa(1), platform: 'mb' }] })]), 'ndjson', 'merge')
    const second = cache.get(mine, PANEL, regions)
    expect(second.size).toBe(1)
    expect(second.personOfDevice.get(idfa(1))).toBe(0)
    // A write to another panel does not reload this one.
    importPersons(mine, 'china-pc-2025', ndjson([person('x')]), 'ndjson', 'merge')
    expect(cache.get(mine, PANEL, buildRegions())).toBe(second)
    importPersons(mine, PANEL, ndjson([person('p1', { devices: [{ device: amid(1), platform: 'pc' }] })]), 'ndjson', 'merge')
    expect(cache.get(mine, PANEL, regions).personOfDevice.has(idfa(1))).toBe(false)
  })

  it('is one cache per database', async () => {
    expect(panelCacheOf(db)).toBe(panelCacheOf(db))
    expect(panelCacheOf(await panelDb())).not.toBe(panelCacheOf(db))
  })
})

describe('matchTarget and matches', () => {
  const all = (expression: string) => records.map((_, i) => matches(panel, matchTarget(panel, expression), i))

  it.each([
    'female',
    'female,male',
    '25-29Y,30-34Y,35-39Y',
    'female&25-29Y,30-34Y',
    'male&18-24Y&edu-bachelor,edu-master-plus&tier-1,tier-new1',
    'married-with-kids&hh-25k-40k,hh-40k-plus',
  ])('matches %s as the brute force does (any of within a type, all of across types)', (expression) => {
    const got = all(expression)
    expect(got).toEqual(records.map((p) => bruteMatch(p, expression)))
    expect(got.some(Boolean)).toBe(true)
  })

  it('never matches an unknown tag; an unknown tag beside known ones of its group is ignored', () => {
    expect(all('martian').some(Boolean)).toBe(false)
    expect(all('male&martian').some(Boolean)).toBe(false)
    expect(all('male,martian')).toEqual(all('male'))
    expect(matchTarget(panel, 'male,martian&25-29Y', '42')).toEqual({ targetId: '42', groups: [[panel.tagIds.indexOf('male')], [panel.tagIds.indexOf('25-29Y')]] })
  })
})

describe('universe', () => {
  const containers = [REGION.global, REGION.mainland, REGION.guangdong, REGION.shenzhen, REGION.beijing, REGION.hongkong, ...regions.filter((r) => r.level === 1).map((r) => r.region_id)]
  const index = new Map(regions.map((r, i) => [r.region_id, i]))

  it('sums the weights of the cell as the brute force does, for every region, platform and target', () => {
    for (const container of containers) {
      for (const platform of ['pc', 'mb', 'pm'] as const) {
        for (const expression of [undefined, 'female', 'male&25-29Y,30-34Y']) {
          const got = universe(panel, { regionFilter: insideRegion(regions, index.get(container)!), platform, ...(expression ? { matcher: matchTarget(panel, expression) } : {}) })
          expect(got, `${container} ${platform} ${expression}`).toEqual(bruteUniverse(container, platform, expression))
        }
      }
    }
  })

  it('counts the whole panel in the global pm cell, and pc and mb persons by their devices', () => {
    const everywhere = () => true
    expect(universe(panel, { regionFilter: everywhere, platform: 'pm' }).persons).toBe(3000)
    const pc = universe(panel, { regionFilter: everywhere, platform: 'pc' }).persons
    const mb = universe(panel, { regionFilter: everywhere, platform: 'mb' }).persons
    expect(pc).toBe(records.filter((p) => p.devices.some((d) => d.platform === 'pc')).length)
    expect(mb).toBe(records.filter((p) => p.devices.some((d) => d.platform === 'mb')).length)
    expect(pc + mb).toBeGreaterThan(3000)
  })
})
