/**
 * Bulk spot creation from a sheet through batch_create_spot_with_plan (vendor-notes §3.9,
 * docs/spots.md "Batch"): the template, column mapping, per-row checks with the endpoint
 * table's own codecs and the plan rules, the JSON body, and the `item[N]` error of the answer.
 */
import { BATCH_ITEM, BATCH_MAX_SPOTS } from '../../../engine/contract/endpoints-cms'
import { ApiError, paramOfDescription } from '../../../engine/contract/errors'
import { BIDDING_CHANNELS } from '../../../engine/contract/vocabulary'
import { addDays, dateRange } from './dates'

export { BATCH_MAX_SPOTS }

/** A member of a batch item (wire name). */
export type BatchField = keyof typeof BATCH_ITEM
export type BatchItem = Partial<Record<BatchField, string>>

const FIRST: readonly BatchField[] = [
  'publisher_name', 'channel_name', 'placement_name', 'placement_type', 'landing_page', 'report_metrics',
  'add_slot', 'est_impression_day', 'est_click_day', 'slot_begin', 'slot_duration', 'est_impression', 'est_click', 'keyword',
]
/** Every item member, in the template's order (the names and plan first). */
export const BATCH_FIELDS: readonly BatchField[] = [...FIRST, ...(Object.keys(BATCH_ITEM) as BatchField[]).filter((f) => !FIRST.includes(f))]
export const REQUIRED_FIELDS: readonly BatchField[] = ['publisher_name', 'channel_name', 'placement_name']

/** The template sheet: the header and two example rows (a display spot with daily estimates, a keyword spot with totals). */
export function templateRows(campaign: { start_date: string; end_date: string }): string[][] {
  const days = dateRange(campaign.start_date, campaign.end_date)
  const first3 = days.slice(0, 3)
  const week = Math.max(1, Math.min(7, days.length))
  const display: BatchItem = {
    publisher_name: 'Tencent Video', channel_name: 'news', placement_name: 'top banner', placement_type: 'display',
    landing_page: 'https://www.example.com/', add_slot: first3.join(','),
    est_impression_day: first3.map(() => '10000').join(','), est_click_day: first3.map(() => '100').join(','),
  }
  const keyword: BatchItem = {
    publisher_name: 'Baidu', channel_name: 'Bidding word', placement_name: 'search ads', placement_type: 'search',
    slot_begin: campaign.start_date, slot_duration: String(week), est_impression: String(week * 1000), est_click: String(week * 20),
    keyword: 'milk^https://www.example.com/milk>breast milk^',
  }
  return [[...BATCH_FIELDS], ...[display, keyword].map((item) => BATCH_FIELDS.map((f) => item[f] ?? ''))]
}

const norm = (s: string): string => s.trim().toLowerCase().replace(/[\s\-]+/g, '_')

/**
 * The field of each header cell: wire names in any case (GUID, budgetinput), or a name of
 * `aliases` (the editor's labels); null for columns to ignore. A field is taken once.
 */
export function mapColumns(header: readonly string[], aliases: Readonly<Record<string, BatchField>> = {}): (BatchField | null)[] {
  const byName = new Map<string, BatchField>(BATCH_FIELDS.map((f) => [norm(f), f]))
  for (const [label, f] of Object.entries(aliases)) if (!byName.has(norm(label))) byName.set(norm(label), f)
  const taken = new Set<BatchField>()
  return header.map((cell) => {
    const f = byName.get(norm(cell))
    if (f === undefined || taken.has(f)) return null
    taken.add(f)
    return f
  })
}

/** Mapping problems: required fields without a column, fields with two columns. */
export function mappingProblems(mapping: readonly (BatchField | null)[]): { missing: BatchField[]; twice: BatchField[] } {
  const used = mapping.filter((f): f is BatchField => f !== null)
  return {
    missing: REQUIRED_FIELDS.filter((f) => !used.includes(f)),
    twice: [...new Set(used.filter((f, i) => used.indexOf(f) !== i))],
  }
}

/** One data row of the sheet: its line number (1 is the header) and the item it makes. */
export interface SheetRow {
  line: number
  item: BatchItem
}

/** The items of the data rows (after the header); rows without any mapped value are skipped. */
export function sheetItems(rows: readonly (readonly string[])[], mapping: readonly (BatchField | null)[]): SheetRow[] {
  const out: SheetRow[] = []
  rows.forEach((cells, i) => {
    const item: BatchItem = {}
    mapping.forEach((f, c) => {
      const v = (cells[c] ?? '').trim()
      if (f !== null && v !== '') item[f] = v
    })
    if (Object.keys(item).length > 0) out.push({ line: i + 2, item })
  })
  return out
}

