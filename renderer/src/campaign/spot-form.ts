/**
 * The spot editor's form: every create_spot / create_spot_with_plan / update_spot field
 * (spec §4.3), checked with the endpoint table's own codecs before sending, and turned into
 * the parameters of each call (an update sends only what changed; '' clears a text field).
 */
import { endpoints } from '../../../engine/contract/endpoints'
import { ApiError } from '../../../engine/contract/errors'
import { CUSTOMER_FIELDS, type Spot } from '../../../engine/contract/models'
import { BIDDING_CHANNELS } from '../../../engine/contract/vocabulary'
import { addDays } from './dates'
import { keywordText, type KeywordRow } from './keywords'

export type SpotMode = 'create' | 'plan' | 'update'

const ENDPOINT = { create: 'campaigns.create_spot', plan: 'campaigns.create_spot_with_plan', update: 'campaigns.update_spot' } as const

type CreateKeys = keyof (typeof endpoints)['campaigns.create_spot']['params'] | keyof (typeof endpoints)['campaigns.create_spot_with_plan']['params']
/** A field of the editor (wire name). */
export type SpotField = Exclude<CreateKeys, 'campaign_id' | 'keyword'>
export type SpotForm = Record<SpotField, string>
export type SpotErrors = Partial<Record<SpotField, string>>

const NOT_FIELDS = new Set(['campaign_id', 'spot_id', 'keyword', 'add_keyword', 'update_keyword', 'add_slot', 'delete_slot', 'update_slot'])
export const PLAN_FIELDS = ['slot_begin', 'slot_duration', 'est_impression', 'est_click'] as const satisfies readonly SpotField[]

/** The fields a mode sends, in the endpoint table's order. */
export function fieldsOf(mode: SpotMode): SpotField[] {
  const own = Object.keys(endpoints[ENDPOINT[mode]].params).filter((k) => !NOT_FIELDS.has(k)) as SpotField[]
  // update_spot's est_impression / est_click are per-date plan lists (plan.ts), not form fields
  return mode === 'update' ? own.filter((k) => k !== 'est_impression' && k !== 'est_click') : own
}

const ALL_FIELDS: SpotField[] = [...new Set([...fieldsOf('create'), ...fieldsOf('plan')])]

/** Fields set at creation that update_spot cannot change (shown read-only when editing). */
export const CREATE_ONLY: ReadonlySet<SpotField> = new Set(ALL_FIELDS.filter((f) => !fieldsOf('update').includes(f) && !(PLAN_FIELDS as readonly string[]).includes(f)))

/** Enumerations: an empty value means "not sent" (they always keep a value, docs/spots.md). */
const ENUMS: ReadonlySet<SpotField> = new Set(['placement_type', 'report_metrics', 'program_purchasing_type', 'dangerous_source_filtration'])
/** Names: never empty once the spot exists. */
const NAMES: ReadonlySet<SpotField> = new Set(['publisher_name', 'channel_name', 'placement_name'])

export const CUSTOMER_FIELD_NAMES: readonly SpotField[] = CUSTOMER_FIELDS

/** A form with every field empty (the engine's defaults apply). */
export function emptyForm(): SpotForm {
  return Object.fromEntries(ALL_FIELDS.map((f) => [f, ''])) as SpotForm
}

/** The form of a stored spot (show_spot with show_extInfo=1 and show_filtration_status=1). */
export function formFromSpot(spot: Spot): SpotForm {
  const form = emptyForm()
  const source = spot as unknown as Record<string, unknown>
  for (const f of ALL_FIELDS) {
    const v = source[f]
    if (typeof v === 'string' || typeof v === 'number') form[f] = String(v)
  }
  form.guid = spot.GUID
  form.caguid = spot.CAGUID
  form.linked_siteid = spot.linked_siteid === null ? '' : String(spot.linked_siteid)
  form.budgetInput = spot.budgetInput ?? ''
  form.dangerous_source_filtration = spot.dangerous_source_filtration === undefined ? '' : String(spot.dangerous_source_filtration)
  return form
}

