/**
 * Panels as the report kernels read them (DESIGN §3.6, docs/panel.md): persons as typed arrays
 * loaded in one pass, a cache that reloads a panel only when its persons changed, target
 * matching by bit tests, and universes (sums of weights of a cell).
 */
import type { Db } from '../../storage/db'
import { PLATFORM_BIT, loadPanel } from './load'
import type { RegionRow } from './regions'
import { panelVersion } from './store'
import type { PanelIndex, TargetMatcher } from './types'

export type { PanelIndex, TargetMatcher } from './types'
export { insideRegion, provinceOf, regionContains, regionTree, type RegionRow, type RegionTree } from './regions'

export { PLATFORM_BIT, decimalsOf, loadPanel } from './load'

/**
 * A sum of weights in a panel's units (PanelIndex.units) as the whole number a report gives: one
 * division, then half up (docs/metrics.md, "Rounding"), so that an exact x.5 stays one.
 */
export const wholeWeight = (units: number, unit: number): number => Math.round(units / unit)

/** Region tables are compared by their ids: buildRegions() hands out a new array on every call. */
function sameRegions(a: readonly RegionRow[], b: readonly RegionRow[]): boolean {
  return a === b || (a.length === b.length && a.every((r, i) => r.region_id === b[i]!.region_id))
}

interface Entry {
  index: PanelIndex
  regions: readonly RegionRow[]
  dbVersion: number
  panelVersion: string
}

/** Panels kept between starts (kept.ts): a panel as kept when it is the one the database holds. */
export interface PanelKeeper {
  restore(db: Db, panelId: string, regions: readonly RegionRow[], version: string): PanelIndex | null
}

/**
 * Loaded panels by panel id. A panel is reloaded when its version in `meta` changed (every write
 * to its persons bumps it); while the database has had no commit at all, not even that is read.
 * With a `keeper`, a panel not loaded yet is first asked of it (what a start kept).
 */
export class PanelCache {
  private readonly entries = new Map<string, Entry>()
  keeper: PanelKeeper | null = null
  /** Whether a panel was read from the database (loadPanel) since the cache was made: kept panels would not hold it. */
  readSinceStart = false

  get(db: Db, panelId: string, regions: readonly RegionRow[]): PanelIndex {
    const e = this.entries.get(panelId)
    if (e && sameRegions(e.regions, regions)) {
      if (e.dbVersion === db.version) return e.index
      const version = panelVersion(db, panelId)
      if (version === e.panelVersion) {
        e.dbVersion = db.version
        return e.index
      }
    }
    const version = panelVersion(db, panelId)
    let index = e ? null : (this.keeper?.restore(db, panelId, regions, version) ?? null)
    if (!index) {
      index = loadPanel(db, panelId, regions)
      this.readSinceStart = true
    }
    const entry: Entry = { regions, dbVersion: db.version, panelVersion: version, index }
    this.entries.delete(panelId)
    this.entries.set(panelId, entry)
    return entry.index
  }

  /** The loaded panels that are the database's now (`version` as in `meta`), the ones loaded last first. */
  current(db: Db): { index: PanelIndex; version: string; regions: readonly RegionRow[] }[] {
    return [...this.entries.values()].reverse().filter((e) => panelVersion(db, e.index.panelId) === e.panelVersion).map((e) => ({ index: e.index, version: e.panelVersion, regions: e.regions }))
  }

  /** Forgets every loaded panel. */
  clear(): void {
    this.entries.clear()
  }
}

const caches = new WeakMap<Db, PanelCache>()

/** The panel cache of a database (one per open database, shared by routes and reports). */
export function panelCacheOf(db: Db): PanelCache {
  let c = caches.get(db)
  if (!c) {
    c = new PanelCache()
    caches.set(db, c)
  }
  return c
}

/**
 * A target's tag expression (as publish_target stores it: tags joined by `,` in groups joined
 * by `&`) as a matcher over the panel. A tag the panel does not have never matches: a group left
 * without tags makes the target match nobody.
 */
export function matchTarget(panel: PanelIndex, tagExpression: string, targetId = ''): TargetMatcher {
  const bit = new Map(panel.tagIds.map((id, i) => [id, i]))
  const groups = tagExpression.split('&').map((g) =>
    g.split(',').map((t) => t.trim()).filter((t) => t !== '').flatMap((t) => {
      const b = bit.get(t)
      return b === undefined ? [] : [b]
    }),
  )
  return { targetId, groups }
}

/** True when the person carries tag `bit`. */
export function hasTag(panel: PanelIndex, person: number, bit: number): boolean {
  return (panel.tags[person * panel.tagBytes + (bit >> 3)]! & (1 << (bit & 7))) !== 0
}

/** True when the person carries, in every group, one of the group's tags. */
export function matches(panel: PanelIndex, matcher: TargetMatcher, person: number): boolean {
  const base = person * panel.tagBytes
  for (const group of matcher.groups) {
    let any = false
    for (const bit of group) {
      if ((panel.tags[base + (bit >> 3)]! & (1 << (bit & 7))) !== 0) {
        any = true
        break
      }
    }
    if (!any) return false
  }
  return true
}

/** A report's platform: pc, mb, or pm (both). */
export type UniversePlatform = 'pc' | 'mb' | 'pm'

/** True when the person has a device of the platform (pm: any device). */
export function onPlatform(panel: PanelIndex, person: number, platform: UniversePlatform): boolean {
  const bits = panel.platforms[person]!
  return platform === 'pm' ? bits !== 0 : (bits & PLATFORM_BIT[platform]) !== 0
}

/** Which persons a universe sums. */
export interface UniverseOptions {
  /** Only persons of this target (all persons when absent). */
  matcher?: TargetMatcher
  /** Home regions of the cell, by region index (see insideRegion). */
  regionFilter: (regionIndex: number) => boolean
  platform: UniversePlatform
}

/** The cell's universe: the sum of the weights of its persons, and how many they are. */
export function universe(panel: PanelIndex, opts: UniverseOptions): { weight: number; persons: number } {
  let weight = 0
  let persons = 0
  for (let i = 0; i < panel.size; i++) {
    if (!onPlatform(panel, i, opts.platform) || !opts.regionFilter(panel.homeRegion[i]!)) continue
    if (opts.matcher && !matches(panel, opts.matcher, i)) continue
    weight += panel.units[i]!
    persons++
  }
  return { weight: weight / panel.unit, persons }
}
