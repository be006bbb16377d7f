/**
 * Shared set-up of the report kernels: which spots a request covers, how an event maps to its
 * spot slot and position cell, and which invalid-traffic classes count for each spot.
 */
import { badRequest } from '../contract/errors'
import { REPORT_DEFAULT_PAGE, checkReportLimit } from '../contract/report-rules'
import type { Limit } from '../contract/params'
import type { ReportAttributes } from '../contract/models-reports'
import { AD_KINDS, flagTable, type FlagRules, type Selector } from './selector'
import { window, type ReportEnv } from './env'
import { loadCampaignMeta, type CampaignMeta, type SpotMeta } from './meta'
import { regionCells, regionIdsOf, type RegionLevel } from './region-cells'

export type PositionKind = 'campaign' | 'publisher' | 'spot' | 'keyword'

export interface Positions {
  n: number
  /** Attributes of each position's rows. */
  attrs: Partial<ReportAttributes>[]
  /** Spots involved in the request (total_spot_num). */
  totalSpots: number
  /** Lookup tables of the selector (selector.ts). */
  spotBase: number
  spotPos: Int32Array
  spotDc: Uint8Array
  keywordPos: Map<number, number> | null
}

export interface PositionFilters {
  publisher_id?: string[] | undefined
  spot_id?: string[] | undefined
  keyword_id?: string[] | undefined
  limit?: Limit | undefined
}

const spotAttrs = (s: SpotMeta) => ({ publisher_id: String(s.publisher_id), spot_id: String(s.spot_id), spot_id_str: s.spot_id_str })

/** The rows of `limit`, or without one the API's default page (the first REPORT_DEFAULT_PAGE). */
const page = <T>(rows: T[], limit: Limit | undefined): T[] => (limit ? rows.slice(limit.offset, limit.offset + limit.count) : rows.slice(0, REPORT_DEFAULT_PAGE))

/** The positions of a request and the tables that map an event's spot (or keyword) to one. */
export function positions(meta: CampaignMeta, kind: PositionKind, f: PositionFilters): Positions {
  const pubs = f.publisher_id?.map(Number)
  const ids = f.spot_id?.map(Number)
  let spots = meta.spots.filter((s) => (!pubs || pubs.includes(s.publisher_id)) && (!ids || ids.includes(s.spot_id)))
  const totalSpots = spots.length
  const spotBase = meta.spots[0]?.spot_id ?? 0
  const spotPos = new Int32Array(meta.spots.length ? meta.spots.at(-1)!.spot_id - spotBase + 1 : 0).fill(-1)
  const spotDc = new Uint8Array(spotPos.length)
  for (const s of meta.spots) spotDc[s.spot_id - spotBase] = s.filtersDatacenter ? 1 : 0
  const attrs: Partial<ReportAttributes>[] = []
  let keywordPos: Map<number, number> | null = null
  if (kind === 'publisher') {
    let publishers = [...new Set(spots.map((s) => s.publisher_id))].sort((a, b) => a - b)
    checkReportLimit(f.limit, publishers.length, 'publishers')
    publishers = page(publishers, f.limit)
    for (const pub of publishers) attrs.push({ publisher_id: String(pub) })
    for (const s of spots) spotPos[s.spot_id - spotBase] = publishers.indexOf(s.publisher_id)
  } else if (kind === 'spot' || kind === 'keyword') {
    checkReportLimit(f.limit, spots.length)
    spots = page(spots, f.limit)
    spots.forEach((s, pos) => (spotPos[s.spot_id - spotBase] = kind === 'spot' ? pos : 0))
    if (kind === 'spot') for (const s of spots) attrs.push(spotAttrs(s))
    else keywordPos = keywordPositions(meta, spots, f.keyword_id, attrs)
  } else {
    attrs.push({})
    for (const s of spots) spotPos[s.spot_id - spotBase] = 0
  }
  return { n: attrs.length, attrs, totalSpots, spotBase, spotPos, spotDc, keywordPos }
}

function keywordPositions(meta: CampaignMeta, spots: SpotMeta[], only: string[] | undefined, attrs: Partial<ReportAttributes>[]): Map<number, number> {
  const chosen = new Map(spots.map((s) => [s.spot_id, s]))
  const keywords = [...meta.keywords].filter(([k, s]) => chosen.has(s) && (!only || only.includes(String(k)))).sort((a, b) => a[0] - b[0])
  for (const [k, s] of keywords) attrs.push({ ...spotAttrs(chosen.get(s)!), keyword_id: String(k) })
  return new Map(keywords.map(([k], pos) => [k, pos]))
}

/** The selector of a request's positions over a window, with the flag rules. */
export function selector(pos: Positions, from: number, to: number, rules: FlagRules, kinds = AD_KINDS): Selector {
  return { from, to, ...kinds, flagOk: flagTable(rules), spotBase: pos.spotBase, spotPos: pos.spotPos, spotDc: pos.spotDc, keywordPos: pos.keywordPos, eventPos: null }
}

export const platformMask = (platform: string): number => (platform === 'pc' ? 1 : platform === 'mb' ? 2 : 3)

/** Checks region_id against the cells of the level. */
export function checkRegions(ids: readonly string[] | undefined, known: Set<string>, level: string): void {
  for (const id of ids ?? []) if (!known.has(id)) throw badRequest('report.notRegion', { param: 'region_id', value: id, level })
}

/** What the campaign reports (basic, reach) read before counting: one place for the checks and look-ups. */
export interface ScopeParams extends PositionFilters {
  campaign_id: string
  by_position: PositionKind
  by_region: RegionLevel
  region_id?: string[] | undefined
  date: string
  platform: string
}

/** The campaign, its event partition, positions, region cells, day window, platform mask and panel of a request. */
/** The campaign's targets a request asks for: those `target_id` names, else all. */
export const chosenTargets = (meta: CampaignMeta, ids: readonly string[] | undefined): CampaignMeta['targets'] =>
  meta.targets.filter((t) => !ids || ids.includes(String(t.target_id)))

/**
 * The most rows one basic or reach answer holds: about 300 MB of JSON. An answer is built and
 * written whole, and a spot x city breakdown of thousands of spots with `with_null` made one of
 * 2.7 GB that took the server to 3.4 GB and held every other request 22 s. The bench's 67 MiB
 * answer has 64,395 rows.
 */
export const MAX_ANSWER_ROWS = 250_000

/**
 * Refuses an answer of more than MAX_ANSWER_ROWS rows, naming `limit` and how to narrow it: with
 * `with_null` before anything is counted (every cell is a row: positions x regions x audiences),
 * else once the rows with data are known.
 */
export function checkAnswerRows(rows: number, shape: { positions: number; regions: number; audiences: number }): void {
  if (rows <= MAX_ANSWER_ROWS) return
  const of = { param: 'limit', rows, positions: shape.positions, regions: shape.regions, max: MAX_ANSWER_ROWS }
  throw shape.audiences > 1 ? badRequest('report.tooManyRowsTargets', { ...of, targets: shape.audiences }) : badRequest('report.tooManyRows', of)
}

export function campaignScope(env: ReportEnv, p: ScopeParams) {
  const meta = loadCampaignMeta(env.db, p.campaign_id, env.today)
  checkRegions(p.region_id, regionIdsOf(p.by_region), p.by_region)
  const cells = regionCells(p.by_region, p.region_id)
  return {
    meta, part: env.columns.campaign(meta.campaign_id), pos: positions(meta, p.by_position, p), cells, nR: cells.ids.length,
    w: window(meta, p.date), platforms: platformMask(p.platform), panel: env.panel(meta.panel_id),
  }
}
