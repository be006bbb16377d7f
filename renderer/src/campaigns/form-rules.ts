/**
 * Validation of the campaign form, mirroring spec §4.3 and the engine's codecs
 * (engine/contract/endpoints-cms.ts), so that what the engine would refuse is shown inline
 * before submitting. Errors are i18n keys under `campaigns.rule.*` with their parameters.
 */
import { isDate } from '../../../engine/contract/params'
import {
  AD_CAMPAIGN_TYPES, CREATE_CALCULATION_TYPES, CREATE_PLATFORMS, PANEL_TYPES, SLOT_TYPES,
} from '../../../engine/contract/vocabulary'
import { CAMPAIGN_TYPES, EAR_OPTIONS, joinWares, parseTvcaids, type CampaignForm, type FormField } from './form-model'

export interface FieldError {
  /** Message key under `campaigns.rule`. */
  key: string
  params?: Record<string, string | number>
}

/** Errors by form field; `wares` stands for the three wares parts together. */
export type ErrorField = FormField | 'wares'
export type FormErrors = Partial<Record<ErrorField, FieldError>>

export interface RuleContext {
  mode: 'create' | 'edit'
  /** The engine's today, YYYY-MM-DD (its time zone). */
  today: string
  /** Edit: the form as loaded, to tell what changed. */
  initial?: CampaignForm
  /** The advertiser of a brand, when known (the brand picker's list). */
  brandParent?: (brandId: string) => string | undefined
}

/** Lengths of the engine's codecs (engine/contract/endpoints-cms.ts). */
export const MAX = {
  campaign_name: 255, orderid: 100, schedulingCode: 100, wares: 300, linked_siteids: 1000, description: 2000, extensiontype: 200,
} as const

export const FREQUENCY_LIMIT = { min: 1, max: 80 } as const
export const FREQ_CAPPING = { min: 1, max: 50 } as const

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
const SITE_IDS = /^\s*[0-9]+(\s*;\s*[0-9]+)*\s*;?\s*$/
const length = (s: string): number => [...s].length

/** A free-text value: at most `max` characters, no control characters. */
export function textRule(value: string, max: number): FieldError | undefined {
  if (length(value) > max) return { key: 'tooLong', params: { max } }
  if (CONTROL.test(value)) return { key: 'controlChars' }
  return undefined
}

/** campaign_name: non-empty after trimming, at most 255 characters (invalid_campaign_name). */
export function nameRule(value: string): FieldError | undefined {
  const s = value.trim()
  if (s === '') return { key: 'required' }
  return textRule(s, MAX.campaign_name)
}

/** An integer in [min, max], or empty when `optional`. */
export function intRule(value: number | null, min: number, max: number, optional: boolean): FieldError | undefined {
  if (value === null) return optional ? undefined : { key: 'required' }
  if (!Number.isInteger(value) || value < min || value > max) return { key: 'range', params: { min, max } }
  return undefined
}

/** A value from a closed list (enumerations of the spec); null passes when `optional`. */
export function enumRule(value: unknown, values: readonly unknown[], optional = false): FieldError | undefined {
  if (value === null && optional) return undefined
  return values.includes(value) ? undefined : { key: 'notInList' }
}

/** linked_siteids: analytics site ids separated by ; (empty for none). */
export function siteIdsRule(value: string): FieldError | undefined {
  if (value.trim() === '') return undefined
  return textRule(value, MAX.linked_siteids) ?? (SITE_IDS.test(value) ? undefined : { key: 'siteIds' })
}

/** linked_tvcaids: integer ids separated by commas, each once. */
export function tvcaidsRule(value: string): FieldError | undefined {
  const ids = parseTvcaids(value)
  if (ids === null) return { key: 'tvcaids' }
  return new Set(ids).size === ids.length ? undefined : { key: 'duplicateId' }
}

/** wares: the three parts all given or all empty, no '|' inside a part, 300 characters in all. */
export function waresRule(f: Pick<CampaignForm, 'wares_advertiser' | 'wares_brand' | 'wares_product'>): FieldError | undefined {
  const parts = [f.wares_advertiser, f.wares_brand, f.wares_product].map((s) => s.trim())
  if (parts.every((s) => s === '')) return undefined
  if (parts.some((s) => s === '')) return { key: 'waresIncomplete' }
  if (parts.some((s) => s.includes('|'))) return { key: 'waresPipe' }
  return textRule(joinWares(f), MAX.wares)
}

