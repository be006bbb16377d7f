// renderer/src/campaigns/list-query.ts: list screen state -> campaigns.list parameters (spec §4.2)
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import {
  buildListParams, campaignStatus, defaultListState, emptyFilters, hasFilters, normaliseListState, pageOf, parseIdList, rowRange, sortAfterClick,
  type ListState,
} from '../../../renderer/src/campaigns/list-query'

const state = (over: Partial<ListState> = {}): ListState => ({ ...defaultListState(), ...over })
const decode = (params: Record<string, unknown>) => {
  const def = endpoints['campaigns.list'].params
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, def[k as keyof typeof def].decode(String(v), k)]))
}

describe('buildListParams', () => {
  it('asks for one row more than the page and orders newest first by default', () => {
    expect(buildListParams(state(), 0)).toEqual({ limit: '0,51', order_desc: 'campaign_id' })
  })

  it('starts page M at row M x pageSize (limit M is a start row)', () => {
    expect(buildListParams(state({ pageSize: 20 }), 3)?.limit).toBe('60,21')
    expect(buildListParams(state({ pageSize: 20 }), -1)?.limit).toBe('0,21')
  })

  it('sends trimmed PATTERN filters and leaves empty ones out', () => {
    const filters = { ...emptyFilters(), campaign_name: '  food ', advertiser_name: 'Yum', brand_name: 'KFC', creator_name: 'lee', agency_name: '   ' }
    const p = buildListParams(state({ filters }), 0)
    expect(p).toMatchObject({ campaign_name: 'food', advertiser_name: 'Yum', brand_name: 'KFC', creator_name: 'lee' })
    expect(p).not.toHaveProperty('agency_name')
  })

  it('sends status, calculation type and a normalised ID list', () => {
    const filters = { ...emptyFilters(), campaign_id: '12, 13;14 012', status: 2 as const, calculation_type: '2.1' as const }
    expect(buildListParams(state({ filters }), 0)).toMatchObject({ campaign_id: '12,13,14', status: 2, calculation_type: '2.1' })
  })

  it('uses order_asc or order_desc, never both, and none without a sort', () => {
    expect(buildListParams(state({ sort: { field: 'advertiser_name', dir: 'asc' } }), 0)).toMatchObject({ order_asc: 'advertiser_name' })
    expect(buildListParams(state({ sort: { field: 'status', dir: 'desc' } }), 0)).not.toHaveProperty('order_asc')
    const none = buildListParams(state({ sort: null }), 0)
    expect(none).not.toHaveProperty('order_asc')
    expect(none).not.toHaveProperty('order_desc')
  })

  it('returns null while the ID list is malformed', () => {
    expect(buildListParams(state({ filters: { ...emptyFilters(), campaign_id: '12,abc' } }), 0)).toBeNull()
  })

  it('builds only parameters the engine decodes', () => {
    const filters = { ...emptyFilters(), campaign_name: 'x', campaign_id: '1,2', status: 3 as const, calculation_type: '1.0' as const }
    const p = buildListParams(state({ filters, sort: { field: 'brand_name', dir: 'asc' }, pageSize: 200 }), 4)!
    expect(decode(p)).toMatchObject({ campaign_id: ['1', '2'], status: 3, order_asc: 'brand_name', limit: { offset: 800, count: 201 } })
  })
})

describe('sortAfterClick', () => {
  it("takes the clicked column's order, and goes back to newest first when the click clears it", () => {
    expect(sortAfterClick('campaign_name', 'ascend')).toEqual({ field: 'campaign_name', dir: 'asc' })
    expect(sortAfterClick('campaign_id', 'descend')).toEqual({ field: 'campaign_id', dir: 'desc' })
    expect(sortAfterClick('campaign_name', false)).toEqual({ field: 'campaign_id', dir: 'desc' })
    expect(sortAfterClick(undefined, undefined)).toEqual({ field: 'campaign_id', dir: 'desc' })
    expect(sortAfterClick('start_date', 'ascend')).toEqual({ field: 'campaign_id', dir: 'desc' }) // not orderable
    expect(buildListParams(state({ sort: sortAfterClick('campaign_name', false) }), 0)).toMatchObject({ order_desc: 'campaign_id' })
  })
})

describe('parseIdList', () => {
  it('takes commas, spaces and semicolons between ids and drops repeats', () => {
    expect(parseIdList(' 12,13 13;0014 ')).toEqual({ ids: ['12', '13', '14'] })
    expect(parseIdList('')).toEqual({ ids: [] })
  })
  it('refuses zero, signs, letters and ids over 18 digits', () => {
    for (const bad of ['0', '-1', '1a', '1.5', '1234567890123456789']) expect(parseIdList(bad)).toEqual({ problem: 'format' })
    expect(parseIdList('123456789012345678')).toEqual({ ids: ['123456789012345678'] })
  })
  it('refuses more than 1000 ids', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',')
    expect(parseIdList(ids(1000))).toMatchObject({ ids: expect.any(Array) })
    expect(parseIdList(ids(1001))).toEqual({ problem: 'tooMany' })
  })
})

describe('normaliseListState', () => {
  it('falls back to the defaults for anything unknown', () => {
    expect(normaliseListState(null)).toEqual(defaultListState())
    expect(normaliseListState({ filters: { status: 9, calculation_type: '9.9', campaign_name: 5 }, sort: { field: 'start_date', dir: 'asc' }, pageSize: 7 }))
      .toEqual(defaultListState())
  })
  it('keeps valid remembered values, including no sort', () => {
    const kept = { filters: { ...emptyFilters(), brand_name: 'KFC', status: 1, calculation_type: '3.1' }, sort: null, pageSize: 100 }
    expect(normaliseListState(kept)).toEqual(kept)
  })
  it('cuts remembered patterns to 200 characters', () => {
    expect(normaliseListState({ filters: { campaign_name: 'x'.repeat(300) } }).filters.campaign_name).toHaveLength(200)
  })
})

describe('paging helpers', () => {
  it('pageOf shows pageSize rows and tells whether more exist', () => {
    expect(pageOf([1, 2, 3], 2)).toEqual({ rows: [1, 2], hasMore: true })
    expect(pageOf([1, 2], 2)).toEqual({ rows: [1, 2], hasMore: false })
    expect(pageOf([], 2)).toEqual({ rows: [], hasMore: false })
  })
  it('rowRange counts from 1', () => {
    expect(rowRange(0, 50, 50)).toEqual({ from: 1, to: 50 })
    expect(rowRange(2, 20, 7)).toEqual({ from: 41, to: 47 })
    expect(rowRange(0, 20, 0)).toEqual({ from: 0, to: 0 })
  })
  it('hasFilters ignores whitespace-only text', () => {
    expect(hasFilters({ ...emptyFilters(), creator_name: '  ' })).toBe(false)
    expect(hasFilters({ ...emptyFilters(), status: 1 })).toBe(true)
  })
})

describe('campaignStatus', () => {
  const c = { start_date: '2025-01-10', end_date: '2025-01-20' }
  it('is 1 before the start, 2 from start to end inclusive, 3 after the end', () => {
    expect(campaignStatus(c, '2025-01-09')).toBe(1)
    expect(campaignStatus(c, '2025-01-10')).toBe(2)
    expect(campaignStatus(c, '2025-01-20')).toBe(2)
    expect(campaignStatus(c, '2025-01-21')).toBe(3)
  })
})
