/** Campaign rows and their wire form (spec §2.2). */
import { E, refuse } from '../../contract/errors'
import type { ParamsFor } from '../../contract/endpoints'
import type { Campaign } from '../../contract/models'
import type { Db, Param } from '../db'
import { Where, ids, idsInOrder, orderBy } from './query'

export interface CampaignRow {
  campaign_id: number
  campaign_type: string
  campaign_name: string
  start_date: string
  end_date: string
  description: string
  advertiser_id: number | null
  brand_id: number | null
  agency_id: number | null
  wares: string
  wares_advertiser: string
  wares_brand: string
  advertiser_name: string
  brand_name: string
  agency_name: string
  /** Ids of the minisites linked to the campaign, comma-separated, or null. */
  linked_minisites: string | null
  creator_name: string
  slot_type: string
  platform: string
  calculation_type: string
  panel_id: string
  panel_type: string
  linked_siteids: string
  linked_iplib: string
  linked_tvcaids: string
  order_id: string
  scheduling_code: string
  extensiontype: string
  play_detect: number
  ear: string
  freq_capping: number | null
  frequency_limit: number
  ad_campaign_type: string
  status: number
}

/** Campaign status from its dates and today (spec §2.2): 1 not started, 2 in progress, 3 ended. */
export const STATUS_SQL = '(CASE WHEN c.start_date > ?1 THEN 1 WHEN c.end_date < ?1 THEN 3 ELSE 2 END)'

/** Advertiser and brand names: of the linked records, else the ones written in wares. */
export const ADVERTISER_NAME_SQL = 'COALESCE(a.advertiser_name, c.wares_advertiser)'
export const BRAND_NAME_SQL = 'COALESCE(b.brand_name, c.wares_brand)'
export const AGENCY_NAME_SQL = "COALESCE(g.agency_name, '')"

/** The campaign table with its reference names' tables, for WHERE and ORDER BY over names. */
export const JOINS = `FROM campaigns c
LEFT JOIN advertisers a ON a.advertiser_id = c.advertiser_id
LEFT JOIN brands b ON b.brand_id = c.brand_id
LEFT JOIN agencies g ON g.agency_id = c.agency_id`
// vendor-notes §1.8: the minisites whose events the campaign is credited with (index minisite_campaigns_campaign)
const MINISITES_SQL = '(SELECT group_concat(minisite_id) FROM (SELECT minisite_id FROM minisite_campaigns WHERE campaign_id = c.campaign_id ORDER BY minisite_id))'
const NAMES = `${ADVERTISER_NAME_SQL} AS advertiser_name, ${BRAND_NAME_SQL} AS brand_name, ${AGENCY_NAME_SQL} AS agency_name, ${MINISITES_SQL} AS linked_minisites`

/** Whole rows with reference names joined; the first parameter (?1) is today's date. */
export const CAMPAIGN_SELECT = `SELECT c.*, ${NAMES}, ${STATUS_SQL} AS status\n${JOINS}`

const WIRE_COLUMNS = ['campaign_id', 'campaign_type', 'campaign_name', 'start_date', 'end_date', 'description', 'creator_name', 'slot_type', 'calculation_type', 'panel_id', 'linked_siteids', 'linked_iplib']
const PMO_COLUMNS = ['panel_type', 'linked_tvcaids']
const DM_COLUMNS = ['order_id', 'scheduling_code', 'extensiontype', 'play_detect', 'ear', 'freq_capping', 'frequency_limit']

/**
 * Only the columns toCampaign() reads for these options (the first parameter, ?1, is today): sql.js pays per column and row, so a
 * 500-row list costs less than half of selecting every column.
 */
export function wireSelect(opts: { pmo: boolean; dm: boolean }): string {
  const cols = [...WIRE_COLUMNS, ...(opts.pmo ? PMO_COLUMNS : []), ...(opts.dm ? DM_COLUMNS : [])].map((k) => `c.${k}`)
  return `SELECT ${cols.join(', ')}, ${NAMES}, ${STATUS_SQL} AS status\n${JOINS}`
}

