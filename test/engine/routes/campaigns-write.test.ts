// spec §4.3 campaigns/create, update, delete; §7.2; vendor-notes §3.7, §3.12
import { beforeAll, describe, expect, it } from 'vitest'
import { Campaign } from '../../../engine/contract/models'
import { validate } from '../../../engine/contract/schema'
import { DATES, makeEngine, type TestEngine } from '../../helpers/make-engine'

let t: TestEngine
let n = 0
const base = () => ({ campaign_name: `Campaign ${++n}`, start_date: DATES.tomorrow, end_date: DATES.nextMonth })
const create = (extra: Record<string, string | number> = {}) => t.post('/cms/v1/campaigns/create', { ...base(), ...extra })
const show = async (id: string) => (await t.get('/cms/v1/campaigns/show', { campaign_id: id, pmo_info: 1, dm_info: 1 })).body
const expect400 = (r: { status: number; body: { error: string; error_description: string } }, error: string, names?: string) => {
  expect(r.status).toBe(400)
  expect(r.body.error).toBe(error)
  if (names) expect(r.body.error_description).toContain(`'${names}'`)
}

beforeAll(async () => {
  t = await makeEngine()
})

describe('campaigns.create', () => {
  it('returns the new campaign_id as a string and stores the defaults', async () => {
    const r = await create()
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ campaign_id: expect.stringMatching(/^\d+$/) })
    const c = await show(r.body.campaign_id)
    expect(validate(Campaign, c)).toEqual([])
    expect(c).toMatchObject({
      campaign_type: 'admonitor', slot_type: 'display', calculation_type: '1.0', linked_panels: ['china-pc-2026'],
      panel_type: 0, linked_tvcaids: [], ear: '无', play_detect: 'false', frequency_limit: 10, freq_capping: '',
      creator_name: 'tester', linked_iplib: expect.stringContaining('ip2region'), total_net: '是',
    })
  })

  it('stores every optional parameter', async () => {
    const r = await create({
      platform: 'pm', calculation_type: '3.1', orderid: 'C240807020', schedulingCode: 'C240807020P0004', frequency_limit: 20,
      advertiser_id: 1, brand_id: 1, agency_id: 2, ear: 'EAR阿里妈妈', linked_siteids: '123;456', ad_campaign_type: 'ivideo+imedia',
      slot_type: 'display+search', freq_capping: 50, description: 'This is a test campaign.', panel_type: 'pmo',
      linked_tvcaids: '[123,345]', extensiontype: '品牌形象活动-品牌形象', play_detect: 1,
    })
    expect(r.status).toBe(200)
    const c = await show(r.body.campaign_id)
    expect(c).toMatchObject({
      calculation_type: '3.1', order_id: 'C240807020', scheduling_code: 'C240807020P0004', frequency_limit: 20,
      advertiser_name: expect.stringContaining('Procter'), brand_name: expect.any(String), agency_name: expect.any(String),
      ear: 'EAR阿里妈妈', linked_siteids: '123;456', slot_type: 'display+search', freq_capping: '50',
      description: 'This is a test campaign.', panel_type: 1, linked_tvcaids: [123, 345], extensiontype: '品牌形象活动-品牌形象',
      play_detect: 'true', linked_panels: ['china-pmo-2026'],
    })
  })

  it('picks the latest panel of the platform unless panel_id names one', async () => {
    expect((await show((await create({ platform: 'pm' })).body.campaign_id)).linked_panels).toEqual(['china-pm-2026'])
    expect((await show((await create({ panel_id: 'china-pc-2025' })).body.campaign_id)).linked_panels).toEqual(['china-pc-2025'])
    expect400(await create({ panel_id: 'mars-1' }), 'invalid_request', 'panel_id')
  })

  it('names advertiser and brand from wares when no ids are given', async () => {
    const c = await show((await create({ wares: 'Yum|KFC|Zinger burger' })).body.campaign_id)
    expect(c).toMatchObject({ advertiser_name: 'Yum', brand_name: 'KFC' })
    expect400(await create({ wares: 'Yum|KFC' }), 'invalid_request', 'wares')
  })

  it('answers invalid_campaign_name for an empty, blank or duplicate name', async () => {
    expect400(await t.post('/cms/v1/campaigns/create', { start_date: DATES.tomorrow, end_date: DATES.nextMonth }), 'invalid_campaign_name', 'campaign_name')
    expect400(await create({ campaign_name: '' }), 'invalid_campaign_name', 'campaign_name')
    expect400(await create({ campaign_name: '   ' }), 'invalid_campaign_name', 'campaign_name')
    await create({ campaign_name: 'Unique once' })
    const dup = await create({ campaign_name: 'Unique once' })
    expect400(dup, 'invalid_campaign_name', 'campaign_name')
    expect(dup.body.error_description).toContain('already used')
  })

  it('refuses a start date before today and an end date before the start', async () => {
    expect400(await create({ start_date: DATES.yesterday }), 'invalid_request', 'start_date')
    expect400(await create({ start_date: DATES.nextWeek, end_date: DATES.tomorrow }), 'invalid_request', 'end_date')
    expect((await create({ start_date: DATES.today, end_date: DATES.today })).status).toBe(200)
  })

  it('checks brand against its advertiser, and that references exist', async () => {
    expect400(await create({ brand_id: 1 }), 'invalid_request', 'brand_id')
    const other = (await t.get('/cms/v1/brands/list', { advertiser_id: 2 })).body[0].brand_id
    expect400(await create({ advertiser_id: 1, brand_id: other }), 'invalid_request', 'brand_id')
    expect400(await create({ advertiser_id: 9999 }), 'invalid_request', 'advertiser_id')
    expect400(await create({ agency_id: 9999 }), 'invalid_request', 'agency_id')
    expect400(await create({ extensiontype: '不存在-类型' }), 'invalid_request', 'extensiontype')
  })

  it.each([
    ['platform', 'pmo'], ['calculation_type', '2.0'], ['frequency_limit', '0'], ['frequency_limit', '81'], ['freq_capping', '0'],
    ['freq_capping', '51'], ['ear', 'yes'], ['ad_campaign_type', 'tv'], ['slot_type', 'dispaly'], ['panel_type', 'pc'],
    ['play_detect', '2'], ['campaign_type', 'tvmonitor'], ['linked_tvcaids', '[1,x]'], ['linked_siteids', '12,34'],
    ['start_date', '2025-02-30'], ['advertiser_id', 'x'],
  ])('refuses %s=%s with invalid_request naming it', async (name, value) => {
    expect400(await create({ [name]: value }), 'invalid_request', name)
  })

  it('accepts every enumerated value', async () => {
    for (const v of ['1.0', '3.0', '3.1']) expect((await create({ calculation_type: v })).status).toBe(200)
    for (const v of ['imedia', 'ivideo', 'ivideo+imedia', 'other', 'cross']) expect((await create({ ad_campaign_type: v })).status).toBe(200)
    for (const v of ['display', 'search', 'display+search']) expect((await create({ slot_type: v })).status).toBe(200)
    for (const v of ['1', '80']) expect((await create({ frequency_limit: v })).status).toBe(200)
  })

  it('changes nothing when refused', async () => {
    const before = t.engine
    const list = async () => (await t.get('/cms/v1/campaigns/list', { limit: '0,100000' })).body.length
    const count = await list()
    await create({ frequency_limit: 99 })
    expect(await list()).toBe(count)
    expect(t.engine).toBe(before)
  })
})

