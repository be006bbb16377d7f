/**
 * Reading a panel's stored persons into a PanelIndex (docs/panel.md, "For developers"): persons
 * and their devices' platforms at once, a page of 20,000 at a time; the tags (the largest table,
 * seven rows a person in the demo panels) and the device map when a report first reads them:
 * basic/show reads neither (the reach and audience reports read the device map, and the tags for
 * a target or the audience).
 */
import type { Db } from '../../storage/db'
import { panelTagTypes } from '../../storage/repos/panels'
import { regionTree, type RegionRow } from './regions'
import { Words, countPersons, devicesText, pageRanges, panelVersion, personsText, platformsText, tagsText, type PersonRange } from './store'
import type { PanelIndex } from './types'

/** Bits of PanelIndex.platforms. */
export const PLATFORM_BIT = { pc: 1, mb: 2 } as const

/** Persons read a page by loadPanel (one page for most panels). */
const PAGE = 20_000

/** The most decimals of weights kept as whole units: a national panel's sums stay below 2^53 units. */
const MAX_DECIMALS = 6

/** Decimal places of a weight as stored (`48210.5`: 1; `2.5e-3`: 4; 17 when unreadable). */
export function decimalsOf(text: string): number {
  const m = /^[0-9]*(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text.trim())
  if (!m) return 17
  const d = (m[1]?.replace(/0+$/, '').length ?? 0) - Number(m[2] ?? 0)
  return Math.max(0, d)
}

/** A page as read: its person range and the index of its first person. */
interface Page {
  range: PersonRange
  first: number
}

/** Reads a panel's persons, tags and devices into a PanelIndex (region indices follow `regions`). */
export function loadPanel(db: Db, panelId: string, regions: readonly RegionRow[]): PanelIndex {
  const tagRows = panelTagTypes(db, panelId, true)
  const version = panelVersion(db, panelId)
  const size = countPersons(db, panelId)
  const indexOfRegion = regionTree(regions).indexOf
  const units = new Float64Array(size)
  let decimals = 0
  const homeRegion = new Uint16Array(size)
  const platforms = new Uint8Array(size)
  const personIds: string[] = []
  const pages: Page[] = []
  for (const range of pageRanges(db, panelId, PAGE)) {
    const first = personIds.length
    pages.push({ range, first })
    for (const w = new Words(personsText(db, panelId, range)); !w.done; ) {
      const i = personIds.length
      personIds.push(w.next())
      const text = w.next()
      units[i] = Number(text)
      // (past MAX_DECIMALS the unit is 1 whatever the other weights hold)
      if (decimals <= MAX_DECIMALS) decimals = Math.max(decimals, decimalsOf(text))
      homeRegion[i] = indexOfRegion.get(w.next()) ?? 0
    }
    const lookup = personLookup(personIds)
    for (const w = new Words(platformsText(db, panelId, range)); !w.done; ) {
      const i = w.indexIn(personIds, first, lookup)
      const platform = w.next()
      if (i >= 0) platforms[i]! |= platform === 'pc' ? PLATFORM_BIT.pc : PLATFORM_BIT.mb
    }
  }
  // Decimal weights become whole units; weights with more decimals (computed ones, as the demo
  // panel's) stay as they are, summed as floats, since whole units would change them.
  const unit = decimals <= MAX_DECIMALS ? 10 ** decimals : 1
  if (unit > 1) for (let i = 0; i < size; i++) units[i] = Math.round(units[i]! * unit)
  const tagIds = tagRows.map((t) => t.tag_id)
  const index = { panelId, size, units, unit, homeRegion, tagBytes: Math.max(1, Math.ceil(tagIds.length / 8)), tagIds, tagTypes: tagRows.map((t) => t.type_id), platforms, personIds }
  // (the persons and the pages are those of `version`: tags or devices of another would not be theirs)
  const unchanged = () => {
    if (panelVersion(db, panelId) !== version) throw new Error(`panel ${panelId} changed after its persons were read: a report reads it anew (PanelCache.get)`)
  }
  readAtFirstUse(index, 'tags', () => (unchanged(), readTags(db, index, pages)))
  readAtFirstUse(index, 'personOfDevice', () => (unchanged(), readDevices(db, panelId, personIds, pages)))
  return index as PanelIndex
}

/**
 * Reads now what loadPanel defers to the first use (the tags, the device map), for a user that
 * holds the index across turns in which the panel may be written (a simulation).
 */
export function readWhole(index: PanelIndex): void {
  // (each getter reads its part and keeps it as a plain property)
  void index.tags
  void index.personOfDevice
}

/** The person index of a person_id, built at the first call (rows out of the cursor's order). */
function personLookup(personIds: readonly string[]): () => ReadonlyMap<string, number> {
  let byId: Map<string, number> | null = null
  return () => (byId ??= new Map(personIds.map((id, i) => [id, i])))
}

/** PanelIndex.tags of the persons of `pages`. */
function readTags(db: Db, panel: Omit<PanelIndex, 'tags' | 'personOfDevice'>, pages: readonly Page[]): Uint8Array {
  const { tagBytes, personIds } = panel
  const tagBit = new Map(panel.tagIds.map((id, i) => [id, i]))
  const tags = new Uint8Array(panel.size * tagBytes)
  const lookup = personLookup(personIds!)
  // Tags come in person_id order, as the persons do: a cursor finds most persons.
  for (const { range, first } of pages) {
    for (const w = new Words(tagsText(db, panel.panelId, range)); !w.done; ) {
      const i = w.indexIn(personIds!, first, lookup)
      const bit = tagBit.get(w.next())
      if (i >= 0 && bit !== undefined) tags[i * tagBytes + (bit >> 3)]! |= 1 << (bit & 7)
    }
  }
  return tags
}

/** PanelIndex.personOfDevice of the persons of `pages`. */
function readDevices(db: Db, panelId: string, personIds: readonly string[], pages: readonly Page[]): Map<string, number> {
  const personOfDevice = new Map<string, number>()
  const lookup = personLookup(personIds)
  for (const { range, first } of pages) {
    for (const w = new Words(devicesText(db, panelId, range)); !w.done; ) {
      const i = w.indexIn(personIds, first, lookup)
      w.next()
      const device = w.next()
      if (i >= 0) personOfDevice.set(device, i)
    }
  }
  return personOfDevice
}

/** Gives `index` the property `key`, read by `read` at its first use and then kept as a plain property. */
export function readAtFirstUse<K extends keyof PanelIndex>(index: Partial<PanelIndex>, key: K, read: () => PanelIndex[K]): void {
  Object.defineProperty(index, key, {
    configurable: true,
    enumerable: true,
    get(this: PanelIndex): PanelIndex[K] {
      const value = read()
      Object.defineProperty(this, key, { value, enumerable: true, writable: false, configurable: false })
      return value
    },
  })
}
