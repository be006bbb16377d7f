// spec §4.3 create_spot, create_spot_with_plan, delete_spot; vendor-notes §3.8, §3.11
import { beforeAll, describe, expect, it } from 'vitest'
import { toBase62 } from '../../../engine/contract/base62'
import * as m from '../../../engine/contract/models'
import { validate } from '../../../engine/contract/schema'
import { PLACEMENT_TYPES, PROGRAM_PURCHASING, REPORT_METRICS } from '../../../engine/contract/vocabulary'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign, path, planOf, refused, showSpot, spotForm, type Form } from './spot-helpers'


describe('campaigns.create_spot', () => {
  let t: TestEngine
  let cid: string
  beforeAll(async () => {
    t = await makeEngine()
    cid = await newCampaign(t)
  })

  it('answers campaign_id, spot_id, spot_id_str and publisher_id as strings when created without keywords', async () => {
    const r = await createSpot(t, cid)
    expect(r.status).toBe(200)
    expect(validate(m.SpotResult, r.body)).toEqual([])
    expect(r.body).toEqual({ campaign_id: cid, spot_id: r.body.spot_id, spot_id_str: toBase62(r.body.spot_id), publisher_id: r.body.publisher_id })
  })

  it('applies the documented defaults when only the required fields are sent', async () => {
    const r = await createSpot(t, cid, { placement_name: 'defaults' })
    const s = (await showSpot(t, cid, r.body.spot_id)).body
    expect(validate(m.Spot, s)).toEqual([])
    expect(s).toMatchObject({
      placement_type: 'display', report_metrics: 'impression+click', freq_capping: 'S0+', tracking_timing: '', linked_siteid: null,
      budgetInput: '', dangerous_source_filtration: 1, keyword: [], program: '', GUID: '', CAGUID: '', landing_page: '',
    })
  })

  it('defaults tracking_timing to 1s when placement_type is video, and keeps a given one', async () => {
    const video = await createSpot(t, cid, { placement_type: 'video' })
    expect((await showSpot(t, cid, video.body.spot_id)).body.tracking_timing).toBe('1s')
    const given = await createSpot(t, cid, { placement_type: 'video', tracking_timing: 'bb' })
    expect((await showSpot(t, cid, given.body.spot_id)).body.tracking_timing).toBe('bb')
  })

  it('defaults dangerous_source_filtration to 0 for a spot created with keywords', async () => {
    const r = await createSpot(t, cid, { keyword: 'k1^' })
    expect((await showSpot(t, cid, r.body.spot_id)).body.dangerous_source_filtration).toBe(0)
  })

  it.each(['Bidding', 'Bidding word'])('defaults dangerous_source_filtration to 0 when channel_name is %s', async (channel) => {
    const r = await createSpot(t, cid, { channel_name: channel })
    expect((await showSpot(t, cid, r.body.spot_id)).body.dangerous_source_filtration).toBe(0)
  })

  it.each([[0, 0], [1, 1]])('stores dangerous_source_filtration=%s as given, even for keyword spots', async (v, want) => {
    const r = await createSpot(t, cid, { keyword: 'k^', dangerous_source_filtration: v })
    expect((await showSpot(t, cid, r.body.spot_id)).body.dangerous_source_filtration).toBe(want)
  })

  it('answers the created keywords with integer ids in input order when keywords are sent', async () => {
    const r = await createSpot(t, cid, { keyword: '牛奶^https://www.baidu.com>母乳^' })
    expect(validate(m.SpotResult, r.body)).toEqual([])
    const [a, b] = r.body.keyword
    expect(a).toEqual({ keyword_id: a.keyword_id, landing_page: 'https://www.baidu.com', keyword_name: '牛奶' })
    expect(b).toEqual({ keyword_id: a.keyword_id + 1, landing_page: '', keyword_name: '母乳' })
    expect((await showSpot(t, cid, r.body.spot_id)).body.keyword).toEqual([
      { keyword_id: a.keyword_id, keyword_name: '牛奶', landing_page: 'https://www.baidu.com' },
      { keyword_id: b.keyword_id, keyword_name: '母乳', landing_page: '' },
    ])
  })

  it('reuses the publisher of the exact same name and registers a new name', async () => {
    const a = await createSpot(t, cid, { publisher_name: 'Pub Exact' })
    const b = await createSpot(t, await newCampaign(t), { publisher_name: 'Pub Exact' })
    const c = await createSpot(t, cid, { publisher_name: 'pub exact' })
    expect(b.body.publisher_id).toBe(a.body.publisher_id)
    expect(Number(c.body.publisher_id)).toBeGreaterThan(Number(a.body.publisher_id))
    expect((await showSpot(t, cid, c.body.spot_id)).body.publisher_name).toBe('pub exact')
  })

  it('stores every field in its column and shows GUID and CAGUID upper-case', async () => {
    const custom = Object.fromEntries(m.CUSTOMER_FIELDS.map((f) => [f, `v-${f}`]))
    const form = {
      placement_type: 'video', program_purchasing_type: '按频道采买', program: '繁花, 三体', report_metrics: 'click', market: 'NATIONAL',
      adposition_type: '常规Banner', vending_model: '程序化购买-PDB', guid: 'RTX123456', caguid: 'XDF234', customize: '66666',
      description: 'PC/A版素材', landing_page: 'http://www.facebook.com', referrer_url: 'https://ref.example/', other_impr_tracking_tag: 'https://t.example/i?ip=__IP__',
      shop_id: '111', freq_capping: 'M5-W', tracking_timing: '0', linked_siteid: 345, budgetInput: '10000', ...custom,
    }
    const r = await createSpot(t, cid, form)
    const s = (await showSpot(t, cid, r.body.spot_id)).body
    const { guid, caguid, program, linked_siteid, ...same } = form
    expect(s).toMatchObject({ ...same, GUID: guid, CAGUID: caguid, program: '繁花,三体', linked_siteid, publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner' })
    expect(s).not.toHaveProperty('guid')
  })

  it.each(PLACEMENT_TYPES)('accepts placement_type %s', async (v) => {
    const r = await createSpot(t, cid, { placement_type: v })
    expect((await showSpot(t, cid, r.body.spot_id)).body.placement_type).toBe(v)
  })

  it.each<[string, string]>([...REPORT_METRICS.map((v): [string, string] => [v, v]), ['impression click', 'impression+click']])('accepts report_metrics %s', async (v, stored) => {
    const r = await createSpot(t, cid, { report_metrics: v })
    expect((await showSpot(t, cid, r.body.spot_id)).body.report_metrics).toBe(stored)
  })

  it.each(Object.entries(PROGRAM_PURCHASING))('accepts program_purchasing_type %s', async (v, stored) => {
    const r = await createSpot(t, cid, { program_purchasing_type: v })
    expect((await showSpot(t, cid, r.body.spot_id)).body.program_purchasing_type).toBe(stored)
  })

  it.each(['S0+', 'S3+D', 'M5-W'])('accepts freq_capping %s', async (v) => {
    const r = await createSpot(t, cid, { freq_capping: v })
    expect((await showSpot(t, cid, r.body.spot_id)).body.freq_capping).toBe(v)
  })

  // an unencoded '+' in a form arrives as a space: S3+D as 'S3 D', S0+ as 'S0 '
  it.each([['S3 D', 'S3+D'], ['S0 ', 'S0+']])('reads freq_capping %j as %s', async (sent, stored) => {
    const r = await createSpot(t, cid, { freq_capping: sent })
    expect((await showSpot(t, cid, r.body.spot_id)).body.freq_capping).toBe(stored)
  })

  it.each([
    ['placement_type', 'Video'], ['placement_type', 'qr-code'], ['report_metrics', 'imp'], ['program_purchasing_type', 'all'],
    ['dangerous_source_filtration', '2'], ['freq_capping', 's0+'], ['vending_model', 'Spot-Buy'], ['linked_siteid', 'abc'],
    ['budgetInput', '-1'], ['landing_page', 'ftp://x.example'], ['referrer_url', 'not a url'], ['other_impr_tracking_tag', 'www.x.com'],
    ['keyword', 'a^not a url'], ['keyword', 'a^>a^'], ['program', 'NoSuchProgram'], ['program', '繁花,,三体'], ['adposition_type', 'NoSuchType'],
    ['publisher_name', ''], ['channel_name', ' '],
  ])('refuses %s=%s with 400 naming the parameter', async (name, value) => {
    refused(await createSpot(t, cid, { [name]: value }), name)
  })

  it.each(['publisher_name', 'channel_name', 'campaign_id'])('refuses a request without %s', async (name) => {
    const form = spotForm(cid)
    delete form[name]
    refused(await t.post(path('campaigns.create_spot'), form), name)
  })

  it('answers invalid_placement_name when placement_name is empty or missing', async () => {
    const r = await createSpot(t, cid, { placement_name: '' })
    refused(r, 'placement_name', 'invalid_placement_name')
    expect(r.body.error_description).toBe("The 'placement_name' should not be empty.")
    const form = spotForm(cid)
    delete form.placement_name
    refused(await t.post(path('campaigns.create_spot'), form), 'placement_name', 'invalid_placement_name')
  })

  it('answers invalid_campaign_id when the campaign does not exist', async () => {
    const r = await createSpot(t, '999999')
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ error: 'invalid_campaign_id', error_description: "The 'campaign_id' 999999 cannot be found." })
  })

  it('writes nothing, not even the new publisher, when a check fails', async () => {
    const c = await newCampaign(t)
    const before = await createSpot(t, c, { publisher_name: 'Registered Before' })
    refused(await createSpot(t, c, { publisher_name: 'Never Registered', program: 'NoSuchProgram' }), 'program')
    expect((await t.get(path('campaigns.list_spots'), { campaign_id: c })).body).toHaveLength(1)
    const after = await createSpot(t, c, { publisher_name: 'Registered After' })
    expect(Number(after.body.publisher_id)).toBe(Number(before.body.publisher_id) + 1)
  })
})

