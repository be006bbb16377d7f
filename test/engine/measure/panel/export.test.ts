// Panel export in the import formats, and the summary (docs/panel.md)
import { beforeAll, describe, expect, it } from 'vitest'
import { exportPersons } from '../../../../engine/measure/panel/export'
import { generatePanel } from '../../../../engine/measure/panel/generate'
import { importPersons } from '../../../../engine/measure/panel/import'
import { loadPanel } from '../../../../engine/measure/panel/index'
import type { PersonRecord } from '../../../../engine/measure/panel/person'
import { eachPersonPage } from '../../../../engine/measure/panel/store'
import { summarize } from '../../../../engine/measure/panel/summary'
import { buildRegions } from '../../../../engine/reference/regions'
import type { Db } from '../../../../engine/storage/db'
import { ndjson, panelDb, person } from './helpers'

const FROM = 'china-pm-2025'
const regions = buildRegions()
let db: Db

beforeAll(async () => {
  db = await panelDb()
  generatePanel(db, FROM, 2000, 3)
})

const summary = (panelId: string) => summarize(db, loadPanel(db, panelId, regions), regions)

describe('exportPersons', () => {
  it.each(['ndjson', 'csv'] as const)('round-trips through %s: the other panel gets an identical summary and export', (format) => {
    const to = format === 'csv' ? 'china-pc-2025' : 'china-pc-2026'
    const file = exportPersons(db, FROM, format, regions)
    const r = importPersons(db, to, file, format, 'replace')
    expect(r).toMatchObject({ imported: 2000, rejected: 0, persons: 2000 })
    expect({ ...summary(to), panel_id: FROM }).toEqual(summary(FROM))
    expect(exportPersons(db, to, format, regions)).toBe(file)
  })

  it('writes tags in panel order and devices in device order, one person a line in person_id order', () => {
    const lines = exportPersons(db, FROM, 'ndjson', regions).trimEnd().split('\n')
    expect(lines).toHaveLength(2000)
    const first = JSON.parse(lines[0]!) as PersonRecord
    expect(first.person_id).toBe('p0000001')
    expect(Object.keys(first)).toEqual(['person_id', 'weight', 'home_region', 'tags', 'devices'])
    const order = db.query<{ tag_id: string }>('SELECT tag_id FROM panel_tags WHERE panel_id = ? ORDER BY ord', [FROM]).map((t) => t.tag_id)
    const positions = first.tags.map((t) => order.indexOf(t))
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    expect(first.tags).toHaveLength(7)
    const devices = first.devices.map((d) => d.device)
    expect(devices).toEqual([...devices].sort())
  })

  it('writes the persons of the synthetic population of a built-in panel never filled: what its reports and summary read', () => {
    const lines = exportPersons(db, 'china-pmo-2026', 'ndjson', regions).trimEnd().split('\n')
    expect(lines).toHaveLength(20_000)
    expect((JSON.parse(lines[0]!) as PersonRecord).person_id).toBe('p0000001')
  })

  it('writes the CSV header row, also for an emptied panel; NDJSON of an emptied panel is empty', () => {
    expect(importPersons(db, 'china-pmo-2026', '', 'ndjson', 'replace')).toMatchObject({ persons: 0 })
    expect(exportPersons(db, 'china-pmo-2026', 'csv', regions)).toBe('person_id,weight,home_region,tags,devices\n')
    expect(exportPersons(db, 'china-pmo-2026', 'ndjson', regions)).toBe('')
    expect(exportPersons(db, FROM, 'csv', regions).split('\n')[0]).toBe('person_id,weight,home_region,tags,devices')
  })
})

describe('summarize', () => {
  it('counts persons and weights by tag and by province as the brute force does', () => {
    const records: PersonRecord[] = []
    eachPersonPage(db, FROM, (page) => records.push(...page))
    const s = summary(FROM)
    expect(s.persons).toBe(2000)
    expect(s.devices).toBe(records.reduce((n, p) => n + p.devices.length, 0))
    expect(s.weight_total).toBe(Math.round(records.reduce((w, p) => w + p.weight, 0)))
    expect(Object.keys(s.by_type)).toEqual(['gender', 'age', 'education', 'income', 'household_income', 'city_tier', 'marital'])
    for (const tags of Object.values(s.by_type)) {
      for (const t of tags) {
        const having = records.filter((p) => p.tags.includes(t.tag_id))
        expect(t).toEqual({ tag_id: t.tag_id, persons: having.length, weight: Math.round(having.reduce((w, p) => w + p.weight, 0)) })
      }
    }
    const province = (region: string) => `${region.slice(0, 20)}0000`
    for (const cell of s.by_region_level1) {
      const having = records.filter((p) => province(p.home_region) === cell.region_id)
      expect(cell).toEqual({ region_id: cell.region_id, persons: having.length, weight: Math.round(having.reduce((w, p) => w + p.weight, 0)) })
    }
    expect(s.by_region_level1.reduce((n, c) => n + c.persons, 0)).toBe(2000)
  })

  it('leaves persons at home in a level-0 region out of the provinces', async () => {
    const mine = await panelDb()
    importPersons(mine, FROM, ndjson([person('a', { home_region: '000000000000000000000008' }), person('b')]), 'ndjson', 'merge')
    const s = summarize(mine, loadPanel(mine, FROM, regions), regions)
    expect(s.by_region_level1).toEqual([{ region_id: '000000000000001156440000', persons: 1, weight: 1000 }])
    expect(s.by_type.gender).toEqual([{ tag_id: 'male', persons: 2, weight: 2000 }, { tag_id: 'female', persons: 0, weight: 0 }])
  })
})
