/**
 * The spot editor's form: every create_spot / create_spot_with_plan / update_spot field
 * (spec §4.3), checked with the endpoint table's own codecs before sending, and turned into
 * the parameters of each call (an update sends only what changed; '' clears a text field).
 */
import { endpoints } from '../../../engine/contract/endpoints'
import { badProblem } from '../../../engine/contract/errors'
import { CUSTOMER_FIELDS, type Spot } from '../../../engine/contract/models'
import { isBiddingChannel, keywordChannelProblem, newPlanProblems, type CampaignDates } from '../../../engine/contract/plan-rules'
import { messageOf } from '../api/problems'
import { addDays } from './dates'
import { filledRows, keywordText, type KeywordRow } from './keywords'
import { evenSplit } from './plan'

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

type FieldCodec = { decode: (r: string | undefined, n: string) => unknown; schema: { type?: string } }

/** A field's value as the endpoint's codec reads it (undefined when not sent), or the codec's refusal. */
function decodeField(mode: SpotMode, field: SpotField, raw: string | undefined): { value?: unknown; error?: string } {
  const codec = (endpoints[ENDPOINT[mode]].params as Record<string, FieldCodec>)[field]
  if (!codec) return {}
  try {
    return { value: codec.decode(raw, field) }
  } catch (e) {
    return { error: messageOf(e) }
  }
}

/** Whether a field is a number box (its codec reads an integer). */
export function isNumberField(field: SpotField): boolean {
  return ALL_FIELDS.includes(field) && ['create', 'plan', 'update'].some((m) => (endpoints[ENDPOINT[m as SpotMode]].params as Record<string, FieldCodec>)[field]?.schema.type === 'integer')
}

/**
 * Problems of the number boxes that hold something the codec refuses, shown as soon as typed
 * (before a submit): a refused number is kept in its box with the reason, never emptied.
 */
export function numberErrors(form: SpotForm, mode: SpotMode): SpotErrors {
  const out: SpotErrors = {}
  for (const f of fieldsOf(mode)) {
    if (!isNumberField(f) || form[f].trim() === '') continue
    const { error } = decodeField(mode, f, form[f])
    if (error !== undefined) out[f] = error
  }
  return out
}

/** What create_spot_with_plan would make of the plan fields: days, first and last day, per-day figures. */
export interface PlanPreview {
  days: number
  first: string
  last: string
  /** The first (largest) day's share of each total. */
  est_impression: number
  est_click: number
}

/**
 * The plan a form describes, or null while the start or length is missing or any plan field is
 * refused by its codec (a refused total is never previewed as 0).
 */
export function planPreview(form: SpotForm): PlanPreview | null {
  const read = (f: (typeof PLAN_FIELDS)[number]) => decodeField('plan', f, sentValue('plan', f, form[f]))
  const [begin, duration, imp, clk] = PLAN_FIELDS.map(read)
  if ([begin, duration, imp, clk].some((r) => r!.error !== undefined)) return null
  const first = begin!.value as string | undefined
  const days = duration!.value as number | undefined
  if (first === undefined || days === undefined) return null
  const share = (total: unknown) => evenSplit((total as number | undefined) ?? 0, days)[0] ?? 0
  return { days, first, last: addDays(first, days - 1), est_impression: share(imp!.value), est_click: share(clk!.value) }
}

/** What the spot editor holds: the fields and the keyword rows. */
export interface SpotEditorState {
  form: SpotForm
  keywords: readonly KeywordRow[]
}

/** Whether the editor holds typed changes: a field or a filled keyword row differs from what was loaded. */
export function spotFormChanged(before: SpotEditorState, now: SpotEditorState): boolean {
  if (ALL_FIELDS.some((f) => before.form[f] !== now.form[f])) return true
  const rows = (k: readonly KeywordRow[]) => JSON.stringify(filledRows(k).map((r) => [r.keyword_id ?? null, r.keyword_name, r.landing_page]))
  return rows(before.keywords) !== rows(now.keywords)
}

/** The text a field would be sent as: undefined when not sent. */
function sentValue(mode: SpotMode, field: SpotField, value: string): string | undefined {
  if (value !== '') return value
  return mode === 'update' && NAMES.has(field) ? '' : undefined
}

/**
 * The plan and keyword rules (engine/contract/plan-rules.ts, the engine's own) over the fields
 * the codecs read; a field they refuse counts as not sent, and its codec's message wins.
 */
function planErrors(form: SpotForm, campaign: CampaignDates, keywords: number): SpotErrors {
  const value = <T>(f: SpotField) => decodeField('plan', f, sentValue('plan', f, form[f])).value as T | undefined
  const problems = newPlanProblems({ slot_begin: value('slot_begin'), slot_duration: value('slot_duration'), est_impression: value('est_impression'), est_click: value('est_click') }, campaign)
  const channel = keywords > 0 ? keywordChannelProblem(form.channel_name.trim()) : null
  const out: SpotErrors = {}
  for (const p of channel ? [...problems, channel] : problems) out[p.args.param as SpotField] ??= messageOf(badProblem(p))
  return out
}

/**
 * The problems of a form, by field, in the engine's words (its codecs); `keywords` is the number
 * of keyword rows (keywords have their own checks, keywords.ts).
 */
export function validateSpot(form: SpotForm, mode: SpotMode, campaign: CampaignDates, keywords = 0): SpotErrors {
  const out: SpotErrors = {}
  for (const f of fieldsOf(mode)) {
    const { error } = decodeField(mode, f, sentValue(mode, f, form[f]))
    if (error !== undefined) out[f] = error
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

/**
 * The placement type a new spot's channel implies: `search` on a Bidding channel (a search spot,
 * the only kind that takes keywords: plan-rules.ts), else none, leaving the engine's default
 * (display). The spot editor fills it in while the user has not chosen a type.
 */
export function impliedPlacementType(channel: string): string {
  return isBiddingChannel(channel.trim()) ? 'search' : ''
}
