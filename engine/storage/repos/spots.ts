/** Spot rows, their keywords and publishers, and the show_spot wire form (spec §2.3). */
import { toBase62 } from '../../contract/base62'
import { E, refuse } from '../../contract/errors'
import { CUSTOMER_FIELDS, SPOT_TEXT_FIELDS, type ShowKeyword, type Spot } from '../../contract/models'
import type { KeywordInput, Limit } from '../../contract/params'
import type { Db, Param } from '../db'
import { Where, ids, idsInOrder, limitSql, orderBy } from './query'

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

/** Deletes a spot; its keywords and plan days go with it (ON DELETE CASCADE), its publisher stays. */
export const deleteSpot = (db: Db, spotId: number): void => void db.run('DELETE FROM spots WHERE spot_id = ?', [spotId])

/** Renames keywords in two steps, so that swapping two names does not trip the (spot, name) uniqueness. */
export function renameKeywords(db: Db, upd: readonly { keyword_id: string; keyword_name: string; landing_page: string }[]): void {
  for (const u of upd) db.run('UPDATE keywords SET keyword_name = ? WHERE keyword_id = ?', [`\u0001${u.keyword_id}`, Number(u.keyword_id)])
  for (const u of upd) db.run('UPDATE keywords SET keyword_name = ?, landing_page = ? WHERE keyword_id = ?', [u.keyword_name, u.landing_page, Number(u.keyword_id)])
}

const LIST_ORDER_COLUMNS = { spot_id: 's.spot_id', publisher_id: 's.publisher_id' }

/** The ids of a campaign's spots a list_spots asks for (spec §4.2), in its order. */
export function spotIdsOfList(db: Db, campaignId: number, p: { publisher_id?: readonly string[] | undefined; spot_id?: readonly string[] | undefined; order_asc?: string | undefined; order_desc?: string | undefined }): number[] {
  const w = new Where().eq('s.campaign_id', campaignId).in('s.publisher_id', ids(p.publisher_id)).in('s.spot_id', ids(p.spot_id))
  return idsInOrder(db, 's.spot_id', SPOT_FROM + w.sql, orderBy(p, LIST_ORDER_COLUMNS, 's.spot_id'), w.params)
}

/** The columns list_spots shows: a third of a spot row, which matters at thousands of spots. */
const LIST_COLUMNS = [
  'spot_id', 'publisher_id', 'channel_name', 'placement_name', 'placement_type', 'report_metrics', 'GUID', 'CAGUID', 'adposition_type',
  'vending_model', 'market', 'customize', 'description', 'landing_page', 'budgetInput', 'dangerous_source_filtration',
  'program_purchasing_type', 'program', 'shop_id',
] as const satisfies readonly (keyof SpotRow)[]
export type ListSpotRow = Pick<SpotRow, (typeof LIST_COLUMNS)[number] | 'publisher_name'>
const LIST_SELECT = `SELECT ${LIST_COLUMNS.map((c) => `s.${c}`).join(', ')}, p.publisher_name ${SPOT_FROM}`

/** The list_spots rows of those of these spots (`list`: their ids joined by commas) that are the campaign's, in no particular order. */
export const listSpotRows = (db: Db, campaignId: number, list: string): ListSpotRow[] =>
  db.query<ListSpotRow>(`${LIST_SELECT} WHERE s.spot_id IN (${list}) AND s.campaign_id = ?`, [campaignId])

/** A spot with its publisher's name, every column, whatever its campaign. */
export const spotWithPublisher = (db: Db, spotId: number): (SpotRow & { publisher_name: string }) | undefined =>
  db.get<SpotRow & { publisher_name: string }>(`${SPOT_SELECT} WHERE s.spot_id = ?`, [spotId])

/** The spots of a campaign by id: what its reports need of each. */
export const spotsOfCampaign = (db: Db, campaignId: number): { spot_id: number; publisher_id: number; dangerous_source_filtration: number }[] =>
  db.query('SELECT spot_id, publisher_id, dangerous_source_filtration FROM spots WHERE campaign_id = ? ORDER BY spot_id', [campaignId])

/** The ids of a campaign's spots, in id order. */
export const spotIdsOfCampaign = (db: Db, campaignId: number): number[] =>
  db.query<{ spot_id: number }>('SELECT spot_id FROM spots WHERE campaign_id = ? ORDER BY spot_id', [campaignId]).map((r) => r.spot_id)

/** The keywords of a campaign's spots as (keyword, spot), by keyword id when `ordered`. */
export const keywordSpotsOfCampaign = (db: Db, campaignId: number, ordered = false): { keyword_id: number; spot_id: number }[] =>
  db.query(`SELECT k.keyword_id, k.spot_id FROM keywords k JOIN spots s ON s.spot_id = k.spot_id WHERE s.campaign_id = ?${ordered ? ' ORDER BY k.keyword_id' : ''}`, [campaignId])

/** A spot as a simulation reads it: its media, metrics and frequency cap. */
export interface SimulatedSpotRow {
  spot_id: number
  publisher_id: number
  publisher_name: string
  channel_name: string
  placement_name: string
  placement_type: string
  adposition_type: string
  report_metrics: string
  freq_capping: string
}

/** A campaign's spots as a simulation reads them, by spot id. */
export const simulatedSpotsOf = (db: Db, campaignId: number): SimulatedSpotRow[] =>
  db.query<SimulatedSpotRow>(
    `SELECT s.spot_id, s.publisher_id, p.publisher_name, s.channel_name, s.placement_name, s.placement_type, s.adposition_type, s.report_metrics, s.freq_capping
     FROM spots s JOIN publishers p ON p.publisher_id = s.publisher_id WHERE s.campaign_id = ? ORDER BY s.spot_id`, [campaignId])

/** The publishers of a campaign's spots a list_publishers asks for (spec §4.2), in its order and page. */
export function publishersOfList(
  db: Db, campaignId: number, p: { publisher_id?: readonly string[] | undefined; limit: Limit; order_asc?: string | undefined; order_desc?: string | undefined },
): { publisher_id: number; publisher_name: string }[] {
  const w = new Where().add('p.publisher_id IN (SELECT publisher_id FROM spots WHERE campaign_id = ?)', campaignId).in('p.publisher_id', ids(p.publisher_id))
  const lim = limitSql(p.limit)
  return db.query<{ publisher_id: number; publisher_name: string }>(
    `SELECT p.publisher_id, p.publisher_name FROM publishers p${w.sql}${orderBy(p, { publisher_id: 'p.publisher_id' }, 'p.publisher_id')}${lim.sql}`,
    [...w.params, ...lim.params],
  )
}
