// spec §4.2 show_spot, list_spots; vendor-notes §3.2, §3.6, §7
import { beforeAll, describe, expect, it } from 'vitest'
import { fromBase62, toBase62 } from '../../../engine/contract/base62'
import { endpoints } from '../../../engine/contract/endpoints'
import * as m from '../../../engine/contract/models'
import { arr, validate } from '../../../engine/contract/schema'
import { makeEngine, type Reply, type TestEngine } from '../../helpers/make-engine'

const SHOW = endpoints['campaigns.show_spot'].path
const LIST = endpoints['campaigns.list_spots'].path
type Query = Record<string, string | number>

function refusedRead(r: Reply, param: string, error = 'invalid_request'): void {
  expect([r.status, r.body.error]).toEqual([400, error])
  expect(r.body.error_description).toContain(`'${param}'`)
}

/** One campaign "Read 1" with 40 spots (spot 40 = "e"), and a second campaign. */
async function fixture() {
  const t = await makeEngine()
  const mk = async (name: string) => (await t.post(endpoints['campaigns.create'].path, { campaign_name: name, start_date: '2025-01-10', end_date: '2025-01-31' })).body.campaign_id as string
  const cid = await mk('Read 1')
  const other = await mk('Read 2')
  const spots = Array.from({ length: 40 }, (_, i) => ({
    publisher_name: i === 39 ? 'DOUYIN LE' : ['Twitter', 'Google', 'DOUYIN LE'][i % 3], channel_name: i === 39 ? 'Bidding word' : 'news', placement_name: `spot ${i + 1}`,
    landing_page: i % 2 === 0 ? 'http://www.facebook.com/p?x=1#top' : '', guid: `G${i + 1}`, caguid: 'XDF234', budgetInput: i === 39 ? '10000' : undefined,
    program: '繁花', shop_id: '111', program_purchasing_type: '通投',
    ...(i === 39 ? { keyword: '牛奶^https://www.baidu.com>母乳^', linked_siteid: 345 } : {}),
    ...(i < 3 ? { slot_begin: '2025-01-10', slot_duration: 5, est_impression: 500, est_click: 50 } : {}),
  }))
  const r = await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, { campaign_id: cid, spots })
  if (r.status !== 200) throw new Error(r.raw.body)
  await t.post(endpoints['campaigns.create_spot'].path, { campaign_id: other, publisher_name: 'Twitter', channel_name: 'c', placement_name: 'elsewhere' })
  return { t, cid, other }
}

