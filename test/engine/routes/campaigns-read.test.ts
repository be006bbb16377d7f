// spec §4.2 campaigns/show and campaigns/list; §1 conventions; §2.2 status
import { beforeAll, describe, expect, it } from 'vitest'
import { Campaign } from '../../../engine/contract/models'
import { arr, validate } from '../../../engine/contract/schema'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

let t: TestEngine
const ids: Record<string, string> = {}
const list = async (q: Record<string, string | number> = {}) => {
  const r = await t.get('/cms/v1/campaigns/list', q)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  expect(validate(arr(Campaign), r.body)).toEqual([])
  return r.body as { campaign_id: string; campaign_name: string }[]
}
const names = async (q: Record<string, string | number> = {}) => (await list(q)).map((c) => c.campaign_name)

beforeAll(async () => {
  t = await makeEngine({ today: '2025-01-10' })
  const mk = async (name: string, start: string, end: string, extra: Record<string, string | number> = {}) => {
    ids[name] = (await t.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: start, end_date: end, ...extra })).body.campaign_id
  }
  // created "in the past" by moving the clock back, so that all three statuses exist today
  t.clock.advance(-30 * 86_400_000)
  t.token = await t.login()
  await mk('Ended Ölmarkt', '2024-12-11', '2024-12-31', { advertiser_id: 2, calculation_type: '3.0' })
  await mk('Running Straße', '2024-12-11', '2025-03-01', { advertiser_id: 1, brand_id: 1, agency_id: 3 })
  t.clock.advance(30 * 86_400_000)
  t.token = await t.login()
  await mk('Future 春节 campaign', '2025-02-01', '2025-02-20', { advertiser_id: 1, agency_id: 1 })
  await mk('future lowercase', '2025-01-11', '2025-01-12', { wares: 'Yum|KFC|Zinger' })
})

describe('campaigns.show', () => {
  it('returns the spec members, adding pmo_info and dm_info members only when asked', async () => {
    const plain = (await t.get('/cms/v1/campaigns/show', { campaign_id: ids['Running Straße']! })).body
    expect(validate(Campaign, plain)).toEqual([])
    expect(plain).not.toHaveProperty('panel_type')
    expect(plain).not.toHaveProperty('order_id')
    const pmo = (await t.get('/cms/v1/campaigns/show', { campaign_id: ids['Running Straße']!, pmo_info: 1 })).body
    expect(Object.keys(pmo)).toEqual(expect.arrayContaining(['panel_type', 'linked_tvcaids']))
    expect(pmo).not.toHaveProperty('order_id')
    const dm = (await t.get('/cms/v1/campaigns/show', { campaign_id: ids['Running Straße']!, dm_info: 1 })).body
    expect(Object.keys(dm)).toEqual(expect.arrayContaining(['order_id', 'scheduling_code', 'extensiontype', 'play_detect', 'ear', 'total_net', 'freq_capping', 'frequency_limit']))
    expect(dm).not.toHaveProperty('panel_type')
  })

  it('answers invalid_campaign_id for an unknown campaign and invalid_request for a malformed id', async () => {
    expect((await t.get('/cms/v1/campaigns/show', { campaign_id: 99999 })).body.error).toBe('invalid_campaign_id')
    const bad = await t.get('/cms/v1/campaigns/show', { campaign_id: 'abc' })
    expect(bad.body.error).toBe('invalid_request')
    expect(bad.body.error_description).toContain("'campaign_id'")
    expect((await t.get('/cms/v1/campaigns/show', {})).body.error_description).toContain('required')
  })

  it('is also answered at the vendor protocol example path /admonitor/v1/campaigns/show', async () => {
    expect((await t.get('/admonitor/v1/campaigns/show', { campaign_id: ids['Running Straße']! })).body.campaign_name).toBe('Running Straße')
  })
})

