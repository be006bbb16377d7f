// renderer/src/campaigns/server-errors.ts and stores/reference/shared.ts: server errors on fields; picker helpers
import { describe, expect, it } from 'vitest'
import { paramOfDescription } from '../../../engine/contract/errors'
import { clearedWith, fieldOfServerError, fieldsOfServerError } from '../../../renderer/src/campaigns/server-errors'
import { cacheKey, idByName, namedOptions, panelPlatform, toOptions } from '../../../renderer/src/stores/reference/shared'

describe('fieldsOfServerError', () => {
  it("puts a date error that names both dates on both, and a one-date error on its date", () => {
    const both = "The 'start_date' and the 'end_date' would leave plan days outside the campaign's dates 2026-12-05..2027-01-15: spot 1 'a' has 4 days before 2026-12-05 (from 2026-12-01)"
    expect(fieldsOfServerError('invalid_request', both)).toEqual(['end_date', 'start_date'])
    expect(fieldsOfServerError('invalid_request', "The 'end_date' would leave plan days outside the campaign's dates 2026-12-01..2027-01-15: spot 1 'a' has 16 days after 2027-01-15 (to 2027-01-31)")).toEqual(['end_date'])
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
  it('reads the parameter the description names first', () => {
    expect(fieldOfServerError('invalid_request', "The 'end_date' (2025-01-01) is earlier than start_date (2025-01-02).")).toBe('end_date')
    expect(fieldOfServerError('invalid_request', "The 'brand_id' 5 belongs to advertiser 2, not to advertiser_id 3.")).toBe('brand_id')
    expect(fieldOfServerError('invalid_request', "The 'wares' must be written advertiser|brand name|product name, got 'x'.")).toBe('wares')
    expect(fieldOfServerError('invalid_request', "The 'schedulingCode' is longer than 100 characters.")).toBe('schedulingCode')
  })
  it('gives null (an alert) for parameters the form does not show and for other errors', () => {
    expect(fieldOfServerError('invalid_campaign_id', "The 'campaign_id' 9 cannot be found.")).toBeNull()
    expect(fieldOfServerError('server_error', 'boom')).toBeNull()
    expect(paramOfDescription('no quotes')).toBeNull()
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