describe('campaigns.create_spot_with_plan', () => {
  let t: TestEngine
  let cid: string
  const withPlan = (extra: Form = {}, c = cid) => t.post(path('campaigns.create_spot_with_plan'), spotForm(c, extra))
  beforeAll(async () => {
    t = await makeEngine()
    cid = await newCampaign(t, '2025-01-10', '2025-01-31')
  })

  it('spreads the totals evenly, the first days taking the remainder', async () => {
    const r = await withPlan({ slot_begin: '2025-01-10', slot_duration: 3, est_impression: 100, est_click: 10 })
    expect(r.status).toBe(200)
    expect(validate(m.SpotResult, r.body)).toEqual([])
    expect(await planOf(t, cid, r.body.spot_id)).toEqual([
      { date: '2025-01-10', est_impression: 34, est_click: 4 },
      { date: '2025-01-11', est_impression: 33, est_click: 3 },
      { date: '2025-01-12', est_impression: 33, est_click: 3 },
    ])
  })

  it('gives 0 to the last days when the total is smaller than the days, and 0 for a missing estimate', async () => {
    const r = await withPlan({ slot_begin: '2025-01-20', slot_duration: 4, est_impression: 2 })
    const plan = await planOf(t, cid, r.body.spot_id)
    expect(plan.map((d: m.PlanDay) => d.est_impression)).toEqual([1, 1, 0, 0])
    expect(plan.map((d: m.PlanDay) => d.est_click)).toEqual([0, 0, 0, 0])
    expect(plan.map((d: m.PlanDay) => d.date)).toEqual(['2025-01-20', '2025-01-21', '2025-01-22', '2025-01-23'])
  })

  it('accepts a plan that fills the campaign exactly and crosses a month end', async () => {
    const c = await newCampaign(t, '2025-01-30', '2025-02-02')
    const r = await withPlan({ slot_begin: '2025-01-30', slot_duration: 4, est_impression: 4000, est_click: 40 }, c)
    const plan = await planOf(t, c, r.body.spot_id)
    expect(plan.map((d: m.PlanDay) => [d.date, d.est_impression, d.est_click])).toEqual([
      ['2025-01-30', 1000, 10], ['2025-01-31', 1000, 10], ['2025-02-01', 1000, 10], ['2025-02-02', 1000, 10],
    ])
  })

  it('creates no plan days when no plan is sent', async () => {
    const r = await withPlan()
    expect(await planOf(t, cid, r.body.spot_id)).toEqual([])
  })

  it.each([
    [{ slot_begin: '2025-01-10' }, 'slot_duration'],
    [{ slot_duration: 3 }, 'slot_begin'],
    [{ est_impression: 100 }, 'est_impression'],
    [{ est_click: 10 }, 'est_click'],
    [{ slot_begin: '2025-01-10', slot_duration: 0 }, 'slot_duration'],
    [{ slot_begin: '2025-02-30', slot_duration: 1 }, 'slot_begin'],
    [{ slot_begin: '2025-01-10', slot_duration: 2, est_impression: -1 }, 'est_impression'],
  ])('refuses %o with 400 naming %s', async (extra, name) => {
    refused(await withPlan(extra), name)
  })

  it('refuses a plan starting before the campaign, naming slot_begin and the campaign dates', async () => {
    const r = await withPlan({ slot_begin: '2025-01-09', slot_duration: 2 })
    refused(r, 'slot_begin')
    expect(r.body.error_description).toContain('2025-01-10..2025-01-31')
  })

  it('refuses a plan running past the campaign end, naming slot_duration and the campaign dates', async () => {
    const r = await withPlan({ slot_begin: '2025-01-30', slot_duration: 3 })
    refused(r, 'slot_duration')
    expect(r.body.error_description).toContain('2025-01-10..2025-01-31')
  })

  it('refuses keywords unless channel_name is Bidding or Bidding word', async () => {
    const r = await withPlan({ keyword: '牛奶^' })
    refused(r, 'channel_name')
    expect(r.body.error_description).toContain('Bidding word')
  })

  it.each(['Bidding', 'Bidding word'])('creates a keyword spot with channel_name %s', async (channel) => {
    const r = await withPlan({ channel_name: channel, keyword: '牛奶^https://www.baidu.com', slot_begin: '2025-01-10', slot_duration: 1 })
    expect(r.status).toBe(200)
    expect(r.body.keyword).toEqual([{ keyword_id: expect.any(Number), landing_page: 'https://www.baidu.com', keyword_name: '牛奶' }])
    expect((await showSpot(t, cid, r.body.spot_id)).body.dangerous_source_filtration).toBe(0)
  })

  it('ignores freq_capping, which create_spot_with_plan does not take', async () => {
    const r = await withPlan({ freq_capping: 'M5-W' })
    expect(r.headers['x-admonitor-ignored-parameters']).toContain('freq_capping')
    expect((await showSpot(t, cid, r.body.spot_id)).body.freq_capping).toBe('S0+')
  })

  it('answers invalid_placement_name and invalid_campaign_id like create_spot', async () => {
    refused(await withPlan({ placement_name: '' }), 'placement_name', 'invalid_placement_name')
    refused(await withPlan({}, '424242'), 'campaign_id', 'invalid_campaign_id')
  })
})

