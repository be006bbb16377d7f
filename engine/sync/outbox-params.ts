/**
 * The parameters of an outbox operation: read from a local draft (a campaign, spot or target of
 * the local tables) in the remote endpoint's own wire names, merged with edits, and checked with
 * that endpoint's codecs, so that what is queued would be accepted in form (spec §4.3).
 */
import { endpoints, type EndpointId } from '../contract/endpoints'
import type { OutboxKind, OutboxOpName } from '../contract/endpoints-sync-push'
import { ApiError, badRequest } from '../contract/errors'
import { p } from '../contract/params'
import { campaignDatesProblem } from '../contract/plan-rules'
import { problem } from '../contract/problems'
import type { Db } from '../storage/db'
import { SPOT_INPUT_COLUMNS, keywordsOf, spotWithPublisher, type SpotRow } from '../storage/repos/spots'
import { campaignTableRow } from '../storage/repos/campaigns'
import { targetById } from '../storage/repos/targets'
import { planOf } from '../storage/repos/spot-plan'
import { REF_NAMES } from './outbox-refs'

export type Params = Record<string, string>

/** Plan members of a spot create: sent with update_spot after create_spot (per-day estimates). */
export const PLAN_KEYS = ['add_slot', 'est_impression', 'est_click'] as const

/** The remote endpoint an operation calls. */
export function endpointOf(kind: OutboxKind, op: OutboxOpName): EndpointId {
  if (kind === 'campaign') return op === 'create' ? 'campaigns.create' : 'campaigns.update'
  if (kind === 'spot') return op === 'create' ? 'campaigns.create_spot' : 'campaigns.update_spot'
  if (op === 'update') throw badRequest('outbox.noTargetUpdate', { param: 'op' })
  return 'campaigns.publish_target'
}

/** Request names whose record member is spelled otherwise (for the conflict fields). */
export const RECORD_NAME: Readonly<Record<string, string>> = { guid: 'GUID', caguid: 'CAGUID', orderid: 'order_id', schedulingCode: 'scheduling_code' }

/** A reference queued by name (outbox-refs.ts): any name the remote could have. */
const REF_NAME = p.text(200).optional()

/** Filled in by the push from the id map, never queued. */
const IMPLIED = new Set(['campaign_id', 'spot_id'])

/** Refuses members the endpoint does not take and values its codecs refuse, naming them. */
export function checkParams(kind: OutboxKind, op: OutboxOpName, params: Params): void {
  const id = endpointOf(kind, op)
  const codecs: Record<string, { decode(raw: string | undefined, name: string): unknown }> = { ...endpoints[id].params }
  if (id === 'campaigns.create_spot') for (const k of PLAN_KEYS) codecs[k] = endpoints['campaigns.update_spot'].params[k]
  if (kind === 'campaign') for (const k of REF_NAMES) codecs[k] = REF_NAME
  for (const [name, value] of Object.entries(params)) {
    const codec = codecs[name]
    if (!codec || IMPLIED.has(name)) throw badRequest('outbox.notParam', { param: 'params', member: name, path: endpoints[id].path })
    try {
      codec.decode(value, name)
    } catch (err) {
      if (err instanceof ApiError && err.problem) throw badRequest('outbox.badMember', { reason: err.problem })
      throw err
    }
  }
  const required = Object.entries(endpoints[id].params).filter(([k, c]) => c.required && !IMPLIED.has(k)).map(([k]) => k)
  const missing = required.filter((k) => (params[k] ?? '').trim() === '')
  if (missing.length > 0) throw badRequest('outbox.lacks', { param: 'params', names: missing.join(', '), path: endpoints[id].path })
  if (op === 'update' && Object.keys(params).length === 0) throw badRequest('outbox.noChange', { param: 'params' })
  // (the remote refuses an update with one date of the pair, and a campaign whose dates run
  // backwards: not worth queuing, since an edit removing end_date would be accepted, then refused at push)
  if (kind === 'campaign' && op === 'update' && (params.start_date === undefined) !== (params.end_date === undefined)) {
    const [given, missing] = params.start_date === undefined ? ['end_date', 'start_date'] : ['start_date', 'end_date']
    throw badRequest('outbox.badMember', { reason: problem('param.together', { param: given, otherParam: missing }) })
  }
  const dates = kind === 'campaign' && params.start_date && params.end_date ? campaignDatesProblem({ start_date: params.start_date, end_date: params.end_date }) : null
  if (dates) throw badRequest('outbox.badMember', { reason: dates })
  const has = (k: string) => params[k] !== undefined
  if (kind === 'campaign' && (has('brand_name') || has('brand_id')) && !has('advertiser_name') && !has('advertiser_id')) throw badRequest('outbox.brandAlone', { param: 'params' })
  const plan = PLAN_KEYS.filter((k) => params[k] !== undefined)
  if (id === 'campaigns.create_spot' && plan.length > 0 && params.add_slot === undefined) throw badRequest('outbox.needSlot', { param: 'params', names: plan.join(', ') })
}

