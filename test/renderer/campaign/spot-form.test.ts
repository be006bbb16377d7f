// renderer/src/campaign/spot-form.ts: the spot editor's fields, checks and call parameters
import { describe, expect, it } from 'vitest'
import type { Spot } from '../../../engine/contract/models'
import type { PlanInput } from '../../../engine/routes/spots-plan'
import { spotLabel } from '../../../renderer/src/campaign/spot-fields'
import type { KeywordRow } from '../../../renderer/src/campaign/keywords'
import { CREATE_ONLY, createParams, emptyForm, fieldsOf, formFromSpot, isNumberField, numberErrors, planPreview, spotFormChanged, updateParams, validateSpot } from '../../../renderer/src/campaign/spot-form'
import { engineRefusal } from './engine-plan'

const campaign = { start_date: '2025-01-10', end_date: '2025-01-20' }
const named = () => ({ ...emptyForm(), publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner' })

describe('fields', () => {
  it('follows the endpoint table of each call', () => {
    expect(fieldsOf('create')).toContain('freq_capping')
    expect(fieldsOf('plan')).not.toContain('freq_capping')
    expect(fieldsOf('plan')).toEqual(expect.arrayContaining(['slot_begin', 'slot_duration', 'est_impression', 'est_click']))
    expect(fieldsOf('update')).not.toContain('est_impression')
    expect([...CREATE_ONLY].sort()).toEqual(['budgetInput', 'freq_capping', 'linked_siteid', 'referrer_url', 'tracking_timing'])
  })
})

describe('validateSpot', () => {
  it('passes a minimal spot and names the required fields otherwise', () => {
    expect(validateSpot(named(), 'create', campaign)).toEqual({})
    const e = validateSpot(emptyForm(), 'create', campaign)
    expect(Object.keys(e).sort()).toEqual(['channel_name', 'placement_name', 'publisher_name'])
  })

  it('uses the codecs: enumerations, URLs, capping, vending model, amounts', () => {
    const e = validateSpot({ ...named(), placement_type: 'Display', landing_page: 'www.x.com', freq_capping: 's0+', vending_model: 'x-y', budgetInput: '1.234' }, 'create', campaign)
    expect(Object.keys(e).sort()).toEqual(['budgetInput', 'freq_capping', 'landing_page', 'placement_type', 'vending_model'])
    expect(e.landing_page).toContain("'landing_page'")
  })

  it("words each plan problem as the engine does (docs/app.md: the engine's own words)", () => {
    const cases: [Record<string, string>, PlanInput, string][] = [
      [{ slot_begin: '2025-01-15', slot_duration: '7' }, { slot_begin: '2025-01-15', slot_duration: 7 }, 'slot_duration'],
      [{ slot_begin: '2025-01-21', slot_duration: '2' }, { slot_begin: '2025-01-21', slot_duration: 2 }, 'slot_begin'],
      [{ slot_begin: '2025-01-09', slot_duration: '1' }, { slot_begin: '2025-01-09', slot_duration: 1 }, 'slot_begin'],
      [{ slot_begin: '2025-01-15' }, { slot_begin: '2025-01-15' }, 'slot_duration'],
      [{ slot_duration: '3' }, { slot_duration: 3 }, 'slot_begin'],
      [{ est_impression: '100' }, { est_impression: 100 }, 'est_impression'],
    ]
    for (const [form, input, field] of cases) {
      const errors = validateSpot({ ...named(), ...form }, 'plan', campaign) as Record<string, string>
      expect([field, errors[field]]).toEqual([field, engineRefusal(input, campaign)])
    }
  })

  it('checks the plan against the campaign and keywords against the channel', () => {
    expect(validateSpot({ ...named(), slot_begin: '2025-01-15', slot_duration: '7' }, 'plan', campaign).slot_duration).toContain('runs past')
    expect(validateSpot({ ...named(), slot_begin: '2025-01-15' }, 'plan', campaign).slot_duration).toContain('together')
    expect(validateSpot({ ...named(), est_click: '5' }, 'plan', campaign).est_click).toContain('requires a plan')
    expect(validateSpot(named(), 'plan', campaign, 2).channel_name).toContain('Bidding')
    expect(validateSpot({ ...named(), channel_name: 'Bidding word' }, 'plan', campaign, 2)).toEqual({})
  })

  it('refuses emptying a name on update', () => {
    expect(validateSpot({ ...named(), placement_name: '' }, 'update', campaign).placement_name).toContain('should not be empty')
  })
})

describe('number boxes', () => {
  const plan = () => ({ ...named(), slot_begin: '2025-01-10', slot_duration: '2' })

  it('refuses a decimal or negative total with the reason, keeping it out of the preview', () => {
    for (const imp of ['1.5', '-5', 'abc']) {
      const f = { ...plan(), est_impression: imp }
      expect(numberErrors(f, 'plan').est_impression, imp).toMatch(/^The 'est_impression' must be/)
      expect(validateSpot(f, 'plan', campaign).est_impression, imp).toBeDefined()
      expect(planPreview(f), imp).toBeNull()
    }
    expect(numberErrors({ ...plan(), est_impression: '-5' }, 'plan').est_impression).toContain('between 0 and 1099511627776')
  })

  it('names the real bound of a number too long to read', () => {
    const f = { ...plan(), est_impression: '99999999999999999' }
    expect(validateSpot(f, 'plan', campaign).est_impression).toBe("The 'est_impression' must be between 0 and 1099511627776, got 99999999999999999.")
    expect(numberErrors({ ...named(), linked_siteid: '99999999999999999' }, 'create').linked_siteid).toContain('between 1 and 2147483647')
    expect(planPreview(f)).toBeNull()
  })

  it('shows only the number boxes, and only when something is typed', () => {
    expect(numberErrors({ ...emptyForm(), landing_page: 'x' }, 'plan')).toEqual({})
    expect(Object.keys(numberErrors({ ...plan(), slot_duration: '0', est_click: '2.5' }, 'plan')).sort()).toEqual(['est_click', 'slot_duration'])
    expect(isNumberField('est_impression')).toBe(true)
    expect(isNumberField('placement_name')).toBe(false)
  })

  it('previews the per-day figures of valid totals as the engine spreads them', () => {
    expect(planPreview({ ...plan(), est_impression: '101', est_click: '' })).toEqual({ days: 2, first: '2025-01-10', last: '2025-01-11', est_impression: 51, est_click: 0 })
    expect(planPreview({ ...plan(), slot_duration: '' })).toBeNull()
  })
})

describe('spotFormChanged', () => {
  const state = (form = named(), keywords: KeywordRow[] = []) => ({ form, keywords })
  it('sees a typed field or a keyword, and ignores a blank keyword row', () => {
    expect(spotFormChanged(state(), state(named(), [{ keyword_name: ' ', landing_page: '' }]))).toBe(false)
    expect(spotFormChanged(state(), state({ ...named(), market: 'x' }))).toBe(true)
    expect(spotFormChanged(state(named(), [{ keyword_id: 3, keyword_name: 'k', landing_page: '' }]), state(named(), [{ keyword_id: 3, keyword_name: 'k2', landing_page: '' }]))).toBe(true)
    expect(spotFormChanged(state(), state(named(), [{ keyword_name: 'k', landing_page: '' }]))).toBe(true)
  })
})

describe('parameters', () => {
  it('sends only filled fields on create, with the keyword text', () => {
    expect(createParams('9', { ...named(), guid: 'G1' }, 'create', [{ keyword_name: 'milk', landing_page: '' }])).toEqual({
      campaign_id: '9', publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner', guid: 'G1', keyword: 'milk^',
    })
  })

  it('sends only changed fields on update, clearing text with an empty value but never an enumeration', () => {
    const spot = {
      spot_id: '40', spot_id_str: 'e', publisher_id: '3', linked_siteid: 345, publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top',
      placement_type: 'display', report_metrics: 'impression', GUID: 'RTX', CAGUID: '', description: 'd', budgetInput: '10', dangerous_source_filtration: 1,
    } as unknown as Spot
    const original = formFromSpot(spot)
    expect(original).toMatchObject({ guid: 'RTX', linked_siteid: '345', budgetInput: '10', dangerous_source_filtration: '1', placement_type: 'display' })
    expect(updateParams(original, { ...original })).toEqual({})
    expect(updateParams(original, { ...original, guid: '', report_metrics: '', description: 'new', dangerous_source_filtration: '0' }))
      .toEqual({ guid: '', description: 'new', dangerous_source_filtration: '0' })
  })
})

describe('spotLabel', () => {
  it('names a spot by publisher and placement', () => {
    expect(spotLabel({ publisher_name: 'Sina', placement_name: 'Home banner' })).toBe('Sina / Home banner')
  })
})
