/** What report builders read: the database, the event columns and the panels. */
import type { Columns } from '../measure/columns'
import type { Identities } from '../measure/identities'
import type { PanelIndex, TargetMatcher } from '../measure/panel/types'
import type { Db } from '../storage/db'
import { dayNumber } from '../time-zone'
import type { CampaignMeta } from './meta'
import type { CensusResult, CensusSpec } from './census'

export interface ReportEnv {
  db: Db
  today: string
  columns: Columns
  identities: Identities
  /** The panel's persons, else a built-in panel's synthetic population, else null (emptied: reports refuse with panel_empty). */
  panel(panelId: string): PanelIndex | null
  /** identity -> person index of a panel (-1: not a person of it). */
  personOf(panel: PanelIndex): Int32Array
  /** A target's tag expression as a matcher over the panel. */
  matcher(panel: PanelIndex, targetId: string, tagExpression: string): TargetMatcher
  /** Whether a person matches. */
  matches(panel: PanelIndex, matcher: TargetMatcher, person: number): boolean
  /** The census of a spec, kept and brought up to date between reports (census-cache.ts). */
  census(spec: CensusSpec): CensusResult
}

/** The accumulation window of a report: campaign start to the earlier of `date` and the end. */
export function window(meta: CampaignMeta, date: string): { from: number; to: number; day: number; days: number } {
  const day = dayNumber(date)
  const to = Math.min(day, meta.end)
  return { from: meta.start, to, day, days: Math.max(0, to - meta.start + 1) }
}

/** Home-region cells of each person of a panel, for a level's cells. */
export function homeCells(panel: PanelIndex | null, first: Int32Array, second: Int32Array): { homeFirst: Int32Array; homeSecond: Int32Array } {
  const n = panel?.size ?? 0
  const homeFirst = new Int32Array(n)
  const homeSecond = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const r = panel!.homeRegion[i]!
    homeFirst[i] = first[r] ?? -1
    homeSecond[i] = second[r] ?? -1
  }
  return { homeFirst, homeSecond }
}

/**
 * Universe of each region cell (metrics.md), in the panel's weight units: the weight of the persons
 * of `audience` (a mask from audienceMask: a device of the platform, and the target if any) whose
 * home is in the cell.
 */
export function universes(panel: PanelIndex | null, cells: { first: Int32Array; second: Int32Array; n: number }, audience: Uint8Array): Float64Array | null {
  if (!panel) return null
  const u = new Float64Array(cells.n)
  for (let i = 0; i < panel.size; i++) {
    if (audience[i] !== 1) continue
    const r = panel.homeRegion[i]!
    const a = cells.first[r]!
    const b = cells.second[r]!
    if (a >= 0) u[a]! += panel.units[i]!
    if (b >= 0) u[b]! += panel.units[i]!
  }
  return u
}

/**
 * 1 for each person of a report cell's audience: a device of the platform(s) (a person's hits
 * on a platform none of their devices is of count for no cell, since the person is in no universe
 * of it) and, with a target's matcher, a match; decided once per person, not per (person, cell) entry.
 */
export function audienceMask(env: ReportEnv, panel: PanelIndex, platforms: number, matcher?: TargetMatcher): Uint8Array {
  const m = new Uint8Array(panel.size)
  for (let q = 0; q < panel.size; q++) m[q] = (panel.platforms[q]! & platforms) !== 0 && (!matcher || env.matches(panel, matcher, q)) ? 1 : 0
  return m
}