/** `base` with the members of the query string `text` set (an empty value removes a member). */
export function mergeParams(base: Params, text: string | undefined): Params {
  const out = { ...base }
  if (text === undefined) return out
  for (const [k, v] of new URLSearchParams(text)) {
    if (v === '') delete out[k]
    else out[k] = v
  }
  return out
}

/** Members with a value (null, undefined and '' left out), as strings. */
function present(pairs: Record<string, string | number | null | undefined>): Params {
  const out: Params = {}
  for (const [k, v] of Object.entries(pairs)) if (v !== null && v !== undefined && String(v) !== '') out[k] = String(v)
  return out
}

interface CampaignRow {
  campaign_id: number
  [column: string]: string | number | null
}

export function localCampaign(db: Db, id: string): CampaignRow {
  const row = campaignTableRow<CampaignRow>(db, Number(id))
  if (!row) throw badRequest('outbox.noLocal', { param: 'local_id', kind: 'campaign', id })
  return row
}

const tvcaids = (v: unknown) => (v === '[]' || v === null ? '' : String(v))

/** What campaigns/update takes from a local campaign. */
export function campaignUpdateParams(c: CampaignRow): Params {
  return present({
    campaign_name: c.campaign_name, start_date: c.start_date, end_date: c.end_date, advertiser_id: c.advertiser_id, agency_id: c.agency_id, brand_id: c.brand_id,
    wares: c.wares, linked_siteids: c.linked_siteids, slot_type: c.slot_type, description: c.description, linked_tvcaids: tvcaids(c.linked_tvcaids),
    extensiontype: c.extensiontype, play_detect: c.play_detect,
  })
}

/** What campaigns/create takes from a local campaign (the panel is left to the remote's default: its ids are its own). */
export function campaignCreateParams(c: CampaignRow): Params {
  return {
    ...campaignUpdateParams(c),
    ...present({
      platform: c.platform, calculation_type: c.calculation_type, orderid: c.order_id, schedulingCode: c.scheduling_code, frequency_limit: c.frequency_limit,
      ear: c.ear, ad_campaign_type: c.ad_campaign_type, freq_capping: c.freq_capping, panel_type: c.panel_type,
    }),
  }
}

export function localSpot(db: Db, id: string): SpotRow & { publisher_name: string } {
  const row = spotWithPublisher(db, Number(id))
  if (!row) throw badRequest('outbox.noLocal', { param: 'local_id', kind: 'spot', id })
  return row
}

/** The text fields create_spot and update_spot share, from a local spot. */
export function spotUpdateParams(s: SpotRow & { publisher_name: string }): Params {
  const text: Record<string, string> = {}
  for (const [name, column] of Object.entries(SPOT_INPUT_COLUMNS)) text[name] = (s as unknown as Record<string, string>)[column] ?? ''
  return present({ publisher_name: s.publisher_name, ...text, dangerous_source_filtration: s.dangerous_source_filtration })
}

/** create_spot parameters with the keywords, and the per-day plan as add_slot + estimates. */
export function spotCreateParams(db: Db, s: SpotRow & { publisher_name: string }): Params {
  const keywords = keywordsOf(db, s.spot_id).map((k) => `${k.keyword_name}^${k.landing_page}`).join('>')
  const plan = planOf(db, s.spot_id)
  const extra = present({
    freq_capping: s.freq_capping, tracking_timing: (s as unknown as Record<string, string>).tracking_timing, linked_siteid: s.linked_siteid,
    referrer_url: (s as unknown as Record<string, string>).referrer_url, budgetInput: s.budgetInput, keyword: keywords,
  })
  const days: Params = plan.length === 0 ? {} : {
    add_slot: plan.map((d) => d.date).join(','), est_impression: plan.map((d) => d.est_impression).join(','), est_click: plan.map((d) => d.est_click).join(','),
  }
  return { ...spotUpdateParams(s), ...extra, ...days }
}


export function localTarget(db: Db, id: string): { target_id: number; campaign_id: number; target_name: string; tag_id: string } {
  const row = targetById(db, Number(id))
  if (!row) throw badRequest('outbox.noLocal', { param: 'local_id', kind: 'target', id })
  return row
}

/** The name shown in lists: campaign, placement or target name. */
export const nameOf = (kind: OutboxKind, p: Params): string => (kind === 'campaign' ? p.campaign_name : kind === 'spot' ? p.placement_name : p.target_name) ?? ''
