// renderer/src/campaigns/form-rules.ts: the spec's rules of campaigns.create / update (spec §4.3, §8)
import { describe, expect, it } from 'vitest'
import { emptyForm, type CampaignForm } from '../../../renderer/src/campaigns/form-model'
import {
  dateRules, enumRule, intRule, isValid, nameRule, partyRules, siteIdsRule, textRule, touchedBy, tvcaidsRule, validateCampaignForm, waresRule,
  type RuleContext,
} from '../../../renderer/src/campaigns/form-rules'

const TODAY = '2025-01-10'
const create: RuleContext = { mode: 'create', today: TODAY }
const valid = (over: Partial<CampaignForm> = {}): CampaignForm => ({ ...emptyForm(), campaign_name: 'Spring', start_date: TODAY, end_date: TODAY, ...over })
const edit = (initial: CampaignForm): RuleContext => ({ mode: 'edit', today: TODAY, initial })

describe('validateCampaignForm', () => {
  it('accepts a new campaign with a name and dates from today', () => {
    expect(validateCampaignForm(valid(), create)).toEqual({})
    expect(isValid(validateCampaignForm(valid(), create))).toBe(true)
  })
  it('marks the three required fields of an empty form', () => {
    expect(validateCampaignForm(emptyForm(), create)).toEqual({
      campaign_name: { key: 'required' }, start_date: { key: 'required' }, end_date: { key: 'required' },
    })
  })
  it('checks create-only fields on create and not on edit', () => {
    const bad = valid({ frequency_limit: 81, freq_capping: 0, orderid: 'x'.repeat(101) })
    expect(Object.keys(validateCampaignForm(bad, create)).sort()).toEqual(['freq_capping', 'frequency_limit', 'orderid'])
    expect(validateCampaignForm(bad, edit(bad))).toEqual({})
  })
  it('checks enumerations', () => {
    const bad = { ...valid(), platform: 'tv', slot_type: 'dispaly', calculation_type: '2.1', ear: 'x', panel_type: 'pc', ad_campaign_type: 'tv', campaign_type: 'y' } as unknown as CampaignForm
    expect(Object.keys(validateCampaignForm(bad, create)).sort()).toEqual(
      ['ad_campaign_type', 'calculation_type', 'campaign_type', 'ear', 'panel_type', 'platform', 'slot_type'],
    )
  })
  it('checks the free-text fields it sends', () => {
    const bad = valid({ description: 'x'.repeat(2001), extensiontype: 'y'.repeat(201), linked_siteids: '1,2', linked_tvcaids: 'a', wares_brand: 'b' })
    expect(Object.keys(validateCampaignForm(bad, create)).sort()).toEqual(['description', 'extensiontype', 'linked_siteids', 'linked_tvcaids', 'wares'])
  })
})

describe('nameRule', () => {
  it('requires a name that is not only spaces', () => {
    expect(nameRule('')).toEqual({ key: 'required' })
    expect(nameRule('   ')).toEqual({ key: 'required' })
  })
  it('allows 255 characters (counted as characters, not UTF-16 units) after trimming, not 256', () => {
    expect(nameRule('a'.repeat(255))).toBeUndefined()
    expect(nameRule(` ${'a'.repeat(255)} `)).toBeUndefined()
    expect(nameRule('😀'.repeat(255))).toBeUndefined()
    expect(nameRule('a'.repeat(256))).toEqual({ key: 'tooLong', params: { max: 255 } })
  })
  it('refuses control characters', () => {
    expect(nameRule('a\u0007b')).toEqual({ key: 'controlChars' })
  })
})

describe('textRule', () => {
  it('takes up to max characters and tabs and new lines', () => {
    expect(textRule('x'.repeat(100), 100)).toBeUndefined()
    expect(textRule('a\tb\nc\r\n', 100)).toBeUndefined()
    expect(textRule('x'.repeat(101), 100)).toEqual({ key: 'tooLong', params: { max: 100 } })
    expect(textRule('\u007f', 100)).toEqual({ key: 'controlChars' })
  })
})