/** start_date and end_date (spec §4.3, §8): real dates, start not before today, end not before start. */
export function dateRules(f: CampaignForm, ctx: RuleContext): FormErrors {
  const out: FormErrors = {}
  const start = f.start_date
  const end = f.end_date
  if (start === null || start === '') out.start_date = { key: 'required' }
  else if (!isDate(start)) out.start_date = { key: 'date' }
  // Create: never before today. Edit: a running campaign keeps its past start; a new start may not be past.
  else if (start < ctx.today && (ctx.mode === 'create' || start !== ctx.initial?.start_date)) out.start_date = { key: 'notBeforeToday', params: { today: ctx.today } }
  if (end === null || end === '') out.end_date = { key: 'required' }
  else if (!isDate(end)) out.end_date = { key: 'date' }
  else if (start && isDate(start) && end < start) out.end_date = { key: 'notBeforeStart' }
  return out
}

/** Advertiser, brand and agency: a brand needs its advertiser; an edit cannot remove a link. */
export function partyRules(f: CampaignForm, ctx: RuleContext): FormErrors {
  const out: FormErrors = {}
  if (f.brand_id !== null && f.advertiser_id === null) out.brand_id = { key: 'brandNeedsAdvertiser' }
  else if (f.brand_id !== null && f.advertiser_id !== null) {
    const parent = ctx.brandParent?.(f.brand_id)
    if (parent !== undefined && parent !== f.advertiser_id) out.brand_id = { key: 'brandNotOfAdvertiser' }
  }
  const init = ctx.initial
  if (ctx.mode !== 'edit' || !init) return out
  // update takes ids only: there is no way to unlink, so an emptied picker would silently do nothing.
  for (const k of ['advertiser_id', 'agency_id', 'brand_id'] as const) {
    if (init[k] !== null && f[k] === null) out[k] ??= { key: 'cannotClear' }
  }
  if (init.brand_id !== null && f.advertiser_id !== init.advertiser_id && f.brand_id === init.brand_id) out.brand_id ??= { key: 'brandForNewAdvertiser' }
  return out
}

/** Fields only create takes (checked on create; an edit shows them read-only). */
function createOnlyRules(f: CampaignForm): FormErrors {
  const out: FormErrors = {}
  const put = (k: ErrorField, e: FieldError | undefined) => {
    if (e) out[k] = e
  }
  put('platform', enumRule(f.platform, CREATE_PLATFORMS))
  put('calculation_type', enumRule(f.calculation_type, CREATE_CALCULATION_TYPES))
  put('panel_type', enumRule(f.panel_type, PANEL_TYPES))
  put('ear', enumRule(f.ear, EAR_OPTIONS))
  put('ad_campaign_type', enumRule(f.ad_campaign_type, AD_CAMPAIGN_TYPES, true))
  put('frequency_limit', intRule(f.frequency_limit, FREQUENCY_LIMIT.min, FREQUENCY_LIMIT.max, true))
  put('freq_capping', intRule(f.freq_capping, FREQ_CAPPING.min, FREQ_CAPPING.max, true))
  put('orderid', textRule(f.orderid, MAX.orderid))
  put('schedulingCode', textRule(f.schedulingCode, MAX.schedulingCode))
  return out
}

/** Every rule; an empty object means the form can be sent. */
export function validateCampaignForm(f: CampaignForm, ctx: RuleContext): FormErrors {
  const out: FormErrors = { ...dateRules(f, ctx), ...partyRules(f, ctx) }
  const put = (k: ErrorField, e: FieldError | undefined) => {
    if (e) out[k] = e
  }
  put('campaign_name', nameRule(f.campaign_name))
  put('campaign_type', enumRule(f.campaign_type, CAMPAIGN_TYPES, true))
  put('slot_type', enumRule(f.slot_type, SLOT_TYPES))
  put('description', textRule(f.description, MAX.description))
  put('extensiontype', f.extensiontype === null ? undefined : textRule(f.extensiontype, MAX.extensiontype))
  put('linked_siteids', siteIdsRule(f.linked_siteids))
  put('linked_tvcaids', tvcaidsRule(f.linked_tvcaids))
  put('wares', waresRule(f))
  if (ctx.mode === 'create') Object.assign(out, createOnlyRules(f))
  return out
}

export const isValid = (errors: FormErrors): boolean => Object.keys(errors).length === 0

/**
 * The fields whose rule errors show once the user changes `field`: the field itself, and the start
 * date when an end date is given while the start is empty (its "required" shows at once, not at
 * the submit, so an end date alone shows the error).
 */
export function touchedBy(field: ErrorField, f: Pick<CampaignForm, 'start_date'>): ErrorField[] {
  return field === 'end_date' && !f.start_date ? ['end_date', 'start_date'] : [field]
}
