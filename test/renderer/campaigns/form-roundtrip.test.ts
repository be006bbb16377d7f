// The form's parameters through the renderer's ApiClient into an in-process engine (spec §4.3):
// what the form sends is accepted, what show answers fills the form back, and an update that
// clears text fields clears them.
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '../../../renderer/src/api/client'
import { createParams, emptyForm, formFromCampaign, updateParams, type CampaignForm } from '../../../renderer/src/campaigns/form-model'
import { validateCampaignForm } from '../../../renderer/src/campaigns/form-rules'
import { fieldOfServerError } from '../../../renderer/src/campaigns/server-errors'
import type { ApiError } from '../../../engine/contract/errors'
import { DATES, makeEngine, type TestEngine } from '../../helpers/make-engine'

let t: TestEngine
let api: ApiClient

beforeAll(async () => {
  t = await makeEngine()
  api = new ApiClient((r) => t.engine.handle(r))
  api.token = t.token
})

const full = (over: Partial<CampaignForm> = {}): CampaignForm => ({
  ...emptyForm(), campaign_name: 'Round trip', start_date: DATES.tomorrow, end_date: DATES.nextMonth, description: 'about it',
  linked_siteids: '11;12', linked_tvcaids: '5,6', orderid: 'O-1', schedulingCode: 'S-1', frequency_limit: 20, freq_capping: 7,
  play_detect: true, slot_type: 'display+search', ...over,
})

async function showForm(id: string): Promise<CampaignForm> {
  const c = await api.call('campaigns.show', { campaign_id: id, pmo_info: true, dm_info: true })
  return formFromCampaign(c, { advertiser_id: null, brand_id: null, agency_id: null })
}

describe('campaign form against the engine', () => {
  it('creates with every field, shows them back, and an update clears cleared text', async () => {
    const advertiser = (await api.call('advertisers.list', { limit: '0,1' }))[0]
    const brand = advertiser ? (await api.call('brands.list', { advertiser_id: advertiser.advertiser_id, limit: '0,1' }))[0] : undefined
    const ext = (await api.call('extensiontype.list', { limit: '1,1' }))[0]
    const f = full({ advertiser_id: advertiser?.advertiser_id ?? null, brand_id: brand?.brand_id ?? null, extensiontype: ext?.name ?? null })
    expect(validateCampaignForm(f, { mode: 'create', today: DATES.today })).toEqual({})
    const { campaign_id } = await api.call('campaigns.create', createParams(f))
    const back = await showForm(campaign_id)
    expect(back).toMatchObject({ campaign_name: 'Round trip', description: 'about it', linked_siteids: '11;12', linked_tvcaids: '5,6', orderid: 'O-1',
      schedulingCode: 'S-1', frequency_limit: 20, freq_capping: 7, play_detect: true, slot_type: 'display+search', extensiontype: ext?.name ?? null })

    const u = updateParams(campaign_id, { ...back, description: '', linked_siteids: '', extensiontype: null, linked_tvcaids: '', end_date: DATES.nextWeek }, back)
    await api.call('campaigns.update', u.params, { keepEmpty: u.keepEmpty })
    expect(await showForm(campaign_id)).toMatchObject({ description: '', linked_siteids: '', extensiontype: null, linked_tvcaids: '', end_date: DATES.nextWeek })
  })

  it('a refused create names a field the form shows', async () => {
    await api.call('campaigns.create', createParams(full({ campaign_name: 'Taken' })))
    const e = (await api.call('campaigns.create', createParams(full({ campaign_name: 'Taken' }))).catch((x: unknown) => x)) as ApiError
    expect(fieldOfServerError(e.body.error, e.message)).toBe('campaign_name')
    const past = (await api.call('campaigns.create', createParams(full({ campaign_name: 'Past', start_date: '2020-01-01' }))).catch((x: unknown) => x)) as ApiError
    expect(fieldOfServerError(past.body.error, past.message)).toBe('start_date')
  })
  it('an unchanged past start is kept on update; the rules agree with the engine', async () => {
    const { campaign_id } = await api.call('campaigns.create', createParams(full({ campaign_name: 'Running', start_date: DATES.today })))
    t.clock.advance(3 * 86_400_000)
    api.token = await t.login()
    const back = await showForm(campaign_id)
    const edited = { ...back, end_date: DATES.nextMonth }
    expect(validateCampaignForm(edited, { mode: 'edit', today: '2025-01-13', initial: back })).toEqual({})
    await expect(api.call('campaigns.update', updateParams(campaign_id, edited, back).params)).resolves.toEqual({ campaign_id })
  })

})