/** A problem of one row; `field` is the member it is about when known. */
export interface RowProblem {
  field: BatchField | null
  message: string
}

const listLength = (text: string | undefined): number => (text === undefined ? 0 : text.split(',').length)

function planProblems(item: BatchItem, campaign: { start_date: string; end_date: string }): RowProblem[] {
  const out: RowProblem[] = []
  const add = (field: BatchField, problem: string) => out.push({ field, message: `The '${field}' ${problem}.` })
  const totals = (['slot_begin', 'slot_duration', 'est_impression', 'est_click'] as const).filter((f) => item[f] !== undefined)
  if (item.add_slot !== undefined && totals.length > 0) add('add_slot', `cannot be combined with ${totals.join(', ')}`)
  for (const f of ['est_impression_day', 'est_click_day'] as const) {
    if (item[f] === undefined) continue
    if (item.add_slot === undefined) add(f, 'requires add_slot')
    else if (listLength(item[f]) !== listLength(item.add_slot)) add(f, `has ${listLength(item[f])} values for the ${listLength(item.add_slot)} dates of add_slot`)
  }
  const outside = item.add_slot?.split(',').map((d) => d.trim()).find((d) => d < campaign.start_date || d > campaign.end_date)
  if (outside !== undefined) add('add_slot', `has ${outside}, outside the campaign's dates ${campaign.start_date}..${campaign.end_date}`)
  if (item.add_slot === undefined && (item.slot_begin === undefined) !== (item.slot_duration === undefined))
    add(item.slot_begin === undefined ? 'slot_begin' : 'slot_duration', item.slot_begin === undefined ? 'must be sent together with slot_duration' : 'must be sent together with slot_begin')
  if (item.slot_begin === undefined && item.slot_duration === undefined && item.add_slot === undefined)
    for (const f of ['est_impression', 'est_click'] as const) if (item[f] !== undefined) add(f, 'requires a plan: send slot_begin and slot_duration')
  if (item.slot_begin !== undefined && item.slot_duration !== undefined && /^\d+$/.test(item.slot_duration)) {
    const last = addDays(item.slot_begin, Number(item.slot_duration) - 1)
    if (item.slot_begin < campaign.start_date || item.slot_begin > campaign.end_date) add('slot_begin', `(${item.slot_begin}) lies outside the campaign's dates ${campaign.start_date}..${campaign.end_date}`)
    else if (last > campaign.end_date) add('slot_duration', `(${item.slot_duration} days from ${item.slot_begin}, to ${last}) runs past the campaign's dates ${campaign.start_date}..${campaign.end_date}`)
  }
  return out
}

/** The problems of one item: each member through its codec, then the plan and keyword rules. */
export function rowProblems(item: BatchItem, campaign: { start_date: string; end_date: string }): RowProblem[] {
  const out: RowProblem[] = []
  for (const f of BATCH_FIELDS) {
    try {
      BATCH_ITEM[f].decode(item[f], f)
    } catch (e) {
      out.push({ field: f, message: e instanceof ApiError ? e.message : String(e) })
    }
  }
  if (out.length > 0) return out
  if (item.keyword !== undefined && !(BIDDING_CHANNELS as readonly string[]).includes(item.channel_name ?? ''))
    out.push({ field: 'channel_name', message: `The 'channel_name' must be ${BIDDING_CHANNELS.join(' or ')} for a spot with keywords, got '${item.channel_name ?? ''}'.` })
  return [...out, ...planProblems(item, campaign)]
}

/** The JSON body of batch_create_spot_with_plan. */
export function batchBody(campaignId: string, rows: readonly SheetRow[]): { campaign_id: string; spots: BatchItem[] } {
  return { campaign_id: campaignId, spots: rows.map((r) => r.item) }
}

/** The item an answer's error_description is about (`item[N] …`, N from 0), or null for the request as a whole. */
export function itemError(description: string): { index: number; message: string } | null {
  const m = /^item\[(\d+)\]\s*([\s\S]*)$/.exec(description)
  return m ? { index: Number(m[1]), message: m[2]! } : null
}

/** The parameter an engine message names (`The 'x' …`), when it is an item member. */
export function fieldOfMessage(message: string): BatchField | null {
  const name = paramOfDescription(message)
  return name !== null && (BATCH_FIELDS as readonly string[]).includes(name) ? (name as BatchField) : null
}
