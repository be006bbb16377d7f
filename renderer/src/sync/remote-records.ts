/**
 * Pulled records as the offline browser shows them. The engine answers them exactly as the remote
 * did (`any` in the contract), so every member is read defensively. Pure.
 */

type Obj = Record<string, unknown>

const asObj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {})
const asList = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asObj) : [])
const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/** A member of a pulled campaign (sync.campaigns_list's `campaign`) as text, '' when missing. */
export const campaignMember = (item: { campaign: unknown }, key: string): string => text(asObj(item.campaign)[key])

export interface SpotRow {
  spot_id: string
  spot_id_str: string
  publisher_name: string
  channel_name: string
  placement_name: string
  placement_type: string
  keywords: number
  plan_days: number
}

export interface TargetRow {
  target_id: string
  target_name: string
  panel_id: string
  tag_id: string
}

export interface PublisherRow {
  publisher_id: string
  publisher_name: string
}

/** Spots of campaigns/list_spots (with spot_plan and keyword). */
export function spotRows(spots: unknown): SpotRow[] {
  return asList(spots).map((s) => ({
    spot_id: text(s.spot_id), spot_id_str: text(s.spot_id_str), publisher_name: text(s.publisher_name),
    channel_name: text(s.channel_name), placement_name: text(s.placement_name), placement_type: text(s.placement_type),
    keywords: Array.isArray(s.keyword) ? s.keyword.length : 0,
    plan_days: Array.isArray(s.spot_plan) ? s.spot_plan.length : 0,
  }))
}

/** Targets of campaigns/list_targets (with tag_id). */
export function targetRows(targets: unknown): TargetRow[] {
  return asList(targets).map((t) => ({ target_id: text(t.target_id), target_name: text(t.target_name), panel_id: text(t.panel_id), tag_id: text(t.tag_id) }))
}

/** Publishers of campaigns/list_publishers. */
export function publisherRows(publishers: unknown): PublisherRow[] {
  return asList(publishers).map((p) => ({ publisher_id: text(p.publisher_id), publisher_name: text(p.publisher_name) }))
}

/** Campaign members worth a line each, in this order when present. */
const CAMPAIGN_FIELDS = [
  'campaign_id', 'campaign_name', 'start_date', 'end_date', 'advertiser_name', 'brand_name', 'agency_name', 'creator_name',
  'campaign_type', 'slot_type', 'calculation_type', 'linked_panels', 'panel_type', 'order_id', 'scheduling_code', 'description',
] as const

/** The campaign's members as label/value pairs: the known ones first, then any other scalar member. */
export function campaignFields(campaign: unknown): [string, string][] {
  const c = asObj(campaign)
  const known = CAMPAIGN_FIELDS.filter((k) => k in c).map((k) => [k, text(c[k])] as [string, string])
  const others = Object.keys(c)
    .filter((k) => !(CAMPAIGN_FIELDS as readonly string[]).includes(k) && (c[k] === null || typeof c[k] !== 'object'))
    .sort()
    .map((k) => [k, text(c[k])] as [string, string])
  return [...known, ...others]
}

/** Whether a pulled row matches a search text (case-insensitive, any of the given members). */
export function matches(row: object, search: string): boolean {
  const q = search.trim().toLowerCase()
  if (q === '') return true
  return Object.values(row).some((v) => String(v).toLowerCase().includes(q))
}
