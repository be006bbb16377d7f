/**
 * Server errors of create/update placed on the form: the engine's error_description names the
 * parameter ("The 'end_date' (...) is earlier than start_date ..."), and invalid_campaign_name is
 * always about campaign_name (spec §7.2). Anything else is shown as an alert above the form.
 */
import type { ErrorField } from './form-rules'

/** Wire parameter -> form field, where they differ or where the form shows the parameter. */
const FIELD_OF_PARAM: Readonly<Record<string, ErrorField>> = {
  campaign_name: 'campaign_name', start_date: 'start_date', end_date: 'end_date', campaign_type: 'campaign_type',
  platform: 'platform', calculation_type: 'calculation_type', orderid: 'orderid', schedulingCode: 'schedulingCode',
  frequency_limit: 'frequency_limit', advertiser_id: 'advertiser_id', brand_id: 'brand_id', agency_id: 'agency_id',
  panel_id: 'panel_id', ear: 'ear', wares: 'wares', linked_siteids: 'linked_siteids', ad_campaign_type: 'ad_campaign_type',
  slot_type: 'slot_type', freq_capping: 'freq_capping', description: 'description', panel_type: 'panel_type',
  linked_tvcaids: 'linked_tvcaids', extensiontype: 'extensiontype', play_detect: 'play_detect',
}

/** The parameter an error description names first, if any. */
export function paramOfMessage(message: string): string | null {
  const m = /'([A-Za-z_][A-Za-z0-9_]*)'/.exec(message)
  return m ? m[1]! : null
}

/** The form field a server error belongs to, or null (then it is shown as an alert). */
export function fieldOfServerError(error: string | undefined, message: string): ErrorField | null {
  if (error === 'invalid_campaign_name') return 'campaign_name'
  const param = paramOfMessage(message)
  return param === null ? null : (FIELD_OF_PARAM[param] ?? null)
}
