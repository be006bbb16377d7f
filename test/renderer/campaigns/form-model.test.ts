// renderer/src/campaigns/form-model.ts: form <-> campaigns.create / update parameters (spec §4.3)
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import type { Campaign } from '../../../engine/contract/models'
import {
  createParams, emptyForm, formFromCampaign, joinWares, parseTvcaids, updateIsEmpty, updateParams, type CampaignForm,
} from '../../../renderer/src/campaigns/form-model'

const form = (over: Partial<CampaignForm> = {}): CampaignForm => ({ ...emptyForm(), campaign_name: 'Spring', start_date: '2025-01-10', end_date: '2025-01-31', ...over })

/** Decodes parameters with the engine's own codecs (throws like the engine would). */
function decode(id: 'campaigns.create' | 'campaigns.update', params: Record<string, unknown>) {
  const def = endpoints[id].params as Record<string, { decode: (raw: string | undefined, name: string) => unknown }>
  for (const k of Object.keys(params)) expect(def, `${id} takes ${k}`).toHaveProperty(k)
  return Object.fromEntries(Object.entries(def).map(([k, c]) => [k, c.decode(params[k] === undefined ? undefined : String(params[k]), k)]))
}

const shown: Campaign = {
  campaign_id: '7', campaign_type: 'admonitor', campaign_name: 'Spring', start_date: '2025-01-01', end_date: '2025-01-31',
  description: 'd', agency_name: 'GroupM', advertiser_name: 'P&G', brand_name: 'Olay', creator_name: 'tester', slot_type: 'search',
  calculation_type: '3.0', linked_panels: ['china-pm-2026'], linked_siteids: '1;2', linked_iplib: 'lib', panel_type: 1, linked_tvcaids: [5, 6],
  order_id: 'O1', scheduling_code: 'S1', extensiontype: '品牌形象活动-品牌形象', play_detect: 'true', ear: 'EAR阿里妈妈', total_net: '是',
  freq_capping: '12', frequency_limit: 20,
}

describe('createParams', () => {
  it('sends the spec defaults of an otherwise empty form', () => {
    expect(createParams(form())).toEqual({
      campaign_name: 'Spring', start_date: '2025-01-10', end_date: '2025-01-31', platform: 'pc', calculation_type: '1.0', frequency_limit: 10,
      ear: '无', slot_type: 'display', panel_type: 'pm', play_detect: false,
    })
  })
  it('sends every field given, trimmed, with wares joined and tvcaids as a JSON array', () => {
    const p = createParams(form({
      campaign_name: '  Spring  ', campaign_type: 'admonitor', platform: 'pm', calculation_type: '3.1', orderid: ' O1 ', schedulingCode: 'S1',
      frequency_limit: 20, advertiser_id: '1', brand_id: '2', agency_id: '3', panel_id: 'china-pm-2026', ear: 'EAR阿里妈妈',
      wares_advertiser: 'P&G ', wares_brand: 'Olay', wares_product: 'Cream', linked_siteids: ' 1;2 ', ad_campaign_type: 'ivideo+imedia',
      slot_type: 'display+search', freq_capping: 5, description: 'about', panel_type: 'pmo', linked_tvcaids: '5, 6', extensiontype: 'a-b', play_detect: true,
    }))
    expect(p).toMatchObject({ campaign_name: 'Spring', orderid: 'O1', wares: 'P&G|Olay|Cream', linked_siteids: '1;2', linked_tvcaids: '[5,6]', play_detect: true })
    const d = decode('campaigns.create', { ...p, play_detect: '1' })
    expect(d).toMatchObject({ platform: 'pm', ad_campaign_type: 'ivideo+imedia', slot_type: 'display+search', linked_tvcaids: [5, 6], ear: 'EAR阿里妈妈', play_detect: true })
  })
  it('leaves out empty optional fields', () => {
    const p = createParams(form({ frequency_limit: null, linked_tvcaids: ' ', extensiontype: null }))
    expect(p).not.toHaveProperty('frequency_limit')
    expect(p).not.toHaveProperty('linked_tvcaids')
    expect(p).not.toHaveProperty('extensiontype')
  })
})

