// renderer/src/campaigns/server-errors.ts and stores/reference/shared.ts: server errors on fields; picker helpers
import { describe, expect, it } from 'vitest'
import { E, refuse } from '../../../engine/contract/errors'
import { messageOf } from '../../../renderer/src/api/problems'
import { clearedWith, fieldOfServerError, fieldsOfServerError } from '../../../renderer/src/campaigns/server-errors'
import { keyed } from '../app-client'
import { cacheKey, idByName, namedOptions, panelPlatform, toOptions } from '../../../renderer/src/stores/reference/shared'

describe('fieldsOfServerError', () => {
  it("puts a date error that names both dates on both, and a one-date error on its date", () => {
    const both = keyed('campaign.plansOutsideBoth', { param: 'start_date', start: '2026-12-05', end: '2027-01-15', details: "spot 1 'a' has 4 days before 2026-12-05 (from 2026-12-01)" })
    expect(fieldsOfServerError('invalid_request', both)).toEqual(['end_date', 'start_date'])
    const late = keyed('campaign.plansOutside', { param: 'end_date', start: '2026-12-01', end: '2027-01-15', details: "spot 1 'a' has 16 days after 2027-01-15 (to 2027-01-31)" })
    expect(fieldsOfServerError('invalid_request', late)).toEqual(['end_date'])
    expect(fieldsOfServerError('invalid_campaign_name', 'already used')).toEqual(['campaign_name'])
    expect(fieldsOfServerError('server_error', 'boom')).toEqual([])
  })
  it('clears the error of both dates when either changes, and only its own otherwise', () => {
    expect([...clearedWith('end_date')].sort()).toEqual(['end_date', 'start_date'])
    expect([...clearedWith('start_date')].sort()).toEqual(['end_date', 'start_date'])
    expect(clearedWith('campaign_name')).toEqual(['campaign_name'])
  })
})

describe('fieldOfServerError', () => {
  it('puts invalid_campaign_name on the name whatever the text', () => {
    expect(fieldOfServerError('invalid_campaign_name', 'already used')).toBe('campaign_name')
  })
  it("reads the parameter of the refusal's problem", () => {
    expect(fieldOfServerError('invalid_request', keyed('plan.beforeOther', { param: 'end_date', date: '2025-01-01', otherParam: 'start_date', otherDate: '2025-01-02' }))).toBe('end_date')
    expect(fieldOfServerError('invalid_request', keyed('ref.brandOwner', { param: 'brand_id', value: '5', owner: '2', chosen: '3' }))).toBe('brand_id')
    expect(fieldOfServerError('invalid_request', keyed('campaign.wares', { param: 'wares', got: 'x' }))).toBe('wares')
    expect(fieldOfServerError('invalid_request', keyed('param.tooLong', { param: 'schedulingCode', max: 100 }))).toBe('schedulingCode')
    // (a sentence of no known problem is not read)
    expect(fieldOfServerError('invalid_request', "The 'wares' is wrong.")).toBeNull()
  })
  it('gives null (an alert) for parameters the form does not show and for other errors', () => {
    expect(fieldOfServerError('invalid_campaign_id', messageOf(refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: '9' })))).toBeNull()
    expect(fieldOfServerError('server_error', 'boom')).toBeNull()
  })
})

describe('reference helpers', () => {
  const advertisers = [{ advertiser_id: '1', advertiser_name: 'P&G' }, { advertiser_id: '2', advertiser_name: 'Yum' }, { advertiser_id: '3', advertiser_name: 'Yum' }]
  it('idByName finds the exact name first, then ignores case and outer spaces, else null', () => {
    const id = (n: string) => idByName(advertisers, n, (a) => a.advertiser_name, (a) => a.advertiser_id)
    expect(id('Yum')).toBe('2')
    expect(id(' p&g ')).toBe('1')
    expect(id('KFC')).toBeNull()
    expect(id('')).toBeNull()
  })
  it('builds options', () => {
    expect(toOptions(advertisers.slice(0, 1), (a) => a.advertiser_id, (a) => a.advertiser_name)).toEqual([{ value: '1', label: 'P&G' }])
    expect(namedOptions([{ name: 'a-b' }])).toEqual([{ value: 'a-b', label: 'a-b' }])
  })
  it('keys language-bound lists by lang and the others once', () => {
    expect(cacheKey('panels', 'cn', 'pc')).not.toBe(cacheKey('panels', 'en', 'pc'))
    expect(cacheKey('advertisers', null)).toBe('advertisers|*|')
  })
  it('panelPlatform: pc campaigns use pc panels, pm ones the panel type', () => {
    expect(panelPlatform('pc', 'pmo')).toBe('pc')
    expect(panelPlatform('pm', 'pm')).toBe('pm')
    expect(panelPlatform('pm', 'pmo')).toBe('pmo')
  })
})