describe('campaigns.show_spot', () => {
  let t: TestEngine
  let cid: string
  let other: string
  const show = (q: Query) => t.get(SHOW, { campaign_id: cid, spot_id_str: 'e', ...q })
  beforeAll(async () => ({ t, cid, other } = await fixture()))

  it('shows exactly the Spot members, without the optional ones when not asked for', async () => {
    const r = await show({})
    expect(r.status).toBe(200)
    expect(validate(m.Spot, r.body)).toEqual([])
    expect(r.body).toMatchObject({ spot_id: '40', spot_id_str: 'e', GUID: 'G40', CAGUID: 'XDF234', linked_siteid: 345, publisher_name: 'DOUYIN LE', channel_name: 'Bidding word' })
    for (const k of ['keyword', 'budgetInput', 'dangerous_source_filtration', 'guid', 'caguid']) expect(r.body).not.toHaveProperty(k)
    for (const k of [...m.SPOT_TEXT_FIELDS, ...m.CUSTOMER_FIELDS]) expect(typeof r.body[k]).toBe('string')
  })

  it('shows keywords ordered by keyword_id with keyword=on', async () => {
    const r = await show({ keyword: 'on' })
    expect(validate(m.Spot, r.body)).toEqual([])
    expect(r.body.keyword).toEqual([
      { keyword_id: expect.any(Number), keyword_name: '牛奶', landing_page: 'https://www.baidu.com' },
      { keyword_id: r.body.keyword[0].keyword_id + 1, keyword_name: '母乳', landing_page: '' },
    ])
    expect((await show({ keyword: 'off' })).body).not.toHaveProperty('keyword')
  })

  it('shows an empty keyword list for a spot without keywords', async () => {
    expect((await show({ spot_id_str: 'A', keyword: 'on' })).body.keyword).toEqual([])
  })

  it("shows budgetInput with show_extInfo=1, as '' when none was entered", async () => {
    expect((await show({ show_extInfo: 1 })).body.budgetInput).toBe('10000')
    expect((await show({ spot_id_str: '1', show_extInfo: 1 })).body.budgetInput).toBe('')
    expect((await show({ show_extInfo: 0 })).body).not.toHaveProperty('budgetInput')
  })

  it('shows dangerous_source_filtration as an integer with show_filtration_status=1', async () => {
    expect((await show({ show_filtration_status: 1 })).body.dangerous_source_filtration).toBe(0)
    expect((await show({ spot_id_str: '1', show_filtration_status: 1 })).body.dangerous_source_filtration).toBe(1)
  })

  it('shows linked_siteid as null when none was entered, and accepts dm_info', async () => {
    const r = await show({ spot_id_str: '1', dm_info: 1 })
    expect(r.body.linked_siteid).toBeNull()
    expect(validate(m.Spot, r.body)).toEqual([])
  })

  it('finds the spot by a percent-encoded spot_id_str once the door has decoded it', async () => {
    const decoded = new URLSearchParams('spot_id_str=%65').get('spot_id_str') ?? ''
    expect((await show({ spot_id_str: decoded })).body.spot_id).toBe('40')
  })

  it('round-trips spot_id_str for every spot of the campaign', async () => {
    const list = (await t.get(LIST, { campaign_id: cid })).body as m.ListSpot[]
    for (const s of list.slice(0, 12)) {
      expect(fromBase62(s.spot_id_str)).toBe(s.spot_id)
      expect((await show({ spot_id_str: s.spot_id_str })).body.spot_id).toBe(s.spot_id)
    }
    expect(toBase62(40)).toBe('e')
  })

  it.each(['%65', '4+bCF0', 'e!', '0'])('refuses spot_id_str=%s with 400 naming spot_id_str', async (v) => {
    refusedRead(await show({ spot_id_str: v }), 'spot_id_str')
  })

  it.each([['keyword', 'yes'], ['show_extInfo', '2'], ['show_filtration_status', 'on'], ['dm_info', 'x']])('refuses %s=%s', async (name, value) => {
    refusedRead(await show({ [name]: value }), name)
  })

  it('answers invalid_spot_id for an unknown spot and for a spot of another campaign', async () => {
    refusedRead(await show({ spot_id_str: 'zz' }), 'spot_id_str', 'invalid_spot_id')
    refusedRead(await show({ campaign_id: other }), 'spot_id_str', 'invalid_spot_id')
  })

  it('answers invalid_campaign_id for an unknown campaign', async () => {
    expect((await show({ campaign_id: '31337' })).body).toEqual({ error: 'invalid_campaign_id', error_description: "The 'campaign_id' 31337 cannot be found." })
  })
})