describe('campaigns.update', () => {
  it('updates each optional field and answers {campaign_id}', async () => {
    const id = (await create()).body.campaign_id
    const r = await t.post('/cms/v1/campaigns/update', {
      campaign_id: id, campaign_name: `Renamed ${id}`, start_date: DATES.nextWeek, end_date: DATES.nextMonth, advertiser_id: 1, brand_id: 1,
      agency_id: 1, wares: 'A|B|C', linked_siteids: '7;8', slot_type: 'search', description: 'new', linked_tvcaids: '9,10',
      extensiontype: '品牌形象活动-品牌形象', play_detect: 1, campaign_type: 'admonitor',
    })
    expect(r.body).toEqual({ campaign_id: id })
    expect(await show(id)).toMatchObject({
      campaign_name: `Renamed ${id}`, start_date: DATES.nextWeek, slot_type: 'search', description: 'new', linked_tvcaids: [9, 10],
      linked_siteids: '7;8', play_detect: 'true', extensiontype: '品牌形象活动-品牌形象',
    })
  })

  it('appends a number to a duplicate name instead of refusing it', async () => {
    await create({ campaign_name: 'Taken' })
    await create({ campaign_name: 'Taken_2' })
    const id = (await create()).body.campaign_id
    await t.post('/cms/v1/campaigns/update', { campaign_id: id, campaign_name: 'Taken' })
    expect((await show(id)).campaign_name).toBe('Taken_3')
    await t.post('/cms/v1/campaigns/update', { campaign_id: id, campaign_name: 'Taken_3' })
    expect((await show(id)).campaign_name).toBe('Taken_3')
  })

  it('keeps a name with a number appended within 255 characters', async () => {
    const long = '长'.repeat(255)
    await create({ campaign_name: long })
    const id = (await create()).body.campaign_id
    expect((await t.post('/cms/v1/campaigns/update', { campaign_id: id, campaign_name: long })).status).toBe(200)
    const name = (await show(id)).campaign_name as string
    expect([...name].length).toBe(255)
    expect(name).toBe(`${'长'.repeat(253)}_2`)
  })

  it('refuses new dates that would leave plan days outside the campaign, naming the date and the spot', async () => {
    const id = (await create()).body.campaign_id
    const spot = (await t.post('/cms/v1/campaigns/create_spot_with_plan', { campaign_id: id, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top', slot_begin: DATES.nextWeek, slot_duration: 5, est_impression: 500 })).body
    expect(spot.spot_id).toBeDefined()
    const late = await t.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: DATES.tomorrow, end_date: '2025-01-19' })
    expect400(late, 'invalid_request', 'end_date')
    expect(late.body.error_description).toBe(`The 'end_date' would leave plan days outside the campaign's dates 2025-01-11..2025-01-19: spot ${spot.spot_id} 'top' has 2 days after 2025-01-19 (to 2025-01-21); remove those days from the spots' plans first (update_spot with delete_slot).`)
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: '2025-01-18', end_date: DATES.nextMonth }), 'invalid_request', 'start_date')
    // days on both sides: both dates named, and each side's days counted (they were one count "between" the first and last day)
    const both = await t.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: '2025-01-18', end_date: '2025-01-19' })
    expect(both.body.error_description).toBe(`The 'start_date' and the 'end_date' would leave plan days outside the campaign's dates 2025-01-18..2025-01-19: spot ${spot.spot_id} 'top' has 1 day before 2025-01-18 (from 2025-01-17) and 2 days after 2025-01-19 (to 2025-01-21); remove those days from the spots' plans first (update_spot with delete_slot).`)
    expect((await show(id)).end_date).toBe(DATES.nextMonth)
    // inside the plan's days, or once the days are removed, the dates change
    expect((await t.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: DATES.tomorrow, end_date: '2025-01-21' })).status).toBe(200)
    expect((await t.post('/cms/v1/campaigns/update_spot', { campaign_id: id, spot_id: spot.spot_id, delete_slot: '2025-01-20,2025-01-21' })).status).toBe(200)
    expect((await t.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: DATES.tomorrow, end_date: '2025-01-19' })).status).toBe(200)
  })

  it('needs start_date and end_date together', async () => {
    const id = (await create()).body.campaign_id
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: DATES.nextWeek }), 'invalid_request', 'start_date')
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: id, end_date: DATES.nextWeek }), 'invalid_request', 'end_date')
  })

  it('lets a running campaign keep its past start date but refuses a new start in the past', async () => {
    const e = await makeEngine()
    const id = (await e.post('/cms/v1/campaigns/create', { campaign_name: 'Running', start_date: DATES.today, end_date: DATES.nextWeek })).body.campaign_id
    e.clock.advance(3 * 86_400_000)
    e.token = await e.login()
    expect((await e.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: DATES.today, end_date: DATES.nextMonth })).status).toBe(200)
    expect400(await e.post('/cms/v1/campaigns/update', { campaign_id: id, start_date: DATES.tomorrow, end_date: DATES.nextMonth }), 'invalid_request', 'start_date')
  })

  it('answers invalid_campaign_id for an unknown campaign and invalid_campaign_name for an empty name', async () => {
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: 987654 }), 'invalid_campaign_id', 'campaign_id')
    const id = (await create()).body.campaign_id
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: id, campaign_name: ' ' }), 'invalid_campaign_name', 'campaign_name')
  })

  it('requires advertiser_id with brand_id, and refuses an advertiser change that orphans the brand', async () => {
    const id = (await create({ advertiser_id: 1, brand_id: 1 })).body.campaign_id
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: id, brand_id: 2 }), 'invalid_request', 'brand_id')
    expect400(await t.post('/cms/v1/campaigns/update', { campaign_id: id, advertiser_id: 2 }), 'invalid_request', 'advertiser_id')
  })

  it('does not take create-only fields such as ear or panel_type (they are immutable)', async () => {
    const id = (await create()).body.campaign_id
    const r = await t.post('/cms/v1/campaigns/update', { campaign_id: id, ear: 'EAR阿里妈妈', panel_type: 'pmo' })
    expect(r.status).toBe(200)
    expect(r.headers['x-admonitor-ignored-parameters']).toBe('ear,panel_type')
    expect(await show(id)).toMatchObject({ ear: '无', panel_type: 0 })
  })
})

