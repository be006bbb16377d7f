import { describe, expect, it } from 'vitest'
import { demoReference, PANEL_TAG_TYPES, PANEL_TAGS } from '../../../engine/reference/demo'

const ref = demoReference()
const TYPE_IDS = ['gender', 'age', 'education', 'income', 'household_income', 'city_tier', 'marital']

function unique<T>(values: T[]): boolean {
  return new Set(values).size === values.length
}

describe('demoReference', () => {
  it('numbers advertisers, brands and agencies 1..N without gaps', () => {
    expect(ref.advertisers.map((a) => a.advertiser_id)).toEqual(ref.advertisers.map((_, i) => i + 1))
    expect(ref.brands.map((b) => b.brand_id)).toEqual(ref.brands.map((_, i) => i + 1))
    expect(ref.agencies.map((a) => a.agency_id)).toEqual(ref.agencies.map((_, i) => i + 1))
    expect(ref.advertisers.length).toBeGreaterThanOrEqual(20)
    expect(ref.agencies.length).toBeGreaterThanOrEqual(10)
  })

  it('gives every brand an existing advertiser, and every advertiser 3 to 6 brands', () => {
    const ids = new Set(ref.advertisers.map((a) => a.advertiser_id))
    for (const b of ref.brands) expect(ids.has(b.advertiser_id), b.brand_name).toBe(true)
    for (const a of ref.advertisers) {
      const n = ref.brands.filter((b) => b.advertiser_id === a.advertiser_id).length
      expect(n, a.advertiser_name).toBeGreaterThanOrEqual(3)
      expect(n, a.advertiser_name).toBeLessThanOrEqual(6)
    }
    const pg = ref.advertisers.find((a) => a.advertiser_name === '宝洁 Procter & Gamble')
    expect(ref.brands.find((b) => b.brand_name === '海飞丝 Head & Shoulders')?.advertiser_id).toBe(pg?.advertiser_id)
  })

  it('has unique, non-empty names in every list', () => {
    const lists = [ref.advertisers.map((a) => a.advertiser_name), ref.agencies.map((a) => a.agency_name), ref.products, ref.programs, ref.plmttypes, ref.extensiontypes]
    for (const names of lists) {
      expect(unique(names)).toBe(true)
      for (const n of names) expect(n.trim()).not.toBe('')
    }
    expect(ref.plmttypes).toContain('富媒体Banner')
    expect(ref.extensiontypes).toContain('品牌形象活动-品牌形象')
    for (const e of ref.extensiontypes) expect(e).toMatch(/^[^-]+-[^-]+$/)
  })

  it('gives every panel the seven tag types in order, and tags whose type exists', () => {
    expect(ref.panels.map((p) => p.panel_id)).toEqual(expect.arrayContaining(['china-pc-2025', 'china-pc-2026', 'china-pm-2025', 'china-pm-2026', 'china-pmo-2026']))
    expect(unique(ref.panels.map((p) => p.panel_id))).toBe(true)
    for (const p of ref.panels) {
      expect(p.types.map((t) => t.type_id)).toEqual(TYPE_IDS)
      const types = new Set(p.types.map((t) => t.type_id))
      for (const t of p.tags) {
        expect(types.has(t.type_id), t.tag_id).toBe(true)
        expect(t.tag_id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/)
      }
      expect(unique(p.tags.map((t) => t.tag_id))).toBe(true)
      for (const id of TYPE_IDS) expect(p.tags.some((t) => t.type_id === id), `${p.panel_id} ${id}`).toBe(true)
    }
  })

  it('makes china-pc-2026 the latest pc panel', () => {
    const pc = ref.panels.filter((p) => p.platform === 'pc').sort((a, b) => b.released.localeCompare(a.released))
    expect(pc[0]?.panel_id).toBe('china-pc-2026')
    expect(pc[0]?.panel_name).toBe('China PC panel 2026')
    for (const p of ref.panels) expect(p.released).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it('exports the tag types and tags it seeds', () => {
    expect(PANEL_TAG_TYPES.map((t) => t.type_id)).toEqual(TYPE_IDS)
    expect(PANEL_TAGS.find((t) => t.tag_id === '65Y-plus')).toMatchObject({ type_id: 'age', name_cn: '65岁及以上' })
    expect(PANEL_TAGS.find((t) => t.tag_id === 'male')).toMatchObject({ type_id: 'gender', name_cn: '男' })
    expect(ref.panels[0]?.tags).toEqual(PANEL_TAGS)
  })

  it('returns a fresh copy on every call', () => {
    const a = demoReference()
    a.panels[0]?.tags.pop()
    a.products.pop()
    expect(demoReference()).toEqual(ref)
  })
})