describe('campaigns.list_spots', () => {
  let t: TestEngine
  let cid: string
  const list = (q: Query = {}) => t.get(LIST, { campaign_id: cid, ...q })
  const ids = async (q: Query) => ((await list(q)).body as m.ListSpot[]).map((s) => Number(s.spot_id))
  beforeAll(async () => ({ t, cid } = await fixture()))

  it('lists the ListSpot members with a keyword array on every spot', async () => {
    const r = await list()
    expect(r.status).toBe(200)
    expect(validate(arr(m.ListSpot), r.body)).toEqual([])
    expect(r.body).toHaveLength(40)
    expect(r.body[0].keyword).toEqual([])
    for (const k of ['spot_plan', 'budgetInput', 'dangerous_source_filtration', 'program', 'program_purchasing_type', 'shop_id']) expect(r.body[0]).not.toHaveProperty(k)
  })

  it('lists keywords with the vendor member names, the spot id as spid and one-key tag objects', async () => {
    const s = (await list({ spot_id: 40 })).body[0]
    const [k] = s.keyword
    expect(k).toMatchObject({ deletedTime: '', isDeleted: '', keyword: '牛奶', keywordId: expect.any(Number), landingPage: 'https://www.baidu.com', spid: 40 })
    expect(k.tracking_tags).toEqual([{ impression_url: expect.stringContaining(`/x/k=${cid}&p=e&af=${k.keywordId}&`) }, { click_url: expect.stringMatching(/&o=https%3A%2F%2Fwww\.baidu\.com$/) }])
    expect(s.keyword[1].tracking_tags[1].click_url.endsWith('&o=')).toBe(true)
  })

  it('writes the spot tags with the campaign id and spot_id_str', async () => {
    const s = (await list({ spot_id: 1 })).body[0]
    expect(s.tracking_tags.impression_url).toBe(`http://127.0.0.1:8366/x/k=${cid}&p=1&dx=__IPDX__&rt=2&ns=__IP__&ni=__IESID__&v=__LOC__&xa=__ADPLATFORM__&tr=__REQUESTID__&o=`)
    expect(s.tracking_tags.click_url.endsWith(`&o=${encodeURIComponent('http://www.facebook.com/p?x=1#top')}`)).toBe(true)
  })

  it('shapes the tags with code_type, matched case-insensitively', async () => {
    const s = (await list({ spot_id: 40, code_type: 'HTTPS,mma,?,closedurl' })).body[0]
    expect(s.tracking_tags.impression_url).toMatch(/^https:\/\/127\.0\.0\.1:8366\/x\/\?k=/)
    expect(s.tracking_tags.impression_url).toContain('m5=__IDFA__')
    expect(s.tracking_tags.impression_url).toContain('&pro=s&o=')
    expect(s.keyword[0].tracking_tags[1].click_url.endsWith('&o=')).toBe(true)
  })

  it.each([['code_type', 'mma,nope'], ['code_type', 'utm,utm_auto'], ['landingpage', 'UTM'], ['show_plan', '2'], ['from_date', '2025-1-1'], ['limit', '0'], ['order_asc', 'placement_name'], ['publisher_id', 'x']])(
    'refuses %s=%s with 400 naming the parameter',
    async (name, value) => refusedRead(await list({ [name]: value }), name),
  )

  it('filters by publisher_id and by spot_id, both together with AND', async () => {
    const google = (await list({ spot_id: 2 })).body[0].publisher_id
    expect(await ids({ publisher_id: google })).toEqual([2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38])
    expect(await ids({ spot_id: '3,1,2' })).toEqual([1, 2, 3])
    expect(await ids({ publisher_id: google, spot_id: '1,2,3,5' })).toEqual([2, 5])
    expect(await ids({ publisher_id: google, spot_id: '1' })).toEqual([])
  })

  it('leaves out the spots of other campaigns', async () => {
    expect(await ids({ spot_id: 41 })).toEqual([])
  })

  it('orders by spot_id or publisher_id, ascending or descending, with spot_id as tiebreak', async () => {
    expect((await ids({ order_desc: 'spot_id' })).slice(0, 3)).toEqual([40, 39, 38])
    const pubs = ((await list({ order_asc: 'publisher_id', limit: '0,4' })).body as m.ListSpot[]).map((s) => [s.publisher_id, Number(s.spot_id)])
    expect(pubs.map((p) => p[1])).toEqual([1, 4, 7, 10])
    expect((await ids({ order_desc: 'publisher_id', limit: '0,2' }))).toEqual([3, 6])
    refusedRead(await list({ order_asc: 'spot_id', order_desc: 'spot_id' }), 'order_desc')
  })

  it('pages with limit M,N from start row M', async () => {
    expect(await ids({ limit: '1,2' })).toEqual([2, 3])
    expect(await ids({ limit: '38,10' })).toEqual([39, 40])
    expect(await ids({ limit: '40,10' })).toEqual([])
    expect(await ids({ limit: '0,3', order_desc: 'spot_id' })).toEqual([40, 39, 38])
  })

  it('keeps keywords with their spot when paging', async () => {
    const page = (await list({ limit: '39,1' })).body
    expect(page[0].keyword.map((k: m.ListKeyword) => k.keyword)).toEqual(['牛奶', '母乳'])
  })

  it('adds the whole plan with show_plan=1, and [] for spots without one', async () => {
    const [a, , , d] = (await list({ show_plan: 1, limit: '0,4' })).body
    expect(a.spot_plan).toHaveLength(5)
    expect(a.spot_plan[0]).toEqual({ date: '2025-01-10', est_impression: 100, est_click: 10 })
    expect(a.spot_plan[4].date).toBe('2025-01-14')
    expect(d.spot_plan).toEqual([])
  })

  it('bounds the plan by from_date and to_date, inclusive', async () => {
    const dates = async (q: Query) => (await list({ show_plan: 1, spot_id: 1, ...q })).body[0].spot_plan.map((p: m.PlanDay) => p.date)
    expect(await dates({ from_date: '2025-01-11', to_date: '2025-01-12' })).toEqual(['2025-01-11', '2025-01-12'])
    expect(await dates({ from_date: '2025-01-13' })).toEqual(['2025-01-13', '2025-01-14'])
    expect(await dates({ to_date: '2025-01-10' })).toEqual(['2025-01-10'])
    expect(await dates({ from_date: '2025-01-12', to_date: '2025-01-12' })).toEqual(['2025-01-12'])
    expect(await dates({ from_date: '2025-02-01' })).toEqual([])
  })

  it('refuses from_date later than to_date, naming to_date', async () => {
    refusedRead(await list({ show_plan: 1, from_date: '2025-01-12', to_date: '2025-01-11' }), 'to_date')
  })

  it('adds budgetInput with show_extInfo=1, dangerous_source_filtration with show_filtration_status=1 and the dm_info members', async () => {
    const [s] = (await list({ spot_id: 40, show_extInfo: 1, show_filtration_status: 1, dm_info: 1 })).body
    expect(s).toMatchObject({ budgetInput: '10000', dangerous_source_filtration: 0, program: '繁花', program_purchasing_type: '通投', shop_id: '111' })
    expect(validate(m.ListSpot, s)).toEqual([])
    expect((await list({ spot_id: 1, show_extInfo: 1 })).body[0].budgetInput).toBe('')
  })

  it('appends utm parameters to non-empty landing pages with landingpage=utm, keeping the fragment', async () => {
    const [one, two] = (await list({ landingpage: 'utm', limit: '0,2' })).body
    expect(one.landing_page).toBe('http://www.facebook.com/p?x=1&utm_source=Twitter&utm_medium=display&utm_campaign=Read%201&utm_content=1#top')
    expect(two.landing_page).toBe('')
    const kw = (await list({ landingpage: 'utm', spot_id: 40 })).body[0].keyword[0]
    expect(kw.landingPage).toBe('https://www.baidu.com?utm_source=DOUYIN%20LE&utm_medium=cpc&utm_campaign=Read%201&utm_content=e&utm_term=%E7%89%9B%E5%A5%B6')
  })

  it('answers invalid_campaign_id for an unknown campaign', async () => {
    refusedRead(await list({ campaign_id: '4040404' }), 'campaign_id', 'invalid_campaign_id')
  })

  // Speed is measured by `npm run bench`, not here; this checks the 3000-spot answer is whole.
  it('lists all 3000 spots of a batch with their keywords and plans', async () => {
    const c = (await t.post(endpoints['campaigns.create'].path, { campaign_name: 'Big', start_date: '2025-01-10', end_date: '2025-02-28' })).body.campaign_id
    const spots = Array.from({ length: 3000 }, (_, i) => ({
      publisher_name: `P${i % 25}`, channel_name: 'Bidding word', placement_name: `s${i}`, keyword: `k${i}^https://k.example/${i}`, slot_begin: '2025-01-10', slot_duration: 7, est_impression: 700,
    }))
    expect((await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, { campaign_id: c, spots })).status).toBe(200)
    const r = await t.get(LIST, { campaign_id: c, limit: '0,3000', show_plan: 1, code_type: 'mma,utm' })
    expect(r.body).toHaveLength(3000)
    expect(r.body[2999].keyword[0].keyword).toBe('k2999')
    expect(r.body[2999].spot_plan).toHaveLength(7)
  })
})
