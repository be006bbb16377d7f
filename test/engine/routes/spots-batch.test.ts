// vendor-notes §3.9: batch_create_spot_with_plan
import { beforeAll, describe, expect, it } from 'vitest'
import { BATCH_MAX_SPOTS } from '../../../engine/contract/endpoints-cms'
import { endpoints } from '../../../engine/contract/endpoints'
import * as m from '../../../engine/contract/models'
import { validate } from '../../../engine/contract/schema'
import { makeEngine, type Reply, type TestEngine } from '../../helpers/make-engine'

const BATCH = endpoints['campaigns.batch_create_spot_with_plan'].path
type Item = Record<string, unknown>
const item = (i: number, extra: Item = {}): Item => ({ publisher_name: `Pub ${i % 3}`, channel_name: 'news', placement_name: `spot ${i}`, ...extra })
const items = (n: number, extra: (i: number) => Item = () => ({})) => Array.from({ length: n }, (_, i) => item(i, extra(i)))

function failsAt(r: Reply, index: number, param: string, error = 'invalid_request'): void {
  expect(r.status).toBe(400)
  expect(r.body.error).toBe(error)
  expect(r.body.error_description).toMatch(new RegExp(`^item\\[${index}\\] The '${param}'`))
}

describe('campaigns.batch_create_spot_with_plan', () => {
  let t: TestEngine
  let cid: string
  let n = 0
  const batch = (spots: unknown, campaign_id: unknown = cid) => t.postJson(BATCH, { campaign_id, spots })
  const spotsOf = async (c = cid) => (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: c, show_plan: 1, limit: '0,5000' })).body
  const newCampaign = async (start = '2025-01-10', end = '2025-01-31') =>
    (await t.post(endpoints['campaigns.create'].path, { campaign_name: `batch ${++n}`, start_date: start, end_date: end })).body.campaign_id as string
  beforeAll(async () => {
    t = await makeEngine()
    cid = await newCampaign()
  })

  it('gives spot 40 the spot_id_str e (base 62, 0-9A-Za-z)', async () => {
    const fresh = await makeEngine()
    const c = (await fresh.post(endpoints['campaigns.create'].path, { campaign_name: 'forty', start_date: '2025-01-10', end_date: '2025-01-31' })).body.campaign_id
    const r = await fresh.postJson(BATCH, { campaign_id: c, spots: items(40) })
    expect(r.body.results[39]).toMatchObject({ spot_id: '40', spot_id_str: 'e' })
    expect(r.body.results[9]).toMatchObject({ spot_id: '10', spot_id_str: 'A' })
  })

  it('creates every item in array order and answers {campaign_id, total, results}', async () => {
    const c = await newCampaign()
    const r = await batch(items(3), c)
    expect(r.status).toBe(200)
    expect(validate(m.BatchResult, r.body)).toEqual([])
    expect(r.body.campaign_id).toBe(c)
    expect(r.body.total).toBe(3)
    const ids = r.body.results.map((x: { spot_id: string }) => Number(x.spot_id))
    expect(ids).toEqual([ids[0], ids[0] + 1, ids[0] + 2])
    expect(r.body.results.map((x: { index: number; campaign_id: string }) => [x.index, x.campaign_id])).toEqual([[0, c], [1, c], [2, c]])
    expect((await spotsOf(c)).map((s: m.ListSpot) => s.placement_name)).toEqual(['spot 0', 'spot 1', 'spot 2'])
  })

  it('shares publishers by name within the batch', async () => {
    const r = await batch(items(4))
    const pubs = r.body.results.map((x: { publisher_id: string }) => x.publisher_id)
    expect(pubs[3]).toBe(pubs[0])
    expect(new Set(pubs).size).toBe(3)
  })

  it('takes campaign_id as a JSON number as well as a string', async () => {
    const r = await batch(items(1), Number(cid))
    expect(r.status).toBe(200)
    expect(r.body.campaign_id).toBe(cid)
  })

  it('reads JSON numbers of an item as their decimal text', async () => {
    const r = await batch([item(0, { slot_begin: '2025-01-10', slot_duration: 2, est_impression: 101, est_click: 3, linked_siteid: 345, dangerous_source_filtration: 0 })])
    expect(r.status).toBe(200)
    const spot = (await spotsOf()).find((s: m.ListSpot) => s.spot_id === r.body.results[0].spot_id)
    expect(spot.spot_plan).toEqual([{ date: '2025-01-10', est_impression: 51, est_click: 2 }, { date: '2025-01-11', est_impression: 50, est_click: 1 }])
  })

  it.each([
    ['a comma list', { add_slot: '2025-01-12,2025-01-14', est_impression_day: '10,20', est_click_day: '1,2' }],
    ['JSON arrays', { add_slot: ['2025-01-12', '2025-01-14'], est_impression_day: [10, 20], est_click_day: ['1', 2] }],
  ])('plans add_slot dates with per-date estimates written as %s', async (_, extra) => {
    const r = await batch([item(0, extra)])
    const spot = (await spotsOf()).find((s: m.ListSpot) => s.spot_id === r.body.results[0].spot_id)
    expect(spot.spot_plan).toEqual([{ date: '2025-01-12', est_impression: 10, est_click: 1 }, { date: '2025-01-14', est_impression: 20, est_click: 2 }])
  })

  it('plans zeros for add_slot dates without estimates', async () => {
    const r = await batch([item(0, { add_slot: '2025-01-20' })])
    const spot = (await spotsOf()).find((s: m.ListSpot) => s.spot_id === r.body.results[0].spot_id)
    expect(spot.spot_plan).toEqual([{ date: '2025-01-20', est_impression: 0, est_click: 0 }])
  })

  it('stores freq_capping, which batch items take', async () => {
    const r = await batch([item(0, { freq_capping: 'S3+D' })])
    const shown = await t.get(endpoints['campaigns.show_spot'].path, { campaign_id: cid, spot_id_str: r.body.results[0].spot_id_str })
    expect(shown.body.freq_capping).toBe('S3+D')
  })

  it('answers the keywords of keyword items with integer ids', async () => {
    const r = await batch([item(0), item(1, { channel_name: 'Bidding word', keyword: '牛奶^https://www.baidu.com>母乳^' })])
    expect(validate(m.BatchResult, r.body)).toEqual([])
    expect(r.body.results[0]).not.toHaveProperty('keyword')
    expect(r.body.results[1].keyword).toEqual([
      { keyword_id: expect.any(Number), landing_page: 'https://www.baidu.com', keyword_name: '牛奶' },
      { keyword_id: expect.any(Number), landing_page: '', keyword_name: '母乳' },
    ])
  })

  it('ignores members it does not know, such as access_token inside an item', async () => {
    const r = await batch([item(0, { access_token: 'whatever', colour: { a: 1 }, campaign_id: cid })])
    expect(r.status).toBe(200)
  })

  it.each([
    ['an empty placement_name', 2, { placement_name: '' }, 'placement_name', 'invalid_placement_name'],
    ['a keyword item outside a Bidding channel', 1, { keyword: 'k^' }, 'channel_name', 'invalid_request'],
    ['add_slot together with slot_begin', 0, { add_slot: '2025-01-12', slot_begin: '2025-01-12', slot_duration: 1 }, 'add_slot', 'invalid_request'],
    ['add_slot together with est_impression', 0, { add_slot: '2025-01-12', est_impression: 5 }, 'add_slot', 'invalid_request'],
    ['est_impression_day not matching add_slot', 1, { add_slot: '2025-01-12,2025-01-13', est_impression_day: '5' }, 'est_impression_day', 'invalid_request'],
    ['est_click_day without add_slot', 1, { est_click_day: '5' }, 'est_click_day', 'invalid_request'],
    ['an add_slot date outside the campaign', 2, { add_slot: '2025-02-01' }, 'add_slot', 'invalid_request'],
    ['a plan past the campaign end', 0, { slot_begin: '2025-01-30', slot_duration: 3 }, 'slot_duration', 'invalid_request'],
    ['an array where text is expected', 1, { publisher_name: ['a'] }, 'publisher_name', 'invalid_request'],
    ['an object where text is expected', 1, { keyword: { k: 'v' } }, 'keyword', 'invalid_request'],
    ['a boolean', 0, { dangerous_source_filtration: true }, 'dangerous_source_filtration', 'invalid_request'],
    ['an array of objects for add_slot', 0, { add_slot: [{}] }, 'add_slot', 'invalid_request'],
    ['an unknown program', 2, { program: 'NoSuchProgram' }, 'program', 'invalid_request'],
    ['a campaign_id naming another campaign', 1, { campaign_id: '1234567' }, 'campaign_id', 'invalid_request'],
  ])('answers item[N] for %s', async (_, index, extra, param, error) => {
    const spots = items(3)
    spots[index] = item(index, extra)
    failsAt(await batch(spots), index, param, error)
  })

  it('answers item[N] for an item that is not an object', async () => {
    failsAt(await batch([item(0), 'spot']), 1, 'spots')
  })

  it.each([
    ['a missing campaign_id', { spots: items(1) }, 'campaign_id'],
    ['a boolean campaign_id', { campaign_id: true, spots: items(1) }, 'campaign_id'],
    ['a malformed campaign_id', { campaign_id: 'x1', spots: items(1) }, 'campaign_id'],
    ['missing spots', { campaign_id: '1' }, 'spots'],
    ['an empty spots array', { campaign_id: '1', spots: [] }, 'spots'],
    ['spots that is not an array', { campaign_id: '1', spots: { a: 1 } }, 'spots'],
    ['a body that is an array', [], 'body'],
  ])('refuses %s with invalid_request', async (_, body, param) => {
    const r = await t.postJson(BATCH, body)
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_request')
    expect(r.body.error_description).toContain(`'${param}'`)
  })

  it(`refuses more than ${BATCH_MAX_SPOTS} spots`, async () => {
    const r = await batch(Array.from({ length: BATCH_MAX_SPOTS + 1 }, () => ({})))
    expect(r.status).toBe(400)
    expect(r.body.error_description).toContain(String(BATCH_MAX_SPOTS))
  })

  it('answers invalid_campaign_id without an item prefix for an unknown campaign', async () => {
    const r = await batch(items(2), '9999999')
    expect(r.body).toEqual({ error: 'invalid_campaign_id', error_description: "The 'campaign_id' 9999999 cannot be found." })
  })

  it('refuses a form-encoded body', async () => {
    const r = await t.post(BATCH, { campaign_id: cid })
    expect(r.status).toBe(415)
  })

  it.each([
    ['decoding', { placement_name: '' }],
    ['writing', { add_slot: '2025-03-01' }],
  ])('writes nothing when item 5 of 10 fails while %s', async (phase, bad) => {
    const c = await newCampaign()
    const before = (await batch([item(0, { publisher_name: `Probe ${phase} A` })], c)).body.results[0]
    const spots = items(10, (i) => ({ publisher_name: `Rollback ${phase} ${i}`, keyword: `k${i}^`, channel_name: 'Bidding', add_slot: '2025-01-15' }))
    spots[5] = { ...spots[5], ...bad }
    const r = await batch(spots, c)
    expect(r.status).toBe(400)
    expect(r.body.error_description.startsWith('item[5] ')).toBe(true)
    expect((await spotsOf(c)).map((s: m.ListSpot) => s.spot_id)).toEqual([before.spot_id])
    // Ids continue right after the probe: no spot, keyword or publisher of the batch was kept.
    const after = (await batch([item(0, { publisher_name: `Probe ${phase} B`, keyword: 'k^', channel_name: 'Bidding' })], c)).body.results[0]
    expect(Number(after.spot_id)).toBe(Number(before.spot_id) + 1)
    expect(Number(after.publisher_id)).toBe(Number(before.publisher_id) + 1)
  })

  it('serialises two batches to one campaign sent at once (never campaign_busy)', async () => {
    const c = await newCampaign()
    const [a, b] = await Promise.all([batch(items(50), c), batch(items(50), c)])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(await spotsOf(c)).toHaveLength(100)
  })
})