describe('dateRules', () => {
  it('needs real YYYY-MM-DD dates', () => {
    expect(dateRules(valid({ start_date: '2025-02-30', end_date: '2025/03/01' }), create)).toEqual({ start_date: { key: 'date' }, end_date: { key: 'date' } })
  })
  it('on create, start may be today but not yesterday', () => {
    expect(dateRules(valid({ start_date: TODAY, end_date: '2025-12-31' }), create)).toEqual({})
    expect(dateRules(valid({ start_date: '2025-01-09', end_date: '2025-12-31' }), create)).toEqual({ start_date: { key: 'notBeforeToday', params: { today: TODAY } } })
  })
  it('end may equal start but not precede it', () => {
    expect(dateRules(valid({ start_date: '2025-02-01', end_date: '2025-02-01' }), create)).toEqual({})
    expect(dateRules(valid({ start_date: '2025-02-01', end_date: '2025-01-31' }), create)).toEqual({ end_date: { key: 'notBeforeStart' } })
  })
  it('on edit, a running campaign keeps its past start, but a changed start may not be past', () => {
    const initial = valid({ start_date: '2025-01-01', end_date: '2025-01-31' })
    expect(dateRules(valid({ start_date: '2025-01-01', end_date: '2025-02-28' }), edit(initial))).toEqual({})
    expect(dateRules(valid({ start_date: '2025-01-05', end_date: '2025-02-28' }), edit(initial))).toEqual({ start_date: { key: 'notBeforeToday', params: { today: TODAY } } })
  })
  it('on edit, the end may be before today (an ended campaign)', () => {
    const initial = valid({ start_date: '2024-12-01', end_date: '2024-12-31' })
    expect(dateRules(valid({ start_date: '2024-12-01', end_date: '2024-12-20' }), edit(initial))).toEqual({})
  })
})

describe('intRule', () => {
  it('frequency_limit 1..80: both ends in, one past each end out', () => {
    for (const ok of [1, 80]) expect(intRule(ok, 1, 80, true)).toBeUndefined()
    for (const bad of [0, 81, 2.5]) expect(intRule(bad, 1, 80, true)).toEqual({ key: 'range', params: { min: 1, max: 80 } })
  })
  it('empty is allowed when optional, required otherwise', () => {
    expect(intRule(null, 1, 50, true)).toBeUndefined()
    expect(intRule(null, 1, 50, false)).toEqual({ key: 'required' })
  })
})

describe('enumRule', () => {
  it('takes listed values only, and null when optional', () => {
    expect(enumRule('pm', ['pm', 'pmo'])).toBeUndefined()
    expect(enumRule('PM', ['pm', 'pmo'])).toEqual({ key: 'notInList' })
    expect(enumRule(null, ['a'], true)).toBeUndefined()
    expect(enumRule(null, ['a'])).toEqual({ key: 'notInList' })
  })
})

describe('siteIdsRule', () => {
  it('takes digits separated by ; with spaces and a trailing ;', () => {
    for (const ok of ['', '123', '123;456', ' 1 ; 2 ;']) expect(siteIdsRule(ok)).toBeUndefined()
    for (const bad of ['123,456', 'a;1', ';1', '1;;2']) expect(siteIdsRule(bad)).toEqual({ key: 'siteIds' })
  })
  it('is at most 1000 characters', () => {
    expect(siteIdsRule('1'.repeat(1000))).toBeUndefined()
    expect(siteIdsRule('1'.repeat(1001))).toEqual({ key: 'tooLong', params: { max: 1000 } })
  })
})

describe('tvcaidsRule', () => {
  it('takes integer ids separated by commas, with or without brackets', () => {
    for (const ok of ['', '123', '123,456', '[123, 456]', '[]']) expect(tvcaidsRule(ok)).toBeUndefined()
    expect(tvcaidsRule('1,x')).toEqual({ key: 'tvcaids' })
    expect(tvcaidsRule('1,,2')).toEqual({ key: 'tvcaids' })
    expect(tvcaidsRule('1,2,1')).toEqual({ key: 'duplicateId' })
  })
})