describe('campaigns.list', () => {
  it('returns a bare array of every campaign, ordered by campaign_id by default', async () => {
    const all = await list()
    expect(all.map((c) => c.campaign_id)).toEqual(Object.values(ids))
  })

  it('filters by status from the dates and today', async () => {
    expect(await names({ status: 1 })).toEqual(['Future 春节 campaign', 'future lowercase'])
    expect(await names({ status: 2 })).toEqual(['Running Straße'])
    expect(await names({ status: 3 })).toEqual(['Ended Ölmarkt'])
  })

  it('moves campaigns from status 1 to 2 to 3 as days pass', async () => {
    const e = await makeEngine()
    const id = (await e.post('/cms/v1/campaigns/create', { campaign_name: 'x', start_date: '2025-01-11', end_date: '2025-01-11' })).body.campaign_id
    const status = async () => {
      for (const s of [1, 2, 3]) {
        const found = (await e.get('/cms/v1/campaigns/list', { status: s })).body as { campaign_id: string }[]
        if (found.some((c) => c.campaign_id === id)) return s
      }
      return 0
    }
    expect(await status()).toBe(1)
    e.clock.advance(86_400_000)
    e.token = await e.login()
    expect(await status()).toBe(2)
    e.clock.advance(86_400_000)
    e.token = await e.login()
    expect(await status()).toBe(3)
  })

  it('searches names case-insensitively by Unicode substring (PATTERN)', async () => {
    expect(await names({ campaign_name: 'FUTURE' })).toEqual(['Future 春节 campaign', 'future lowercase'])
    expect(await names({ campaign_name: '春节' })).toEqual(['Future 春节 campaign'])
    expect(await names({ campaign_name: 'ölMARKT' })).toEqual(['Ended Ölmarkt'])
    expect(await names({ campaign_name: 'STRASSE' })).toEqual([])
    expect(await names({ campaign_name: '%' })).toEqual([])
  })

  it('searches advertiser, brand, agency and creator names, including names from wares', async () => {
    expect(await names({ advertiser_name: 'procter' })).toEqual(['Running Straße', 'Future 春节 campaign'])
    expect(await names({ advertiser_name: 'yum' })).toEqual(['future lowercase'])
    expect(await names({ brand_name: 'kfc' })).toEqual(['future lowercase'])
    expect((await names({ agency_name: '群邑' })).length + (await names({ agency_name: 'a' })).length).toBeGreaterThan(0)
    expect(await names({ creator_name: 'TEST' })).toHaveLength(4)
    expect(await names({ creator_name: 'nobody' })).toEqual([])
  })

  it('combines filters with AND', async () => {
    expect(await names({ advertiser_name: 'procter', status: 1 })).toEqual(['Future 春节 campaign'])
    expect(await names({ campaign_id: `${ids['Ended Ölmarkt']},${ids['future lowercase']}`, status: 3 })).toEqual(['Ended Ölmarkt'])
  })

  it('filters by campaign_id list, campaign_type list and calculation_type', async () => {
    expect(await names({ campaign_id: `${ids['future lowercase']},${ids['Running Straße']}` })).toEqual(['Running Straße', 'future lowercase'])
    expect(await names({ campaign_type: 'admonitor,other' })).toHaveLength(4)
    expect(await names({ campaign_type: 'tv' })).toEqual([])
    expect(await names({ calculation_type: '3.0' })).toEqual(['Ended Ölmarkt'])
    expect(await names({ calculation_type: '2.1' })).toEqual([])
    expect((await t.get('/cms/v1/campaigns/list', { calculation_type: '4.0' })).body.error).toBe('invalid_request')
  })

  it.each(['campaign_id', 'campaign_name', 'advertiser_name', 'agency_name', 'brand_name', 'creator_name', 'status'])('orders by %s ascending and descending', async (field) => {
    const asc = await list({ order_asc: field })
    const desc = await list({ order_desc: field })
    expect(asc).toHaveLength(4)
    const key = (c: Record<string, string>) => (field === 'status' ? String(['Future', 'future'].some((p) => c.campaign_name!.startsWith(p)) ? 1 : c.campaign_name!.startsWith('Running') ? 2 : 3) : c[field]!)
    const sorted = [...asc].sort((a, b) => (key(a as never) < key(b as never) ? -1 : key(a as never) > key(b as never) ? 1 : Number(a.campaign_id) - Number(b.campaign_id)))
    expect(asc.map((c) => c.campaign_id)).toEqual(sorted.map((c) => c.campaign_id))
    expect(desc.map((c) => key(c as never))).toEqual([...asc].map((c) => key(c as never)).sort().reverse())
  })

  it('pages with limit M,N: exactly N rows from row M, [] past the end', async () => {
    const all = (await list()).map((c) => c.campaign_id)
    expect((await list({ limit: '1,2' })).map((c) => c.campaign_id)).toEqual(all.slice(1, 3))
    expect((await list({ limit: '3,10' })).map((c) => c.campaign_id)).toEqual(all.slice(3))
    expect(await list({ limit: '10,5' })).toEqual([])
  })

  it('refuses order_asc with order_desc, an unknown order field and a bad limit', async () => {
    const cases: Record<string, string | number>[] = [{ order_asc: 'campaign_id', order_desc: 'status' }, { order_asc: 'start_date' }, { limit: '0,0' }, { limit: '5' }, { status: 4 }, { pmo_info: 2 }]
    for (const q of cases) {
      const r = await t.get('/cms/v1/campaigns/list', q)
      expect(r.status).toBe(400)
      expect(r.body.error).toBe('invalid_request')
      expect(r.body.error_description).toContain(`'${Object.keys(q).at(-1)}'`)
    }
  })
})

describe('linked_minisites (vendor-notes §1.8)', () => {
  it('lists the ids of the minisites linked to the campaign, in show and list; [] when none', async () => {
    const t = await makeEngine()
    const make = async (name: string) => (await t.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: '2025-01-10', end_date: '2025-02-10' })).body.campaign_id as string
    const a = await make('with minisites')
    const b = await make('without minisites')
    const m1 = (await t.post('/local/v1/minisites/create', { minisite_name: 'site one', campaign_id: a })).body.minisite_id
    const m2 = (await t.post('/local/v1/minisites/create', { minisite_name: 'site two', campaign_id: `${a},${b}` })).body.minisite_id
    expect((await t.get('/cms/v1/campaigns/show', { campaign_id: a })).body.linked_minisites).toEqual([String(m1), String(m2)])
    expect((await t.get('/cms/v1/campaigns/show', { campaign_id: b })).body.linked_minisites).toEqual([String(m2)])
    const list = (await t.get('/cms/v1/campaigns/list')).body as { campaign_id: string; linked_minisites: string[] }[]
    expect(Object.fromEntries(list.map((c) => [c.campaign_id, c.linked_minisites]))).toEqual({ [a]: [String(m1), String(m2)], [b]: [String(m2)] })
    await t.post('/local/v1/minisites/delete', { minisite_id: m2 })
    expect((await t.get('/cms/v1/campaigns/show', { campaign_id: b })).body.linked_minisites).toEqual([])
  })
})