export function toCampaign(r: CampaignRow, opts: { pmo: boolean; dm: boolean }): Campaign {
  const out: Campaign = {
    campaign_id: String(r.campaign_id),
    campaign_type: r.campaign_type,
    campaign_name: r.campaign_name,
    start_date: r.start_date,
    end_date: r.end_date,
    description: r.description,
    agency_name: r.agency_name,
    advertiser_name: r.advertiser_name,
    brand_name: r.brand_name,
    creator_name: r.creator_name,
    slot_type: r.slot_type as Campaign['slot_type'],
    calculation_type: r.calculation_type,
    linked_panels: [r.panel_id],
    linked_siteids: r.linked_siteids,
    linked_iplib: r.linked_iplib,
    linked_minisites: r.linked_minisites ? r.linked_minisites.split(',') : [],
  }
  if (opts.pmo) {
    out.panel_type = r.panel_type === 'pmo' ? 1 : 0
    out.linked_tvcaids = JSON.parse(r.linked_tvcaids) as number[]
  }
  if (opts.dm) {
    Object.assign(out, {
      order_id: r.order_id,
      scheduling_code: r.scheduling_code,
      extensiontype: r.extensiontype,
      play_detect: r.play_detect ? 'true' : 'false',
      ear: r.ear,
      // Both net and total-net figures are computed for every campaign here.
      total_net: '是',
      freq_capping: r.freq_capping === null ? '' : String(r.freq_capping),
      frequency_limit: r.frequency_limit,
    })
  }
  return out
}

export function findCampaign(db: Db, id: string | number, today: string): CampaignRow | undefined {
  return db.get<CampaignRow>(`${CAMPAIGN_SELECT} WHERE c.campaign_id = ?2`, [today, Number(id)])
}

/** The campaign, or invalid_campaign_id (spec §7.2). */
export function requireCampaign(db: Db, id: string, today: string): CampaignRow {
  const row = findCampaign(db, id, today)
  if (!row) throw refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: id })
  return row
}

/** The id and name of a campaign, or invalid_campaign_id (spec §7.2): what its spots' tracking tags show of it. */
export function requireCampaignName(db: Db, id: string): Pick<CampaignRow, 'campaign_id' | 'campaign_name'> {
  const row = db.get<Pick<CampaignRow, 'campaign_id' | 'campaign_name'>>('SELECT campaign_id, campaign_name FROM campaigns WHERE campaign_id = ?', [Number(id)])
  if (!row) throw refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: id })
  return row
}

/** Whether a campaign of this id exists. */
export const campaignExists = (db: Db, id: number): boolean => Boolean(db.scalar<number>('SELECT 1 FROM campaigns WHERE campaign_id = ?', [id]))

/** Whether a campaign exists (cheaper than requireCampaign when only existence matters). */
export function assertCampaignExists(db: Db, id: string): void {
  if (!campaignExists(db, Number(id)))
    throw refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: id })
}

/** The id of the campaign of this name, if any. */
export const campaignIdByName = (db: Db, name: string): number | undefined => db.scalar<number>('SELECT campaign_id FROM campaigns WHERE campaign_name = ?', [name])

/** The columns a new campaign is written with (created_at and updated_at are the same time). */
export type NewCampaign = Omit<CampaignRow, 'campaign_id' | 'advertiser_name' | 'brand_name' | 'agency_name' | 'linked_minisites' | 'status'>

