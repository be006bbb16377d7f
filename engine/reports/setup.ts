/**
 * Shared set-up of the report kernels: which spots a request covers, how an event maps to its
 * spot slot and position cell, and which invalid-traffic classes count for each spot.
 */
import { badParam } from '../contract/errors'
import { checkReportLimit } from '../contract/report-rules'
import type { Limit } from '../contract/params'
import type { ReportAttributes } from '../contract/models-reports'
import type { Partition } from '../measure/columns'
import { IVT } from '../measure/types'
import type { CampaignMeta, SpotMeta } from './meta'

export type PositionKind = 'campaign' | 'publisher' | 'spot' | 'keyword'

export interface Positions {
  n: number
  /** Attributes of each position's rows. */
  attrs: Partial<ReportAttributes>[]
  /** Spots involved in the request (total_spot_num). */
  totalSpots: number
  slotOf: (event: number) => number
  posOf: (event: number) => number
}

export interface PositionFilters {
  publisher_id?: string[] | undefined
  spot_id?: string[] | undefined
  keyword_id?: string[] | undefined
  limit?: Limit | undefined
}

/** Event -> spot slot through a table indexed by spot id (spots of a campaign have close ids). */
function slotLookup(meta: CampaignMeta, part: Partition | undefined): (event: number) => number {
  if (meta.spots.length === 0 || !part) return () => -1
  const min = meta.spots[0]!.spot_id
  const max = meta.spots.at(-1)!.spot_id
  const table = new Int32Array(max - min + 1).fill(-1)
  meta.spots.forEach((s, i) => (table[s.spot_id - min] = i))
  const spot = part.spot
  return (i) => {
    const k = spot[i]! - min
    return k >= 0 && k < table.length ? table[k]! : -1
  }
}

export function positions(meta: CampaignMeta, part: Partition | undefined, kind: PositionKind, f: PositionFilters): Positions {
  const pubs = f.publisher_id?.map(Number)
  const ids = f.spot_id?.map(Number)
  let spots = meta.spots.filter((s) => (!pubs || pubs.includes(s.publisher_id)) && (!ids || ids.includes(s.spot_id)))
  const totalSpots = spots.length
  const slotOf = slotLookup(meta, part)
  const posOfSlot = new Int32Array(meta.spots.length).fill(-1)
  const attrs: Partial<ReportAttributes>[] = []
  const slot = (s: SpotMeta) => meta.slotOf.get(s.spot_id)!
  if (kind === 'publisher') {
    let publishers = [...new Set(spots.map((s) => s.publisher_id))].sort((a, b) => a - b)
    checkReportLimit(f.limit, publishers.length)
    if (f.limit) publishers = publishers.slice(f.limit.offset, f.limit.offset + f.limit.count)
    publishers.forEach((pub, pos) => attrs.push({ publisher_id: String(pub) }))
    for (const s of spots) posOfSlot[slot(s)] = publishers.indexOf(s.publisher_id)
  } else if (kind === 'spot' || kind === 'keyword') {
    checkReportLimit(f.limit, spots.length)
    if (f.limit) spots = spots.slice(f.limit.offset, f.limit.offset + f.limit.count)
    if (kind === 'spot') spots.forEach((s, pos) => ((posOfSlot[slot(s)] = pos), attrs.push(spotAttrs(s))))
  } else {
    attrs.push({})
    for (const s of spots) posOfSlot[slot(s)] = 0
  }
  if (kind === 'keyword') return keywordPositions(meta, part, spots, f.keyword_id, totalSpots, slotOf)
  return { n: attrs.length, attrs, totalSpots, slotOf, posOf: (i) => { const s = slotOf(i); return s < 0 ? -1 : posOfSlot[s]! } }
}

const spotAttrs = (s: SpotMeta) => ({ publisher_id: String(s.publisher_id), spot_id: String(s.spot_id), spot_id_str: s.spot_id_str })

function keywordPositions(meta: CampaignMeta, part: Partition | undefined, spots: SpotMeta[], only: string[] | undefined, totalSpots: number, slotOf: (i: number) => number): Positions {
  const chosen = new Set(spots.map((s) => s.spot_id))
  const keywords = [...meta.keywords].filter(([k, s]) => chosen.has(s) && (!only || only.includes(String(k)))).sort((a, b) => a[0] - b[0])
  const posOfKeyword = new Map(keywords.map(([k], pos) => [k, pos]))
  const bySpot = new Map(spots.map((s) => [s.spot_id, s]))
  const attrs = keywords.map(([k, s]) => ({ ...spotAttrs(bySpot.get(s)!), keyword_id: String(k) }))
  const keyword = part?.keyword
  return { n: attrs.length, attrs, totalSpots, slotOf, posOf: (i) => (keyword ? posOfKeyword.get(keyword[i]!) ?? -1 : -1) }
}

/**
 * Which invalid-traffic classes count, per spot slot (metrics.md): bots never; data-centre hits
 * unless the spot filters dangerous sources; abnormal frequency only in totalnet.
 */
export function acceptTable(meta: CampaignMeta, filtration: 'net' | 'totalnet' | 'none'): Uint8Array {
  const t = new Uint8Array(Math.max(1, meta.spots.length) * 4)
  meta.spots.forEach((s, slot) => {
    t[slot * 4 + IVT.valid] = 1
    t[slot * 4 + IVT.abnormal] = filtration === 'net' ? 0 : 1
    t[slot * 4 + IVT.datacenter] = filtration === 'none' || !s.filtersDatacenter ? 1 : 0
    t[slot * 4 + IVT.bot] = 0
  })
  return t
}

export const platformMask = (platform: string): number => (platform === 'pc' ? 1 : platform === 'mb' ? 2 : 3)

/** Checks region_id against the cells of the level. */
export function checkRegions(ids: readonly string[] | undefined, known: Set<string>, level: string): void {
  for (const id of ids ?? []) if (!known.has(id)) throw badParam('region_id', `'${id}' is not a ${level} region (see /cms/v1/regions/list)`)
}
