/**
 * Panels as the report kernels read them (DESIGN §3.6, docs/panel.md): persons as typed arrays
 * loaded in one pass, a cache that reloads a panel only when its persons changed, target
 * matching by bit tests, and universes (sums of weights of a cell).
 */
import type { Db } from '../../storage/db'
import { PLATFORM_BIT, finish, loadPanel, panelLoad } from './load'
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

/** A load begun page by page (PanelCache.begin), and the panel's version when it began. */
interface Pending {
  load: Generator<void, PanelIndex>
  regions: readonly RegionRow[]
  panelVersion: string
}

/**
 * Loaded panels by panel id. A panel is reloaded when its version in `meta` changed (every write
 * to its persons bumps it); while the database has had no commit at all, not even that is read.
 * A load may be begun ahead and read a page at a time (begin, step: a start does so between the
 * turns of reading the event log); get() reads the rest of it at once, so that a report never
 * reads a half-loaded panel, and drops it when the panel changed since it began.
 */
export class PanelCache {
  private readonly entries = new Map<string, Entry>()
  private readonly pending = new Map<string, Pending>()

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
    const p = this.pending.get(panelId)
    this.pending.delete(panelId)
    const begun = p && p.panelVersion === version && sameRegions(p.regions, regions)
    const index = begun ? finish(p.load) : loadPanel(db, panelId, regions)
    this.entries.set(panelId, { regions, dbVersion: db.version, panelVersion: version, index })
    return index
  }

  /** Begins loading the panel page by page (`pageSize` persons each), unless it is loaded or begun. */
  begin(db: Db, panelId: string, regions: readonly RegionRow[], pageSize: number): void {
    if (this.pending.has(panelId)) return
    const version = panelVersion(db, panelId)
    const e = this.entries.get(panelId)
    if (e && e.panelVersion === version && sameRegions(e.regions, regions)) return
    this.pending.set(panelId, { load: panelLoad(db, panelId, regions, pageSize), regions, panelVersion: version })
  }

  /**
   * Reads the next page of a begun load (the last one makes it the loaded panel). False when
   * nothing is left to do: done, taken by get(), or dropped because the panel changed or the
   * read failed (get() then loads it as usual, and reports a failure).
   */
  step(db: Db, panelId: string): boolean {
    const p = this.pending.get(panelId)
    if (!p) return false
    try {
      if (panelVersion(db, panelId) !== p.panelVersion) {
        this.pending.delete(panelId)
        return false
      }
      const r = p.load.next()
      if (!r.done) return true
      this.pending.delete(panelId)
      this.entries.set(panelId, { regions: p.regions, dbVersion: db.version, panelVersion: p.panelVersion, index: r.value })
    } catch {
      this.pending.delete(panelId)
    }
    return false
  }

  /** Forgets every loaded panel, and every load begun. */
  clear(): void {
    this.entries.clear()
    this.pending.clear()
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