describe('campaigns.delete_spot', () => {
  let t: TestEngine
  let cid: string
  const remove = (sid: string, c = cid) => t.post(path('campaigns.delete_spot'), { campaign_id: c, spot_id: sid })
  beforeAll(async () => {
    t = await makeEngine()
    cid = await newCampaign(t)
  })

  it('deletes the spot with its keywords and plan and answers campaign_id, spot_id, spot_id_str', async () => {
    const s = (await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { channel_name: 'Bidding', keyword: 'k^', slot_begin: '2025-01-10', slot_duration: 2 }))).body
    const r = await remove(s.spot_id)
    expect(r.status).toBe(200)
    expect(validate(m.DeleteSpotResult, r.body)).toEqual([])
    expect(r.body).toEqual({ campaign_id: cid, spot_id: s.spot_id, spot_id_str: s.spot_id_str })
    refused(await showSpot(t, cid, s.spot_id), 'spot_id_str', 'invalid_spot_id')
    expect((await t.get(path('campaigns.list_spots'), { campaign_id: cid, spot_id: s.spot_id })).body).toEqual([])
  })

  it('never hands out a deleted spot id again', async () => {
    const s = (await createSpot(t, cid)).body
    await remove(s.spot_id)
    expect(Number((await createSpot(t, cid)).body.spot_id)).toBe(Number(s.spot_id) + 1)
  })

  it('answers invalid_spot_id for an unknown spot, a deleted one and one of another campaign', async () => {
    const s = (await createSpot(t, cid)).body
    expect((await remove('777777')).body).toEqual({ error: 'invalid_spot_id', error_description: "The 'spot_id' 777777 cannot be found." })
    refused(await remove(s.spot_id, await newCampaign(t)), 'spot_id', 'invalid_spot_id')
    await remove(s.spot_id)
    refused(await remove(s.spot_id), 'spot_id', 'invalid_spot_id')
  })

  it('answers invalid_campaign_id for an unknown campaign', async () => {
    const s = (await createSpot(t, cid)).body
    expect((await remove(s.spot_id, '666666')).body).toEqual({ error: 'invalid_campaign_id', error_description: "The 'campaign_id' 666666 cannot be found." })
  })

  it('refuses a missing or malformed spot_id', async () => {
    refused(await t.post(path('campaigns.delete_spot'), { campaign_id: cid }), 'spot_id')
    refused(await remove('abc'), 'spot_id')
  })
})
