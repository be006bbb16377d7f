/** Spot rows, their keywords and publishers, and the show_spot wire form (spec §2.3). */
import { toBase62 } from '../../contract/base62'
import { E, refuse } from '../../contract/errors'
import { CUSTOMER_FIELDS, SPOT_TEXT_FIELDS, type ShowKeyword, type Spot } from '../../contract/models'
import type { KeywordInput } from '../../contract/params'
import type { Db, Param } from '../db'

type TextColumn = (typeof SPOT_TEXT_FIELDS)[number] | (typeof CUSTOMER_FIELDS)[number]

/** A spot with its publisher's name. */
export type SpotRow = { [K in TextColumn]: string } & {
  spot_id: number
  campaign_id: number
  publisher_id: number
  linked_siteid: number | null
  budgetInput: string | null
  dangerous_source_filtration: number
}

/** A keyword row (table keywords). */
export interface KeywordRow {
  keyword_id: number
  spot_id: number
  keyword_name: string
  landing_page: string
}

/** Spots `s` with their publishers `p`. */
export const SPOT_FROM = 'FROM spots s JOIN publishers p ON p.publisher_id = s.publisher_id'
/** Every spot column plus publisher_name: a SpotRow. */
export const SPOT_SELECT = `SELECT s.*, p.publisher_name ${SPOT_FROM}`

/**
 * Request names of the text columns that create_spot and update_spot both set, and their
 * columns: the wire names, except guid and caguid, which are stored (and shown) upper-case.
 */
export const SPOT_INPUT_COLUMNS = {
  channel_name: 'channel_name',
  placement_name: 'placement_name',
  placement_type: 'placement_type',
  program_purchasing_type: 'program_purchasing_type',
  program: 'program',
  report_metrics: 'report_metrics',
  market: 'market',
  adposition_type: 'adposition_type',
  vending_model: 'vending_model',
  guid: 'GUID',
  caguid: 'CAGUID',
  customize: 'customize',
  description: 'description',
  landing_page: 'landing_page',
  other_impr_tracking_tag: 'other_impr_tracking_tag',
  shop_id: 'shop_id',
  ...(Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, f])) as { [K in (typeof CUSTOMER_FIELDS)[number]]: K }),
} as const

/** The request values of SPOT_INPUT_COLUMNS, as a partial record. */
export type SpotTextInput = { [K in keyof typeof SPOT_INPUT_COLUMNS]?: string | undefined }

/** Column values for the text inputs that are present (undefined means "not sent"). */
export function textColumns(input: SpotTextInput): Record<string, Param> {
  const out: Record<string, Param> = {}
  for (const [name, column] of Object.entries(SPOT_INPUT_COLUMNS)) {
    const v = input[name as keyof SpotTextInput]
    if (v !== undefined) out[column] = v
  }
  return out
}

/** The spot of a campaign, or invalid_spot_id (spec §7.2); `name`/`shown` word the message. */
export function requireSpot(db: Db, campaignId: number, spotId: string, name = 'spot_id', shown = spotId): SpotRow {
  const row = db.get<SpotRow>(`${SPOT_SELECT} WHERE s.spot_id = ? AND s.campaign_id = ?`, [Number(spotId), campaignId])
  if (!row) throw refuse(E.invalidSpotId, 'param.notFound', { param: name, value: shown })
  return row
}

/** The publisher of that exact name, created when new (publishers are one global registry). */
export function publisherIdFor(db: Db, name: string): number {
  const id = db.scalar<number>('SELECT publisher_id FROM publishers WHERE publisher_name = ?', [name])
  return id ?? db.run('INSERT INTO publishers(publisher_name) VALUES (?)', [name]).lastId
}

/** INSERT of one row from a column record; returns the new rowid. */
export function insertRow(db: Db, table: 'spots', values: Record<string, Param>): number {
  const cols = Object.keys(values)
  return db.run(`INSERT INTO ${table}(${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(values)).lastId
}

/** UPDATE of one spot from a column record. */
export function updateSpotRow(db: Db, spotId: number, values: Record<string, Param>): void {
  const cols = Object.keys(values)
  db.run(`UPDATE spots SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE spot_id = ?`, [...Object.values(values), spotId])
}

/** Inserts keywords in the given order; returns them with their new ids. */
export function insertKeywords(db: Db, spotId: number, list: readonly KeywordInput[]): KeywordRow[] {
  return list.map((k) => ({
    keyword_id: db.run('INSERT INTO keywords(spot_id, keyword_name, landing_page) VALUES (?,?,?)', [spotId, k.keyword_name, k.landing_page]).lastId,
    spot_id: spotId,
    keyword_name: k.keyword_name,
    landing_page: k.landing_page,
  }))
}

const KEYWORD_SELECT = 'SELECT keyword_id, spot_id, keyword_name, landing_page FROM keywords'

/** The keywords of one spot by keyword_id. */
export function keywordsOf(db: Db, spotId: number): KeywordRow[] {
  return db.query<KeywordRow>(`${KEYWORD_SELECT} WHERE spot_id = ? ORDER BY keyword_id`, [spotId])
}

/** The keywords of the spots a sub-select (`SELECT spot_id ...`) picks, in one query. */
export function keywordsIn(db: Db, spotIds: string, params: readonly Param[]): Map<number, KeywordRow[]> {
  return groupBySpot(db.query<KeywordRow>(`${KEYWORD_SELECT} WHERE spot_id IN (${spotIds}) ORDER BY spot_id, keyword_id`, params))
}

/** Rows grouped by their spot_id, order kept. */
export function groupBySpot<T extends { spot_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>()
  for (const r of rows) {
    const list = out.get(r.spot_id)
    if (list) list.push(r)
    else out.set(r.spot_id, [r])
  }
  return out
}

/** A keyword as show_spot, create and update answers carry it. */
export const showKeyword = (k: KeywordRow): ShowKeyword => ({ keyword_id: k.keyword_id, keyword_name: k.keyword_name, landing_page: k.landing_page })

/** Which optional members show_spot adds. */
export interface ShowOptions {
  keywords?: readonly KeywordRow[] | undefined
  budget: boolean
  filtration: boolean
}

/** The show_spot object: every text and customer field; the optional members on request. */
export function toSpot(r: SpotRow, opts: ShowOptions): Spot {
  const out: Record<string, unknown> = {
    spot_id: String(r.spot_id),
    spot_id_str: toBase62(r.spot_id),
    publisher_id: String(r.publisher_id),
    linked_siteid: r.linked_siteid,
  }
  for (const f of SPOT_TEXT_FIELDS) out[f] = r[f]
  for (const f of CUSTOMER_FIELDS) out[f] = r[f]
  if (opts.keywords) out.keyword = opts.keywords.map(showKeyword)
  if (opts.budget) out.budgetInput = r.budgetInput ?? ''
  if (opts.filtration) out.dangerous_source_filtration = r.dangerous_source_filtration
  return out as Spot
}
