/**
 * The panel a report reads (docs/panel.md, "Synthetic panels"): the stored persons when the panel
 * has any; else, for a built-in panel the user has not emptied, a seeded synthetic population of
 * the generator's persons, built in memory (never written: no start-up cost, nothing to migrate)
 * and kept while the process runs; else none.
 */
import { demoReference } from '../../reference/demo'
import type { RegionSeed } from '../../reference/types'
import type { Db } from '../../storage/db'
import { panelTagTypes } from '../../storage/repos/panels'
import { GENERATED_TAGS, generatePersons } from './generate'
import { personsInSlices } from './generate/persons'
import { PLATFORM_BIT, decimalsOf, panelCacheOf } from './index'
import { regionTree } from './regions'
import { panelEmptied } from './store'
import type { PersonRecord } from './person'
import type { PanelIndex } from './types'

/** Persons of a synthetic panel. */
export const SYNTHETIC_PERSONS = 20_000

/**
 * The seed of a panel's synthetic population: FNV-1a of its id. POST /local/v1/panels/generate
 * with this seed and 20,000 persons stores the same persons.
 */
export function syntheticSeed(panelId: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < panelId.length; i++) h = Math.imul(h ^ panelId.charCodeAt(i), 0x01000193) >>> 0
  return h >>> 0
}

let builtIn: Set<string> | null = null
/** The panels every data directory starts with (engine/reference/demo.ts). */
export function isBuiltInPanel(panelId: string): boolean {
  builtIn ??= new Set(demoReference().panels.map((p) => p.panel_id))
  return builtIn.has(panelId)
}

/** Synthetic panels by panel id, with the region table and tags they were built for. */
const synthetic = new Map<string, { regions: readonly RegionSeed[]; tags: string; index: PanelIndex }>()

/**
 * The synthetic population of a built-in panel (null for another panel, or one without the demo
 * tags the generator writes). About 0.3 s for 20,000 persons, once per process and panel.
 */
export function syntheticPanel(db: Db, panelId: string, regions: readonly RegionSeed[]): PanelIndex | null {
  const making = syntheticInSlices(db, panelId, regions)
  let step = making.next()
  while (!step.done) step = making.next()
  return step.value
}

/**
 * syntheticPanel in slices: a pause (a yield) after every PERSONS_SLICE persons made, so that a
 * caller can answer requests between them; the same population, kept the same way.
 */
function* syntheticInSlices(db: Db, panelId: string, regions: readonly RegionSeed[]): Generator<void, PanelIndex | null> {
  if (!isBuiltInPanel(panelId)) return null
  const tagRows = panelTagTypes(db, panelId, true)
  const tags = tagRows.map((t) => `${t.type_id}:${t.tag_id}`).join(',')
  const kept = synthetic.get(panelId)
  if (kept && kept.regions === regions && kept.tags === tags) return kept.index
  const have = new Set(tagRows.map((t) => t.tag_id))
  if (!GENERATED_TAGS.every((t) => have.has(t))) return null
  const persons = yield* personsInSlices(regions, SYNTHETIC_PERSONS, syntheticSeed(panelId))
  const index = buildIndex(panelId, tagRows, regions, persons)
  synthetic.set(panelId, { regions, tags, index })
  return index
}

/**
 * Makes the population reportPanel would make for the panel at its first use (a built-in panel's
 * synthetic one, when it has no stored persons and was not emptied), in slices (a yield between
 * two), and keeps it: the next reportPanel finds it made. simulate/run makes it so, with tracking
 * hits answered between the slices.
 */
export function* panelPopulation(db: Db, panelId: string, regions: readonly RegionSeed[]): Generator<void, void> {
  if (panelCacheOf(db).get(db, panelId, regions).size > 0 || panelEmptied(db, panelId)) return
  yield* syntheticInSlices(db, panelId, regions)
}

/**
 * The persons of the synthetic population a panel's reports read (its export), or null when they
 * read none: stored persons, an emptied panel, not a built-in panel or without the demo tags.
 */
export function syntheticPersons(db: Db, panelId: string, regions: readonly RegionSeed[]): PersonRecord[] | null {
  if (panelEmptied(db, panelId) || syntheticPanel(db, panelId, regions) === null) return null
  return generatePersons(regions, SYNTHETIC_PERSONS, syntheticSeed(panelId))
}

/** The generator's persons of the panel's seed as a PanelIndex, as loadPanel would read them once stored. */
function buildIndex(panelId: string, tagRows: { tag_id: string; type_id: string }[], regions: readonly RegionSeed[], persons: readonly PersonRecord[]): PanelIndex {
  const size = persons.length
  const tagIds = tagRows.map((t) => t.tag_id)
  const tagBit = new Map(tagIds.map((id, i) => [id, i]))
  const tagBytes = Math.max(1, Math.ceil(tagIds.length / 8))
  const indexOfRegion = regionTree(regions).indexOf
  const units = new Float64Array(size)
  const homeRegion = new Uint16Array(size)
  const tags = new Uint8Array(size * tagBytes)
  const platforms = new Uint8Array(size)
  const personOfDevice = new Map<string, number>()
  let decimals = 0
  persons.forEach((p, i) => {
    units[i] = p.weight
    decimals = Math.max(decimals, decimalsOf(String(p.weight)))
    homeRegion[i] = indexOfRegion.get(p.home_region) ?? 0
    for (const t of p.tags) {
      const bit = tagBit.get(t)
      if (bit !== undefined) tags[i * tagBytes + (bit >> 3)]! |= 1 << (bit & 7)
    }
    for (const d of p.devices) {
      platforms[i]! |= d.platform === 'pc' ? PLATFORM_BIT.pc : PLATFORM_BIT.mb
      personOfDevice.set(d.device, i)
    }
  })
  // (the same rule as loadPanel: weights of at most 6 decimals become whole units)
  const unit = decimals <= 6 ? 10 ** decimals : 1
  if (unit > 1) for (let i = 0; i < size; i++) units[i] = Math.round(units[i]! * unit)
  return {
    panelId, size, units, unit, homeRegion, tags, tagBytes, tagIds, tagTypes: tagRows.map((t) => t.type_id), platforms, personOfDevice,
    personIds: persons.map((p) => p.person_id), synthetic: true,
  }
}

/** What reportPanel decided per database and panel, valid while the database has had no commit. */
const decided = new WeakMap<Db, Map<string, { dbVersion: number; regions: readonly RegionSeed[]; index: PanelIndex | null }>>()

/**
 * The panel reports read: its stored persons when it has any, else its synthetic population
 * (a built-in panel the user has not emptied), else null (reports refuse with panel_empty).
 */
export function reportPanel(db: Db, panelId: string, regions: readonly RegionSeed[]): PanelIndex | null {
  let byId = decided.get(db)
  if (!byId) decided.set(db, (byId = new Map()))
  const kept = byId.get(panelId)
  if (kept && kept.dbVersion === db.version && kept.regions === regions) return kept.index
  const stored = panelCacheOf(db).get(db, panelId, regions)
  const index = stored.size > 0 ? stored : panelEmptied(db, panelId) ? null : syntheticPanel(db, panelId, regions)
  byId.set(panelId, { dbVersion: db.version, regions, index })
  return index
}