describe('campaigns.delete', () => {
  it('deletes the campaign with its spots and targets, and answers {campaign_id}', async () => {
    const id = (await create()).body.campaign_id
    const spot = await t.post('/cms/v1/campaigns/create_spot', { campaign_id: id, publisher_name: 'Google', channel_name: 'news', placement_name: 'top' })
    expect(spot.status).toBe(200)
    await t.post('/cms/v1/campaigns/publish_target', { campaign_id: id, target_name: 'F', tag_id: 'female' })
    expect((await t.post('/cms/v1/campaigns/delete', { campaign_id: id })).body).toEqual({ campaign_id: id })
    expect((await t.get('/cms/v1/campaigns/show', { campaign_id: id })).body.error).toBe('invalid_campaign_id')
    expect((await t.get('/cms/v1/campaigns/list_spots', { campaign_id: id })).body.error).toBe('invalid_campaign_id')
  })

  it('answers invalid_campaign_id for an unknown campaign, and never reuses a deleted id', async () => {
    expect400(await t.post('/cms/v1/campaigns/delete', { campaign_id: 424242 }), 'invalid_campaign_id', 'campaign_id')
    const a = (await create()).body.campaign_id
    await t.post('/cms/v1/campaigns/delete', { campaign_id: a })
    const b = (await create()).body.campaign_id
    expect(Number(b)).toBeGreaterThan(Number(a))
  })
})