/** Inserts a campaign; answers its id. */
export function insertCampaign(db: Db, c: NewCampaign, now: string): number {
  return db.run(
    `INSERT INTO campaigns(campaign_type, campaign_name, start_date, end_date, description, advertiser_id, brand_id, agency_id,
      wares, wares_advertiser, wares_brand, creator_name, slot_type, platform, calculation_type, panel_id, panel_type,
      linked_siteids, linked_iplib, linked_tvcaids, order_id, scheduling_code, extensiontype, play_detect, ear, freq_capping,
      frequency_limit, ad_campaign_type, created_at, updated_at)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    [
      c.campaign_type, c.campaign_name, c.start_date, c.end_date, c.description, c.advertiser_id, c.brand_id, c.agency_id, c.wares, c.wares_advertiser,
      c.wares_brand, c.creator_name, c.slot_type, c.platform, c.calculation_type, c.panel_id, c.panel_type, c.linked_siteids, c.linked_iplib,
      c.linked_tvcaids, c.order_id, c.scheduling_code, c.extensiontype, c.play_detect, c.ear, c.freq_capping, c.frequency_limit, c.ad_campaign_type, now, now,
    ],
  ).lastId
}

/** Sets the given columns of a campaign (names from the caller's own list, never from a request). */
export function updateCampaignColumns(db: Db, campaignId: number, set: Record<string, Param>): void {
  const cols = Object.keys(set)
  db.run(`UPDATE campaigns SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE campaign_id = ?`, [...Object.values(set), campaignId])
}

export const deleteCampaign = (db: Db, campaignId: number): void => void db.run('DELETE FROM campaigns WHERE campaign_id = ?', [campaignId])

/** A spot's plan days that fall outside [start, end]: counted before and after, with the first and last such day. */
export interface PlanOutside {
  spot_id: number
  name: string
  before: number
  first: string
  after: number
  last: string
}

/** The spots of a campaign with plan days outside [start, end], by spot id. */
export function plansOutside(db: Db, campaignId: number, start: string, end: string): PlanOutside[] {
  return db.query<PlanOutside>(
    `SELECT p.spot_id, s.placement_name AS name, SUM(p.date < ?) AS before, MIN(p.date) AS first, SUM(p.date > ?) AS after, MAX(p.date) AS last
     FROM spot_plan p JOIN spots s ON s.spot_id = p.spot_id
     WHERE s.campaign_id = ? AND (p.date < ? OR p.date > ?) GROUP BY p.spot_id ORDER BY p.spot_id`,
    [start, end, campaignId, start, end],
  )
}

const ORDER_COLUMNS = {
  campaign_id: 'c.campaign_id',
  campaign_name: 'c.campaign_name',
  advertiser_name: ADVERTISER_NAME_SQL,
  agency_name: AGENCY_NAME_SQL,
  brand_name: BRAND_NAME_SQL,
  creator_name: 'c.creator_name',
  status: STATUS_SQL,
}

/** The ids of the campaigns a list asks for (spec §4.2), in its order. */
export function campaignIdsOfList(db: Db, p: ParamsFor<'campaigns.list'>, today: string): number[] {
  const w = new Where()
    .in('c.campaign_id', ids(p.campaign_id))
    .in('c.campaign_type', p.campaign_type)
    .pattern('c.campaign_name', p.campaign_name)
    .pattern(ADVERTISER_NAME_SQL, p.advertiser_name)
    .pattern(AGENCY_NAME_SQL, p.agency_name)
    .pattern(BRAND_NAME_SQL, p.brand_name)
    .pattern('c.creator_name', p.creator_name)
    .eq(STATUS_SQL, p.status)
    .eq('c.calculation_type', p.calculation_type)
  return idsInOrder(db, 'c.campaign_id', JOINS + w.sql, orderBy(p, ORDER_COLUMNS, 'c.campaign_id'), w.params, today)
}

/** The rows of these campaigns with the columns toCampaign() reads for `opts`, in no particular order. */
export const campaignRowsByIds = (db: Db, some: readonly number[], opts: { pmo: boolean; dm: boolean }, today: string): CampaignRow[] =>
  db.query<CampaignRow>(`${wireSelect(opts)} WHERE c.campaign_id IN (${some.join(',')})`, [today])

/** The dates and frequency cap of a campaign (what a simulation plans by). */
export const campaignDatesAndCap = (db: Db, campaignId: number): Pick<CampaignRow, 'start_date' | 'end_date' | 'freq_capping'> | undefined =>
  db.get('SELECT start_date, end_date, freq_capping FROM campaigns WHERE campaign_id = ?', [campaignId])

/** The stored row of a campaign, every column as it is (no names joined). */
export const campaignTableRow = <T extends object>(db: Db, campaignId: number): T | undefined => db.get<T>('SELECT * FROM campaigns WHERE campaign_id = ?', [campaignId])
