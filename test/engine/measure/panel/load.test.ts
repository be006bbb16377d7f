// Loading a stored panel at a start (docs/panel.md, "Loading" and "At a start"): its tags are read
// at their first use, a load may be begun page by page and finished by a report, and a start reads
// the panels of the campaigns between the turns of its other reading.
import { beforeEach, describe, expect, it } from 'vitest'
import { generatePanel } from '../../../../engine/measure/panel/generate'
import { importPersons } from '../../../../engine/measure/panel/import'
import { PanelCache, loadPanel, panelCacheOf, type PanelIndex } from '../../../../engine/measure/panel/index'
import type { PersonRecord } from '../../../../engine/measure/panel/person'
import { preloadPanels } from '../../../../engine/measure/panel/preload'
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

/** Every field of an index, tags read. */
const whole = (panel: PanelIndex) => ({ ...panel, tags: panel.tags })

let db: Db
beforeEach(async () => {
  db = await panelDb()
  generatePanel(db, PANEL, 500, 3)
})

describe('the tags of a stored panel', () => {
  it('are read at their first use, and are the tags stored', () => {
    const truth = stored(db).map((p) => [...p.tags].sort())
    const seen = statements(db)
    const panel = loadPanel(db, PANEL, regions)
    expect(seen.filter((s) => s.includes('panel_person_tags'))).toEqual([])
    expect(tagsOf(panel)).toEqual(truth)
    expect(seen.filter((s) => s.includes('panel_person_tags'))).toHaveLength(1)
    expect(panel.tags).toBe(panel.tags)
    expect(seen.filter((s) => s.includes('panel_person_tags'))).toHaveLength(1)
  })

  it('are not read for an index whose panel changed since its persons were read', () => {
    const panel = loadPanel(db, PANEL, regions)
    importPersons(db, PANEL, ndjson([person('zz-new', { tags: ['female', '25-29Y'] })]), 'ndjson', 'merge')
    expect(() => panel.tags).toThrow(/changed after its persons were read/)
    // (the cache reads the panel anew, with the new person's tags)
    const fresh = panelCacheOf(db).get(db, PANEL, regions)
    expect(tagsOf(fresh)).toEqual(stored(db).map((p) => [...p.tags].sort()))
  })
})

describe('a load begun page by page', () => {
  it('finished by get() between two pages is the panel loadPanel reads', () => {
    const cache = new PanelCache()
    cache.begin(db, PANEL, regions, 120)
    expect(cache.step(db, PANEL)).toBe(true)
    expect(cache.step(db, PANEL)).toBe(true)
    const seen = statements(db)
    const panel = cache.get(db, PANEL, regions)
    // (the persons of the three pages left: no page read twice)
    expect(seen.filter((s) => s.includes("weight || ' ' || home_region"))).toHaveLength(3)
    expect(whole(panel)).toEqual(whole(loadPanel(db, PANEL, regions)))
    expect(cache.step(db, PANEL)).toBe(false)
    expect(cache.get(db, PANEL, regions)).toBe(panel)
  })

  it('stepped to its end is the panel get() hands out', () => {
    const cache = new PanelCache()
    cache.begin(db, PANEL, regions, 200)
    let steps = 0
    while (cache.step(db, PANEL)) steps++
    expect(steps).toBe(3)
    const seen = statements(db)
    const panel = cache.get(db, PANEL, regions)
    expect(seen.filter((s) => s.includes('FROM panel_persons') || s.includes('FROM panel_devices'))).toEqual([])
    expect(whole(panel)).toEqual(whole(loadPanel(db, PANEL, regions)))
  })

  it('is dropped when the panel is written between two pages: get() reads the panel as written', () => {
    const cache = new PanelCache()
    cache.begin(db, PANEL, regions, 120)
    expect(cache.step(db, PANEL)).toBe(true)
    // (a person whose id sorts first: the page already read would lack it)
    importPersons(db, PANEL, ndjson([person('a-first', { weight: 7, devices: [{ device: 'idfa:AAAA0000-0000-4000-8000-000000000000', platform: 'mb' }] })]), 'ndjson', 'merge')
    expect(cache.step(db, PANEL)).toBe(false)
    const panel = cache.get(db, PANEL, regions)
    expect(panel.size).toBe(501)
    expect(panel.personIds).toEqual(stored(db).map((p) => p.person_id))
    expect(whole(panel)).toEqual(whole(loadPanel(db, PANEL, regions)))
  })
})

describe('preloadPanels', () => {
  const NOW = '2026-01-01T00:00:00.000Z'
  function campaignOf(panelId: string, id: number): void {
    db.tx(() =>
      db.run(
        `INSERT INTO campaigns(campaign_id, campaign_type, campaign_name, start_date, end_date, creator_name, slot_type, platform, calculation_type,
          panel_id, panel_type, linked_iplib, ear, frequency_limit, created_at, updated_at)
         VALUES (?, 'normal', ?, '2025-01-01', '2025-12-31', 'tester', 'normal', 'pm', 'basic', ?, 'pm', 'default', 'x', 0, ?, ?)`,
        [id, `c${id}`, panelId, NOW, NOW],
      ),
    )
  }

  it('reads the stored panels campaigns use into the panel cache, and no other', async () => {
    campaignOf(PANEL, 1)
    campaignOf('china-pc-2025', 2) // (no stored persons)
    generatePanel(db, 'china-pc-2026', 50, 4) // (no campaign)
    await preloadPanels(db, () => regions)
    const seen = statements(db)
    const panel = panelCacheOf(db).get(db, PANEL, regions)
    expect(seen.filter((s) => s.includes('FROM panel_persons') || s.includes('FROM panel_devices'))).toEqual([])
    expect(whole(panel)).toEqual(whole(loadPanel(db, PANEL, regions)))
    panelCacheOf(db).get(db, 'china-pc-2026', regions)
    expect(seen.filter((s) => s.includes('FROM panel_persons'))).not.toEqual([])
  })

  it('leaves nothing half-read when the database is closed meanwhile', async () => {
    campaignOf(PANEL, 1)
    const reading = preloadPanels(db, () => regions)
    db.close()
    await expect(reading).resolves.toBeUndefined()
  })
})
