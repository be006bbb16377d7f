/**
 * Panels as the report kernels read them (DESIGN §3.6, docs/panel.md): persons as typed arrays
 * loaded in one pass, a cache that reloads a panel only when its persons changed, target
 * matching by bit tests, and universes (sums of weights of a cell).
 */
import type { Db } from '../../storage/db'
import { panelTagTypes } from '../../storage/repos/panels'
import { regionTree, type RegionRow } from './regions'
import { Words, countPersons, eachRawPage, panelVersion } from './store'
import type { PanelIndex, TargetMatcher } from './types'

export type { PanelIndex, TargetMatcher } from './types'
export { insideRegion, provinceOf, regionContains, regionTree, type RegionRow, type RegionTree } from './regions'

/** Bits of PanelIndex.platforms. */
export const PLATFORM_BIT = { pc: 1, mb: 2 } as const

/** Reads a panel's persons, tags and devices into a PanelIndex (region indices follow `regions`). */
export function loadPanel(db: Db, panelId: string, regions: readonly RegionRow[]): PanelIndex {
  const tagRows = panelTagTypes(db, panelId, true)
  const tagIds = tagRows.map((t) => t.tag_id)
  const tagBit = new Map(tagIds.map((id, i) => [id, i]))
  const tagBytes = Math.max(1, Math.ceil(tagIds.length / 8))
  const size = countPersons(db, panelId)
  const indexOfRegion = regionTree(regions).indexOf
  const units = new Float64Array(size)
  let decimals = 0
  const homeRegion = new Uint16Array(size)
  const tags = new Uint8Array(size * tagBytes)
  const platforms = new Uint8Array(size)
  const personOfDevice = new Map<string, number>()
  const personIds: string[] = []
  eachRawPage(db, panelId, (page) => {
    const first = personIds.length
    for (const w = new Words(page.persons); !w.done; ) {
      const i = personIds.length
      personIds.push(w.next())
      const text = w.next()
      units[i] = Number(text)
      decimals = Math.max(decimals, decimalsOf(text))
      homeRegion[i] = indexOfRegion.get(w.next()) ?? 0
    }
    // Tags and devices come in person_id order, as the persons do: a cursor finds most persons.
    let byId: Map<string, number> | null = null
    const lookup = () => (byId ??= new Map(personIds.map((id, i) => [id, i])))
    for (const w = new Words(page.tags); !w.done; ) {
      const i = w.indexIn(personIds, first, lookup)
      const bit = tagBit.get(w.next())
      if (i >= 0 && bit !== undefined) tags[i * tagBytes + (bit >> 3)]! |= 1 << (bit & 7)
    }
    for (const w = new Words(page.devices); !w.done; ) {
      const i = w.indexIn(personIds, first, lookup)
      const platform = w.next()
      const device = w.next()
      if (i < 0) continue
      platforms[i]! |= platform === 'pc' ? PLATFORM_BIT.pc : PLATFORM_BIT.mb
      personOfDevice.set(device, i)
    }
  })
  // Decimal weights become whole units; weights with more decimals (computed ones, as the demo
  // panel's) stay as they are, summed as floats, since whole units would change them.
  const unit = decimals <= MAX_DECIMALS ? 10 ** decimals : 1
  if (unit > 1) for (let i = 0; i < size; i++) units[i] = Math.round(units[i]! * unit)
  return { panelId, size, units, unit, homeRegion, tags, tagBytes, tagIds, tagTypes: tagRows.map((t) => t.type_id), platforms, personOfDevice, personIds }
}

/**
 * A sum of weights in a panel's units (PanelIndex.units) as the whole number a report gives: one
 * division, then half up (docs/metrics.md, "Rounding"), so that an exact x.5 stays one.
 */
export const wholeWeight = (units: number, unit: number): number => Math.round(units / unit)

/** The most decimals of weights kept as whole units: a national panel's sums stay below 2^53 units. */
const MAX_DECIMALS = 6

/** Decimal places of a weight as stored (`48210.5`: 1; `2.5e-3`: 4; 17 when unreadable). */
export function decimalsOf(text: string): number {
  const m = /^[0-9]*(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text.trim())
  if (!m) return 17
  const d = (m[1]?.replace(/0+$/, '').length ?? 0) - Number(m[2] ?? 0)
  return Math.max(0, d)
}

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

/**
 * Loaded panels by panel id. A panel is reloaded when its version in `meta` changed (every write
 * to its persons bumps it); while the database has had no commit at all, not even that is read.
 */
export class PanelCache {
  private readonly entries = new Map<string, Entry>()

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
    const entry: Entry = { regions, dbVersion: db.version, panelVersion: panelVersion(db, panelId), index: loadPanel(db, panelId, regions) }
    this.entries.set(panelId, entry)
    return entry.index
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