describe('waresRule', () => {
  const w = (a: string, b: string, p: string) => ({ wares_advertiser: a, wares_brand: b, wares_product: p })
  it('takes all three parts or none', () => {
    expect(waresRule(w('', ' ', ''))).toBeUndefined()
    expect(waresRule(w('P&G', 'Head & Shoulders', 'Shampoo'))).toBeUndefined()
    expect(waresRule(w('P&G', '', 'Shampoo'))).toEqual({ key: 'waresIncomplete' })
  })
  it('refuses | inside a part', () => {
    expect(waresRule(w('a|b', 'c', 'd'))).toEqual({ key: 'waresPipe' })
  })
  it('is at most 300 characters joined', () => {
    expect(waresRule(w('a'.repeat(100), 'b'.repeat(99), 'c'.repeat(99)))).toBeUndefined()
    expect(waresRule(w('a'.repeat(100), 'b'.repeat(100), 'c'.repeat(99)))).toEqual({ key: 'tooLong', params: { max: 300 } })
  })
})

describe('partyRules', () => {
  it('a brand needs an advertiser', () => {
    expect(partyRules(valid({ brand_id: '3' }), create)).toEqual({ brand_id: { key: 'brandNeedsAdvertiser' } })
  })
  it('a brand must belong to the advertiser when its parent is known', () => {
    const ctx = { ...create, brandParent: (id: string) => (id === '3' ? '1' : undefined) }
    expect(partyRules(valid({ advertiser_id: '1', brand_id: '3' }), ctx)).toEqual({})
    expect(partyRules(valid({ advertiser_id: '2', brand_id: '3' }), ctx)).toEqual({ brand_id: { key: 'brandNotOfAdvertiser' } })
    expect(partyRules(valid({ advertiser_id: '2', brand_id: '9' }), ctx)).toEqual({})
  })
  it('on edit, a linked advertiser, brand or agency cannot be emptied', () => {
    const initial = valid({ advertiser_id: '1', brand_id: '3', agency_id: '4' })
    expect(partyRules(valid({ advertiser_id: '1', brand_id: null, agency_id: null }), edit(initial))).toEqual({
      brand_id: { key: 'cannotClear' }, agency_id: { key: 'cannotClear' },
    })
    expect(partyRules(valid({ advertiser_id: null, brand_id: null, agency_id: '4' }), edit(initial))).toMatchObject({ advertiser_id: { key: 'cannotClear' } })
  })
  it('on edit, a new advertiser needs a new brand when the campaign had one', () => {
    const initial = valid({ advertiser_id: '1', brand_id: '3' })
    expect(partyRules(valid({ advertiser_id: '2', brand_id: '3' }), edit(initial))).toEqual({ brand_id: { key: 'brandForNewAdvertiser' } })
    expect(partyRules(valid({ advertiser_id: '2', brand_id: '7' }), edit(initial))).toEqual({})
    expect(partyRules(valid({ advertiser_id: '2' }), edit(valid({ advertiser_id: '1' })))).toEqual({})
  })
})

describe('rule messages', () => {
  it('every rule key has an English and a Chinese message', async () => {
    const { readFileSync } = await import('node:fs')
    const { en, zh } = await import('../../../renderer/src/i18n/messages/campaigns')
    const source = readFileSync(new URL('../../../renderer/src/campaigns/form-rules.ts', import.meta.url), 'utf8')
    const keys = [...new Set([...source.matchAll(/key: '(\w+)'/g)].map((m) => m[1]!))]
    expect(keys.length).toBeGreaterThan(10)
    for (const k of keys) {
      expect(en.rule, k).toHaveProperty(k)
      expect(zh.rule, k).toHaveProperty(k)
    }
  })
})

describe('touchedBy', () => {
  it('shows the start date\'s "required" as soon as an end date is given without a start', () => {
    expect(touchedBy('end_date', { start_date: null })).toEqual(['end_date', 'start_date'])
    expect(touchedBy('end_date', { start_date: '' })).toEqual(['end_date', 'start_date'])
    expect(dateRules(valid({ start_date: null, end_date: TODAY }), create).start_date).toEqual({ key: 'required' })
  })

  it('touches only the changed field otherwise', () => {
    expect(touchedBy('end_date', { start_date: TODAY })).toEqual(['end_date'])
    expect(touchedBy('campaign_name', { start_date: null })).toEqual(['campaign_name'])
  })
})
