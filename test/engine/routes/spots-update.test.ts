// spec §4.3 update_spot; vendor-notes §3.13
import { beforeAll, describe, expect, it } from 'vitest'
import * as m from '../../../engine/contract/models'
import { validate } from '../../../engine/contract/schema'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign, path, planOf, refused, showSpot, spotForm, type Form } from './spot-helpers'

describe('campaigns.update_spot', () => {
  let t: TestEngine
  let cid: string
  const update = (sid: string, extra: Form = {}, c = cid) => t.post(path('campaigns.update_spot'), { campaign_id: c, spot_id: sid, ...extra })
  const planned = async (extra: Form = {}) =>
    (await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { slot_begin: '2025-01-10', slot_duration: 3, est_impression: 300, est_click: 30, ...extra }))).body
  beforeAll(async () => {
    t = await makeEngine()
    cid = await newCampaign(t, '2025-01-10', '2025-01-31')
  })

  it('answers campaign_id, spot_id and spot_id_str when no keyword changes', async () => {
    const s = await planned()
    const r = await update(s.spot_id, { description: 'x' })
    expect(r.status).toBe(200)
    expect(validate(m.UpdateSpotResult, r.body)).toEqual([])
    expect(r.body).toEqual({ campaign_id: cid, spot_id: s.spot_id, spot_id_str: s.spot_id_str })
  })

  it('updates every optional field and clears text fields with an empty value', async () => {
    const s = (await createSpot(t, cid, { guid: 'G', caguid: 'C', description: 'D', market: 'M', program: '繁花', landing_page: 'https://a.example/' })).body
    const custom = Object.fromEntries(m.CUSTOMER_FIELDS.map((f) => [f, `u-${f}`]))
    const form = {
      placement_name: 'new name', channel_name: 'new channel', placement_type: 'search', program_purchasing_type: 'by_program',
      report_metrics: 'impression', vending_model: '常规购买-CPM', adposition_type: '开屏', customize: 'cz', other_impr_tracking_tag: 'http://o.example/',
      shop_id: 's1', landing_page: 'https://b.example/', dangerous_source_filtration: 0, ...custom,
    }
    expect((await update(s.spot_id, { ...form, guid: '', caguid: '', description: '', market: '', program: '' })).status).toBe(200)
    const shown = (await showSpot(t, cid, s.spot_id)).body
    const { program_purchasing_type: _ppt, ...same } = form
    expect(shown).toMatchObject({ ...same, program_purchasing_type: '按剧目采买', GUID: '', CAGUID: '', description: '', market: '', program: '' })
  })

  it('moves the spot to the publisher of publisher_name, registering a new one', async () => {
    const s = (await createSpot(t, cid)).body
    await update(s.spot_id, { publisher_name: 'Moved Publisher' })
    const shown = (await showSpot(t, cid, s.spot_id)).body
    expect(shown.publisher_name).toBe('Moved Publisher')
    expect(shown.publisher_id).not.toBe(s.publisher_id)
  })

  it('gives tracking_timing 1s when a spot without one becomes a video spot', async () => {
    const s = (await createSpot(t, cid)).body
    await update(s.spot_id, { placement_type: 'video' })
    expect((await showSpot(t, cid, s.spot_id)).body.tracking_timing).toBe('1s')
  })

  it.each([
    ['placement_type', 'VIDEO'], ['program', 'NoSuchProgram'], ['adposition_type', 'NoSuchType'], ['placement_name', ''],
    ['publisher_name', ''], ['report_metrics', 'clicks'], ['landing_page', 'x'], ['add_slot', '2025-13-01'], ['est_impression', '1,a'],
  ])('refuses %s=%s with 400 naming the parameter', async (name, value) => {
    const s = (await createSpot(t, cid)).body
    refused(await update(s.spot_id, { [name]: value }), name, name === 'placement_name' ? 'invalid_placement_name' : 'invalid_request')
  })

  it('answers invalid_campaign_id for an unknown campaign and invalid_spot_id for a spot of another campaign', async () => {
    const s = (await createSpot(t, cid)).body
    expect((await update(s.spot_id, {}, '888888')).body).toEqual({ error: 'invalid_campaign_id', error_description: "The 'campaign_id' 888888 cannot be found." })
    const other = await newCampaign(t)
    const r = await update(s.spot_id, {}, other)
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ error: 'invalid_spot_id', error_description: `The 'spot_id' ${s.spot_id} cannot be found.` })
  })

  it('adds keywords and answers them in add_keyword', async () => {
    const s = (await createSpot(t, cid, { keyword: 'a^' })).body
    const r = await update(s.spot_id, { add_keyword: 'b^https://b.example/>c^' })
    expect(validate(m.UpdateSpotResult, r.body)).toEqual([])
    expect(r.body.add_keyword).toEqual([
      { keyword_id: expect.any(Number), keyword_name: 'b', landing_page: 'https://b.example/' },
      { keyword_id: expect.any(Number), keyword_name: 'c', landing_page: '' },
    ])
    expect(r.body).not.toHaveProperty('update_keyword')
    expect((await showSpot(t, cid, s.spot_id)).body.keyword.map((k: m.ShowKeyword) => k.keyword_name)).toEqual(['a', 'b', 'c'])
  })

  it('refuses add_keyword naming a keyword the spot already has', async () => {
    const s = (await createSpot(t, cid, { keyword: 'a^' })).body
    refused(await update(s.spot_id, { add_keyword: 'b^>a^' }), 'add_keyword')
    expect((await showSpot(t, cid, s.spot_id)).body.keyword).toHaveLength(1)
  })

  it('renames and relands keywords by id and answers them in update_keyword', async () => {
    const s = (await createSpot(t, cid, { keyword: 'a^https://a.example/>b^' })).body
    const [a] = s.keyword
    const r = await update(s.spot_id, { update_keyword: `${a.keyword_id}^a2^https://a2.example/` })
    expect(r.body.update_keyword).toEqual([{ keyword_id: a.keyword_id, keyword_name: 'a2', landing_page: 'https://a2.example/' }])
    expect((await showSpot(t, cid, s.spot_id)).body.keyword[0]).toEqual({ keyword_id: a.keyword_id, keyword_name: 'a2', landing_page: 'https://a2.example/' })
  })

  it('swaps two keyword names in one request', async () => {
    const s = (await createSpot(t, cid, { keyword: 'x^>y^' })).body
    const [x, y] = s.keyword
    const r = await update(s.spot_id, { update_keyword: `${x.keyword_id}^y^>${y.keyword_id}^x^` })
    expect(r.status).toBe(200)
    expect((await showSpot(t, cid, s.spot_id)).body.keyword.map((k: m.ShowKeyword) => k.keyword_name)).toEqual(['y', 'x'])
  })

  it('refuses update_keyword with an id that is not a keyword of the spot', async () => {
    const s = (await createSpot(t, cid, { keyword: 'a^' })).body
    const other = (await createSpot(t, cid, { keyword: 'z^' })).body
    refused(await update(s.spot_id, { update_keyword: `${other.keyword[0].keyword_id}^q^` }), 'update_keyword')
  })

  it('refuses a rename that collides with another keyword of the spot', async () => {
    const s = (await createSpot(t, cid, { keyword: 'a^>b^' })).body
    const r = await update(s.spot_id, { update_keyword: `${s.keyword[0].keyword_id}^b^` })
    refused(r, 'update_keyword')
    expect(r.body.error_description).toContain(String(s.keyword[1].keyword_id))
  })

  it('refuses add_slot and update_slot together', async () => {
    const s = await planned()
    refused(await update(s.spot_id, { add_slot: '2025-01-20', update_slot: '2025-01-10', est_impression: '1' }), 'update_slot')
  })

  it('adds slots with the estimates given, and zeros without', async () => {
    const s = await planned()
    await update(s.spot_id, { add_slot: '2025-01-20,2025-01-21', est_impression: '10000,10000', est_click: '100,100' })
    await update(s.spot_id, { add_slot: '2025-01-31' })
    const plan = await planOf(t, cid, s.spot_id)
    expect(plan.slice(3)).toEqual([
      { date: '2025-01-20', est_impression: 10000, est_click: 100 },
      { date: '2025-01-21', est_impression: 10000, est_click: 100 },
      { date: '2025-01-31', est_impression: 0, est_click: 0 },
    ])
  })

  it('refuses an add_slot date already in the plan or outside the campaign', async () => {
    const s = await planned()
    refused(await update(s.spot_id, { add_slot: '2025-01-11' }), 'add_slot')
    const r = await update(s.spot_id, { add_slot: '2025-02-01' })
    refused(r, 'add_slot')
    expect(r.body.error_description).toContain('2025-01-10..2025-01-31')
  })

  it('updates only the estimates given for update_slot dates', async () => {
    const s = await planned()
    await update(s.spot_id, { update_slot: '2025-01-11,2025-01-12', est_click: '7,8' })
    expect((await planOf(t, cid, s.spot_id)).slice(1)).toEqual([
      { date: '2025-01-11', est_impression: 100, est_click: 7 },
      { date: '2025-01-12', est_impression: 100, est_click: 8 },
    ])
  })

  it.each([
    [{ update_slot: '2025-01-11' }, 'update_slot'],
    [{ update_slot: '2025-01-20', est_impression: '1' }, 'update_slot'],
    [{ add_slot: '2025-01-20,2025-01-21', est_impression: '1' }, 'est_impression'],
    [{ update_slot: '2025-01-11', est_click: '1,2' }, 'est_click'],
    [{ est_impression: '1' }, 'est_impression'],
    [{ est_click: '1' }, 'est_click'],
    [{ delete_slot: '2025-01-25' }, 'delete_slot'],
    [{ delete_slot: '2025-01-11', update_slot: '2025-01-11', est_click: '1' }, 'delete_slot'],
    [{ delete_slot: '2025-01-20', add_slot: '2025-01-20' }, 'delete_slot'],
  ])('refuses %o with 400 naming %s', async (extra, name) => {
    const s = await planned()
    refused(await update(s.spot_id, extra), name)
  })

  it('deletes slots with their estimates, alongside an add_slot of other dates', async () => {
    const s = await planned()
    await update(s.spot_id, { delete_slot: '2025-01-10,2025-01-12', add_slot: '2025-01-15', est_impression: '5' })
    expect(await planOf(t, cid, s.spot_id)).toEqual([
      { date: '2025-01-11', est_impression: 100, est_click: 10 },
      { date: '2025-01-15', est_impression: 5, est_click: 0 },
    ])
  })

  it('changes nothing when one of the changes is refused', async () => {
    const s = await planned({ keyword: 'k^', channel_name: 'Bidding' })
    refused(await update(s.spot_id, { description: 'changed', add_keyword: 'new^', delete_slot: '2025-01-10', add_slot: '2025-02-05' }), 'add_slot')
    const shown = (await showSpot(t, cid, s.spot_id)).body
    expect(shown.description).toBe('')
    expect(shown.keyword).toHaveLength(1)
    expect(await planOf(t, cid, s.spot_id)).toHaveLength(3)
  })
})

