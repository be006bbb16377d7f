/**
 * Bulk spot creation from a sheet through batch_create_spot_with_plan (vendor-notes §3.9,
 * docs/spots.md "Batch"): the template, column mapping, per-row checks with the endpoint
 * table's own codecs and the plan rules, the JSON body, and the `item[N]` error of the answer
 * (said on the row's line of the table).
 */
import { BATCH_ITEM, BATCH_MAX_SPOTS } from '../../../engine/contract/endpoints-cms'
import { badProblem } from '../../../engine/contract/errors'
import { describeProblem } from '../../../engine/contract/problems'
import { keywordChannelProblem, newPlanProblems, type CampaignDates, type PlanInput } from '../../../engine/contract/plan-rules'
import { messageOf, paramOfRefusal, problemOf, rememberProblem } from '../api/problems'
import type { Translate } from '../reports/table'
import { dateRange } from './dates'

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

/**
 * Members the keyword and plan rules decide by (besides the totals, which they only count): one
 * that does not read would make them misjudge (a duration that does not read is no duration).
 */
const RULE_INPUTS: readonly string[] = ['channel_name', 'keyword', 'add_slot', 'est_impression_day', 'est_click_day', 'slot_begin', 'slot_duration']

/**
 * The problems of one item: each member through its codec, then the keyword and plan rules of
 * engine/contract/plan-rules.ts, the engine's own, in its words: also when a total does not read
 * (a row's plan dates outside the campaign show beside `est_impression=abc`), not when a member
 * they decide by does not.
 */
export function rowProblems(item: BatchItem, campaign: CampaignDates): RowProblem[] {
  const out: RowProblem[] = []
  const decoded: Record<string, unknown> = {}
  for (const f of BATCH_FIELDS) {
    try {
      decoded[f] = BATCH_ITEM[f].decode(item[f], f)
    } catch (e) {
      out.push({ field: f, message: messageOf(e) })
    }
  }
  if (out.some((p) => p.field !== null && RULE_INPUTS.includes(p.field))) return out
  const failed = new Set(out.map((p) => p.field))
  const channel = item.keyword !== undefined ? keywordChannelProblem(decoded.channel_name as string) : null
  const rules = [...(channel ? [channel] : []), ...newPlanProblems(decoded as PlanInput, campaign)]
    .filter((p) => !failed.has(p.args.param as BatchField))
    .map((p) => ({ field: p.args.param as BatchField, message: messageOf(badProblem(p)) }))
  return [...out, ...rules]
}

/** The JSON body of batch_create_spot_with_plan. */
export function batchBody(campaignId: string, rows: readonly SheetRow[]): { campaign_id: string; spots: BatchItem[] } {
  return { campaign_id: campaignId, spots: rows.map((r) => r.item) }
}

/** The item an answer's refusal is about (problem batch.item: item N from 0, and its own refusal), or null for the request as a whole. */
export function itemError(description: string): { index: number; message: string } | null {
  const keyed = problemOf(description)
  if (keyed?.key !== 'batch.item' || typeof keyed.args.index !== 'number' || typeof keyed.args.reason !== 'object') return null
  const message = describeProblem(keyed.args.reason)
  rememberProblem(message, keyed.args.reason)
  return { index: keyed.args.index, message }
}

/**
 * The alert of a refused batch. "item[N] <sentence>" names item N from 0; the screen names the
 * row by its line in the sheet (the table's first column: the header is line 1 and rows without
 * values are skipped, so neither N nor N+1), so the alert says that line, then the sentence as
 * `say` puts it (utils/form-alert.ts). A refusal of the whole request, or of an item with no row,
 * is the sentence as `say` puts it. `engine` is the engine's own text, for the hover, where the
 * sentence was said otherwise.
 */
export function batchRefusal(text: string, rows: readonly SheetRow[], t: Translate, say: (sentence: string) => string): { shown: string; engine: string | undefined } {
  const item = itemError(text)
  const row = item ? rows[item.index] : undefined
  const sentence = item && row ? item.message : text
  const said = say(sentence)
  const shown = row ? t('campaign.bulk.refusedRow', { line: row.line, message: said }) : t('campaign.bulk.refused', { message: said })
  return { shown, engine: said === sentence ? undefined : text }
}

/** The parameter an engine refusal is about, when it is an item member. */
export function fieldOfMessage(message: string): BatchField | null {
  const name = paramOfRefusal(message)
  return name !== null && (BATCH_FIELDS as readonly string[]).includes(name) ? (name as BatchField) : null
}