/** Whether a channel name marks a keyword (search bidding) spot. */
export const isBiddingChannel = (channel: string): boolean => (BIDDING_CHANNELS as readonly string[]).includes(channel.trim())

function decodeError(mode: SpotMode, field: SpotField, raw: string | undefined): string | null {
  const codec = (endpoints[ENDPOINT[mode]].params as Record<string, { decode: (r: string | undefined, n: string) => unknown }>)[field]
  if (!codec) return null
  try {
    codec.decode(raw, field)
    return null
  } catch (e) {
    return e instanceof ApiError ? e.message : String(e)
  }
}

/** The text a field would be sent as: undefined when not sent. */
function sentValue(mode: SpotMode, field: SpotField, value: string): string | undefined {
  if (value !== '') return value
  return mode === 'update' && NAMES.has(field) ? '' : undefined
}

function planErrors(form: SpotForm, campaign: { start_date: string; end_date: string }, keywords: number): SpotErrors {
  const out: SpotErrors = {}
  const begin = form.slot_begin.trim()
  const duration = Number(form.slot_duration)
  if (begin !== '' && form.slot_duration === '') out.slot_duration = "The 'slot_duration' must be sent together with slot_begin."
  if (begin === '' && form.slot_duration !== '') out.slot_begin = "The 'slot_begin' must be sent together with slot_duration."
  if (begin === '' && form.slot_duration === '') {
    if (form.est_impression !== '') out.est_impression = "The 'est_impression' requires a plan: send slot_begin and slot_duration."
    if (form.est_click !== '') out.est_click = "The 'est_click' requires a plan: send slot_begin and slot_duration."
  }
  if (begin !== '' && (begin < campaign.start_date || begin > campaign.end_date))
    out.slot_begin = `The 'slot_begin' (${begin}) lies outside the campaign's dates ${campaign.start_date}..${campaign.end_date}.`
  else if (begin !== '' && Number.isInteger(duration) && duration > 0 && addDays(begin, duration - 1) > campaign.end_date)
    out.slot_duration = `The 'slot_duration' (${duration} days from ${begin}, to ${addDays(begin, duration - 1)}) runs past the campaign's dates ${campaign.start_date}..${campaign.end_date}.`
  if (keywords > 0 && !isBiddingChannel(form.channel_name))
    out.channel_name = `The 'channel_name' must be ${BIDDING_CHANNELS.join(' or ')} for a spot with keywords and a plan, got '${form.channel_name}'.`
  return out
}

/**
 * The problems of a form, by field, in the engine's words (its codecs); `keywords` is the number
 * of keyword rows (keywords have their own checks, keywords.ts).
 */
export function validateSpot(form: SpotForm, mode: SpotMode, campaign: { start_date: string; end_date: string }, keywords = 0): SpotErrors {
  const out: SpotErrors = {}
  for (const f of fieldsOf(mode)) {
    const message = decodeError(mode, f, sentValue(mode, f, form[f]))
    if (message !== null) out[f] = message
  }
  return mode === 'plan' ? { ...planErrors(form, campaign, keywords), ...out } : out
}

/** The parameters of create_spot / create_spot_with_plan (empty fields are not sent). */
export function createParams(campaignId: string, form: SpotForm, mode: 'create' | 'plan', keywords: readonly KeywordRow[]): Record<string, string> {
  const out: Record<string, string> = { campaign_id: campaignId }
  for (const f of fieldsOf(mode)) if (form[f].trim() !== '') out[f] = form[f]
  if (keywords.length > 0) out.keyword = keywordText(keywords)
  return out
}

/** The update_spot parameters for what changed ({} when nothing did). */
export function updateParams(original: SpotForm, form: SpotForm): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of fieldsOf('update')) {
    if (form[f] === original[f]) continue
    if (form[f] === '' && ENUMS.has(f)) continue
    out[f] = form[f]
  }
  return out
}
