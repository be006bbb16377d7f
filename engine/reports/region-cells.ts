/**
 * Region cells of a report (spec §4.4 by_region): level0 has two rows, global (every hit) and
 * mainland China (hits located in the mainland); level1 a row per province-level region (hits in
 * it or its cities); level2 a row per city. A hit counts in at most two cells of a level.
 */
import { regionTable } from '../reference/region-table'

export type RegionLevel = 'level0' | 'level1' | 'level2' | 'level3'

export interface RegionCells {
  /** Region ids of the cells, in report order. */
  ids: string[]
  /** For each region index: its first and second cell (-1: none). */
  first: Int32Array
  second: Int32Array
}

const cache = new Map<string, RegionCells>()

/** The cells of a level, optionally only the listed region ids (which must be of that level). */
export function regionCells(level: RegionLevel, only?: readonly string[]): RegionCells {
  const key = `${level}|${only?.join(',') ?? ''}`
  const hit = cache.get(key)
  if (hit) return hit
  const table = regionTable()
  const index = new Map(table.map((r, i) => [r.region_id, i]))
  const levelNo = level === 'level3' ? 3 : Number(level.slice(5))
  const members = table.map((r, i) => ({ r, i })).filter(({ r }) => r.level === levelNo && (!only || only.includes(r.region_id)))
  const cellOfRegion = new Map(members.map(({ i }, c) => [i, c]))
  const first = new Int32Array(table.length).fill(-1)
  const second = new Int32Array(table.length).fill(-1)
  table.forEach((r, i) => {
    const chain: number[] = []
    for (let at: number | undefined = i; at !== undefined; at = index.get(table[at]!.parent_id)) chain.push(at)
    const cells = chain.map((j) => cellOfRegion.get(j)).filter((c): c is number => c !== undefined)
    first[i] = cells[0] ?? -1
    second[i] = cells[1] ?? -1
  })
  const out = { ids: members.map(({ r }) => r.region_id), first, second }
  if (cache.size > 200) cache.clear()
  cache.set(key, out)
  return out
}

/** Region ids of a level, for checking region_id. */
export function regionIdsOf(level: RegionLevel): Set<string> {
  return new Set(regionCells(level).ids)
}
