/**
 * Server errors of create/update placed on the form: a refusal's problem names the parameter
 * (api/problems.ts), and invalid_campaign_name is always about campaign_name (spec §7.2). Anything
 * else is shown as an alert above the form.
 */
import { paramOfRefusal, problemOf } from '../api/problems'
import type { ErrorField } from './form-rules'

/** The wire parameters the form shows, each on the field of the same name. */
const FORM_PARAMS: ReadonlySet<string> = new Set<ErrorField>([
  'campaign_name', 'start_date', 'end_date', 'campaign_type', 'platform', 'calculation_type', 'orderid', 'schedulingCode',
  'frequency_limit', 'advertiser_id', 'brand_id', 'agency_id', 'panel_id', 'ear', 'wares', 'linked_siteids', 'ad_campaign_type',
  'slot_type', 'freq_capping', 'description', 'panel_type', 'linked_tvcaids', 'extensiontype', 'play_detect',
])

/** The form field a server error belongs to, or null (then it is shown as an alert). */
export function fieldOfServerError(error: string | undefined, message: string): ErrorField | null {
  if (error === 'invalid_campaign_name') return 'campaign_name'
  const param = paramOfRefusal(message)
  return param !== null && FORM_PARAMS.has(param) ? (param as ErrorField) : null
}

/** Fields that go together: changing one clears the server error of both (start and end are sent together). */
const PAIRS: Readonly<Partial<Record<ErrorField, readonly ErrorField[]>>> = {
  start_date: ['start_date', 'end_date'],
  end_date: ['start_date', 'end_date'],
}

/** The fields whose server error a change of `field` clears: itself, and its pair. */
export const clearedWith = (field: ErrorField): readonly ErrorField[] => PAIRS[field] ?? [field]

/**
 * Every form field a server error belongs to ([] = an alert): a date error about both dates
 * (plan days outside both new dates) goes on both.
 */
export function fieldsOfServerError(error: string | undefined, message: string): ErrorField[] {
  const field = fieldOfServerError(error, message)
  if (field === null) return []
  const other = field === 'start_date' ? 'end_date' : field === 'end_date' ? 'start_date' : null
  return other !== null && problemOf(message)?.key === 'campaign.plansOutsideBoth' ? [field, other].sort() as ErrorField[] : [field]
}