describe('formFromCampaign', () => {
  it('fills the form from show (pmo_info=1, dm_info=1) and the resolved ids', () => {
    const f = formFromCampaign(shown, { advertiser_id: '1', brand_id: '2', agency_id: null })
    expect(f).toMatchObject({
      campaign_name: 'Spring', start_date: '2025-01-01', slot_type: 'search', calculation_type: '3.0', panel_id: 'china-pm-2026', panel_type: 'pmo',
      linked_tvcaids: '5,6', orderid: 'O1', schedulingCode: 'S1', extensiontype: '品牌形象活动-品牌形象', play_detect: true, ear: 'EAR阿里妈妈',
      freq_capping: 12, frequency_limit: 20, advertiser_id: '1', brand_id: '2', agency_id: null, wares_advertiser: '', campaign_type: 'admonitor',
    })
  })
  it('copes with a campaign shown without the optional members', () => {
    const { panel_type: _a, linked_tvcaids: _b, freq_capping: _c, frequency_limit: _d, extensiontype: _e, play_detect: _f, ear: _g, ...bare } = shown
    expect(formFromCampaign({ ...bare, linked_panels: [] }, { advertiser_id: null, brand_id: null, agency_id: null })).toMatchObject({
      panel_type: 'pm', linked_tvcaids: '', freq_capping: null, frequency_limit: null, extensiontype: null, play_detect: false, ear: '无', panel_id: null,
    })
  })
})

describe('updateParams', () => {
  const initial = formFromCampaign(shown, { advertiser_id: '1', brand_id: '2', agency_id: '3' })

  it('sends nothing but the id when nothing changed', () => {
    const u = updateParams('7', { ...initial }, initial)
    expect(u).toEqual({ params: { campaign_id: '7' }, keepEmpty: [] })
    expect(updateIsEmpty(u)).toBe(true)
  })
  it('sends a changed name trimmed, and not a name that only gained spaces', () => {
    expect(updateParams('7', { ...initial, campaign_name: ' Spring ' }, initial).params).toEqual({ campaign_id: '7' })
    expect(updateParams('7', { ...initial, campaign_name: ' Summer ' }, initial).params).toEqual({ campaign_id: '7', campaign_name: 'Summer' })
  })
  it('sends both dates when either changed', () => {
    expect(updateParams('7', { ...initial, end_date: '2025-02-28' }, initial).params).toEqual({ campaign_id: '7', start_date: '2025-01-01', end_date: '2025-02-28' })
  })
  it('sends the advertiser with a changed brand, and the brand with a changed advertiser', () => {
    expect(updateParams('7', { ...initial, brand_id: '9' }, initial).params).toEqual({ campaign_id: '7', advertiser_id: '1', brand_id: '9' })
    expect(updateParams('7', { ...initial, advertiser_id: '4', brand_id: '8' }, initial).params).toEqual({ campaign_id: '7', advertiser_id: '4', brand_id: '8' })
  })
  it('sends cleared text fields as empty on purpose, and tvcaids cleared as []', () => {
    const u = updateParams('7', { ...initial, description: '', linked_siteids: ' ', extensiontype: null, linked_tvcaids: '' }, initial)
    expect(u.params).toEqual({ campaign_id: '7', description: '', linked_siteids: '', extensiontype: '', linked_tvcaids: '[]' })
    expect(u.keepEmpty.sort()).toEqual(['description', 'extensiontype', 'linked_siteids'])
  })
  it('sends wares only when given (show does not answer the stored wares)', () => {
    const u = updateParams('7', { ...initial, wares_advertiser: 'A', wares_brand: 'B', wares_product: 'C' }, initial)
    expect(u.params).toEqual({ campaign_id: '7', wares: 'A|B|C' })
  })
  it('sends slot type, play detection, agency and tvcaids when changed, and never a create-only field', () => {
    const changed = { ...initial, slot_type: 'display' as const, play_detect: false, agency_id: '5', linked_tvcaids: '[6,5]', frequency_limit: 3, ear: '无' as const, platform: 'pm' as const }
    const u = updateParams('7', changed, initial)
    expect(u.params).toEqual({ campaign_id: '7', slot_type: 'display', play_detect: false, agency_id: '5', linked_tvcaids: '[6,5]' })
    expect(decode('campaigns.update', { ...u.params, play_detect: '0' })).toMatchObject({ campaign_id: '7', linked_tvcaids: [6, 5], play_detect: false })
  })
})

describe('wares and tvcaids helpers', () => {
  it('joinWares joins three parts, and answers empty when every part is', () => {
    const parts = { wares_advertiser: 'P&G', wares_brand: 'Olay', wares_product: 'Cream' }
    expect(joinWares(parts)).toBe('P&G|Olay|Cream')
    expect(joinWares({ wares_advertiser: ' ', wares_brand: '', wares_product: '' })).toBe('')
  })
  it('parseTvcaids reads commas, spaces and brackets', () => {
    expect(parseTvcaids('[123, 456]')).toEqual([123, 456])
    expect(parseTvcaids('1 2;3')).toEqual([1, 2, 3])
    expect(parseTvcaids('')).toEqual([])
    expect(parseTvcaids('1,a')).toBeNull()
  })
})
