// Loading a stored panel (docs/panel.md, "For developers"): its tags and device map are read at
// their first use, as they are stored, and never for an index whose panel changed since its persons
// were read.
import { beforeEach, describe, expect, it } from 'vitest'
import { generatePanel } from '../../../../engine/measure/panel/generate'
import { importPersons } from '../../../../engine/measure/panel/import'
import { loadPanel, panelCacheOf, type PanelIndex } from '../../../../engine/measure/panel/index'
import type { PersonRecord } from '../../../../engine/measure/panel/person'
import { eachPersonPage } from '../../../../engine/measure/panel/store'
import { buildRegions } from '../../../../engine/reference/regions'
import type { Db } from '../../../../engine/storage/db'
import { ndjson, panelDb, person } from './helpers'

const PANEL = 'china-pm-2026'
const regions = buildRegions()

/** The SQL texts `db` runs from now on (scalar and query), in order. */
function statements(db: Db): string[] {
  const seen: string[] = []
  for (const name of ['scalar', 'query'] as const) {
    const original = db[name].bind(db) as (sql: string, params?: unknown[]) => unknown
    ;(db as unknown as Record<string, unknown>)[name] = (sql: string, params?: unknown[]) => (seen.push(sql), original(sql, params))
  }
  return seen
}

/** The persons as stored, read by eachPersonPage (not by the loader under test). */
function stored(db: Db): PersonRecord[] {
  const records: PersonRecord[] = []
  eachPersonPage(db, PANEL, (page) => records.push(...page))
  return records
}

/** Each person's tags as the index holds them, in tag id order. */
const tagsOf = (panel: PanelIndex): string[][] =>
  Array.from({ length: panel.size }, (_, i) => panel.tagIds.filter((_, b) => (panel.tags[i * panel.tagBytes + (b >> 3)]! & (1 << (b & 7))) !== 0).sort())

let db: Db
beforeEach(async () => {
  db = await panelDb()
  generatePanel(db, PANEL, 500, 3)
})

/** device -> person index of the persons as stored. */
const devicesOf = (records: readonly PersonRecord[]): Map<string, number> => new Map(records.flatMap((p, i) => p.devices.map((d) => [d.device, i] as const)))

/** Each person's platform bits as stored (1: a pc device, 2: a mobile one). */
const platformsOf = (records: readonly PersonRecord[]): number[] =>
  records.map((p) => (p.devices.some((d) => d.platform === 'pc') ? 1 : 0) | (p.devices.some((d) => d.platform === 'mb') ? 2 : 0))

describe('the tags and the device map of a stored panel', () => {
  it('are read at their first use, and are those stored; the persons and platforms at once', () => {
    const records = stored(db)
    const seen = statements(db)
    const panel = loadPanel(db, PANEL, regions)
    const read = (needle: string) => seen.filter((s) => s.includes(needle))
    expect(read('panel_person_tags')).toEqual([])
    expect(read("platform || ' ' || device")).toEqual([])
    expect(panel.personIds).toEqual(records.map((p) => p.person_id))
    expect([...panel.platforms]).toEqual(platformsOf(records))
    expect(tagsOf(panel)).toEqual(records.map((p) => [...p.tags].sort()))
    expect(read('panel_person_tags')).toHaveLength(1)
    expect(panel.tags).toBe(panel.tags)
    expect(read('panel_person_tags')).toHaveLength(1)
    expect(panel.personOfDevice).toEqual(devicesOf(records))
    expect(panel.personOfDevice).toBe(panel.personOfDevice)
    expect(read("platform || ' ' || device")).toHaveLength(1)
  })

  it('are those stored when the persons are read in two pages (over 20,000)', async () => {
    const big = await panelDb()
    generatePanel(big, PANEL, 20_300, 5)
    const records = stored(big)
    const panel = loadPanel(big, PANEL, regions)
    expect(panel.personIds).toEqual(records.map((p) => p.person_id))
    expect([...panel.platforms]).toEqual(platformsOf(records))
    expect(tagsOf(panel)).toEqual(records.map((p) => [...p.tags].sort()))
    expect(panel.personOfDevice).toEqual(devicesOf(records))
  }, 60_000)

  it('are not read for an index whose panel changed since its persons were read', () => {
    const panel = loadPanel(db, PANEL, regions)
    importPersons(db, PANEL, ndjson([person('zz-new', { tags: ['female', '25-29Y'], devices: [{ device: 'idfa:AAAA0000-0000-4000-8000-000000000000', platform: 'mb' }] })]), 'ndjson', 'merge')
    expect(() => panel.tags).toThrow(/changed after its persons were read/)
    expect(() => panel.personOfDevice).toThrow(/changed after its persons were read/)
    // (the cache reads the panel anew, with the new person's tags and device)
    const fresh = panelCacheOf(db).get(db, PANEL, regions)
    const records = stored(db)
    expect(tagsOf(fresh)).toEqual(records.map((p) => [...p.tags].sort()))
    expect(fresh.personOfDevice).toEqual(devicesOf(records))
  })
})
