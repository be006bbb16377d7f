// spec §4.2 list_targets, list_publishers; §4.3 publish_target; §7.2; vendor-notes §3.4, §3.10, §5.6
import { beforeAll, describe, expect, it } from 'vitest'
import { Publisher, Target } from '../../../engine/contract/models'
import { arr, validate } from '../../../engine/contract/schema'
import { DATES, makeEngine, type TestEngine } from '../../helpers/make-engine'

let t: TestEngine
let cid = ''
const publish = (target_name: string, tag_id: string, campaign_id = cid) => t.post('/cms/v1/campaigns/publish_target', { campaign_id, target_name, tag_id })

beforeAll(async () => {
  t = await makeEngine()
  cid = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'Targets', start_date: DATES.tomorrow, end_date: DATES.nextMonth })).body.campaign_id
})

describe('campaigns.publish_target', () => {
  it("answers target_id, target_name and the campaign's panel_id", async () => {
    const r = await publish('F20-29', 'female&25-29Y')
    expect(r.status).toBe(200)
    expect(validate(Target, r.body)).toEqual([])
    expect(r.body).toEqual({ target_id: expect.stringMatching(/^\d+$/), target_name: 'F20-29', panel_id: 'china-pc-2026' })
  })

  it("answers the vendor's 'is wrong.' error for a name that exists in the campaign", async () => {
    await publish('Twice', 'male')
    const r = await publish('Twice', 'female')
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ error: 'is wrong.', error_description: "The 'target_name' has been existed in this campaign." })
  })

  it('allows the same name in another campaign', async () => {
    const other = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'Targets 2', start_date: DATES.tomorrow, end_date: DATES.nextMonth })).body.campaign_id
    expect((await publish('Twice', 'male', other)).status).toBe(200)
  })

  it('checks the tag expression against the panel', async () => {
    for (const [tag, text] of [['martian', 'martian'], ['male,18-24Y', 'different types'], ['male&female', 'two groups'], ['male&', 'empty group']] as const) {
      const r = await publish(`bad ${tag}`, tag)
      expect(r.status).toBe(400)
      expect(r.body.error).toBe('invalid_request')
      expect(r.body.error_description).toContain("'tag_id'")
      expect(r.body.error_description).toContain(text)
    }
  })

  it('refuses a missing name, missing tags and an unknown campaign', async () => {
    expect((await t.post('/cms/v1/campaigns/publish_target', { campaign_id: cid, tag_id: 'male' })).body.error_description).toContain("'target_name'")
    expect((await t.post('/cms/v1/campaigns/publish_target', { campaign_id: cid, target_name: 'x' })).body.error_description).toContain("'tag_id'")
    expect((await publish('x', 'male', '99999')).body.error).toBe('invalid_campaign_id')
  })
})

describe('campaigns.list_targets', () => {
  it('lists targets without tag_id unless show_tag=1', async () => {
    const plain = (await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid })).body
    expect(validate(arr(Target), plain)).toEqual([])
    expect(plain[0]).not.toHaveProperty('tag_id')
    const tagged = (await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, show_tag: 1 })).body
    expect(tagged.find((x: { target_name: string }) => x.target_name === 'F20-29').tag_id).toBe('female&25-29Y')
  })

  it('filters by target_id and panel_id, orders and pages', async () => {
    const all = (await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid })).body as { target_id: string }[]
    expect(all.length).toBeGreaterThanOrEqual(2)
    const first = all[0]!.target_id
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, target_id: first })).body).toHaveLength(1)
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, panel_id: 'china-pm-2026' })).body).toEqual([])
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, panel_id: 'china-pc-2026,x' })).body).toHaveLength(all.length)
    const desc = (await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, order_desc: 'target_id' })).body as { target_id: string }[]
    expect(desc.map((x) => x.target_id)).toEqual(all.map((x) => x.target_id).reverse())
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, limit: '1,1' })).body).toEqual([all[1]])
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: cid, order_asc: 'target_name' })).status).toBe(400)
  })

  it('answers [] for a campaign without targets and invalid_campaign_id for an unknown one', async () => {
    const empty = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'No targets', start_date: DATES.tomorrow, end_date: DATES.nextMonth })).body.campaign_id
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: empty })).body).toEqual([])
    expect((await t.get('/cms/v1/campaigns/list_targets', { campaign_id: 77777 })).body.error).toBe('invalid_campaign_id')
  })
})

describe('campaigns.list_publishers', () => {
  it('lists the publishers that have spots in the campaign, each once', async () => {
    for (const [pub, placement] of [['Google', 'a'], ['Twitter', 'b'], ['Google', 'c']]) {
      expect((await t.post('/cms/v1/campaigns/create_spot', { campaign_id: cid, publisher_name: pub!, channel_name: 'news', placement_name: placement! })).status).toBe(200)
    }
    const r = (await t.get('/cms/v1/campaigns/list_publishers', { campaign_id: cid })).body
    expect(validate(arr(Publisher), r)).toEqual([])
    expect(r.map((p: { publisher_name: string }) => p.publisher_name)).toEqual(['Google', 'Twitter'])
    const desc = (await t.get('/cms/v1/campaigns/list_publishers', { campaign_id: cid, order_desc: 'publisher_id' })).body
    expect(desc.map((p: { publisher_name: string }) => p.publisher_name)).toEqual(['Twitter', 'Google'])
    expect((await t.get('/cms/v1/campaigns/list_publishers', { campaign_id: cid, publisher_id: r[1].publisher_id })).body).toEqual([r[1]])
    expect((await t.get('/cms/v1/campaigns/list_publishers', { campaign_id: cid, limit: '1,5' })).body).toEqual([r[1]])
  })

  it('answers [] without spots and invalid_campaign_id for an unknown campaign', async () => {
    const other = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'No spots', start_date: DATES.tomorrow, end_date: DATES.nextMonth })).body.campaign_id
    expect((await t.get('/cms/v1/campaigns/list_publishers', { campaign_id: other })).body).toEqual([])
    expect((await t.get('/cms/v1/campaigns/list_publishers', { campaign_id: 55555 })).body.error).toBe('invalid_campaign_id')
  })
})
