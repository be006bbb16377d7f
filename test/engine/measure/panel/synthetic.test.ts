// The panel reports read (docs/panel.md, "Synthetic panels, and an emptied panel")
import { beforeEach, describe, expect, it } from 'vitest'
import { generatePanel } from '../../../../engine/measure/panel/generate'
import { importPersons } from '../../../../engine/measure/panel/import'
import { loadPanel } from '../../../../engine/measure/panel/index'
import { reportPanel, syntheticPanel, syntheticSeed } from '../../../../engine/measure/panel/synthetic'
import { buildRegions } from '../../../../engine/reference/regions'
import type { Db } from '../../../../engine/storage/db'
import { idfa, ndjson, panelDb, person } from './helpers'

const regions = buildRegions()
let db: Db

beforeEach(async () => {
  db = await panelDb()
})

describe('reportPanel', () => {
  it("answers a built-in panel without persons as its synthetic population: the generator's persons of its seed, as they load once stored", () => {
    const p = reportPanel(db, 'china-pm-2026', regions)!
    expect(p).toMatchObject({ panelId: 'china-pm-2026', size: 20_000, synthetic: true })
    generatePanel(db, 'china-pm-2025', 20_000, syntheticSeed('china-pm-2026'))
    const stored = loadPanel(db, 'china-pm-2025', regions)
    expect(stored.synthetic).toBeUndefined()
    for (const k of ['units', 'homeRegion', 'tags', 'platforms'] as const) expect(p[k], k).toEqual(stored[k])
    expect([...p.personOfDevice].sort()).toEqual([...stored.personOfDevice].sort())
    expect(p.unit).toBe(stored.unit)
  })

  it('gives each panel its own population, the same on every call', () => {
    const a = reportPanel(db, 'china-pc-2026', regions)!
    const b = reportPanel(db, 'china-pm-2026', regions)!
    expect(reportPanel(db, 'china-pc-2026', regions)).toBe(a)
    expect([...a.personOfDevice.keys()].some((d) => b.personOfDevice.has(d))).toBe(false)
    expect(syntheticSeed('china-pc-2026')).not.toBe(syntheticSeed('china-pm-2026'))
  })

  it('answers the stored persons as soon as there are any, and null once the user emptied the panel', () => {
    importPersons(db, 'china-pm-2026', ndjson([person('p1', { devices: [{ device: idfa(1), platform: 'mb' }] })]), 'ndjson', 'merge')
    expect(reportPanel(db, 'china-pm-2026', regions)).toMatchObject({ size: 1 })
    importPersons(db, 'china-pm-2026', '', 'ndjson', 'replace')
    expect(reportPanel(db, 'china-pm-2026', regions)).toBeNull()
    // a file of bad lines changes nothing: still emptied
    importPersons(db, 'china-pm-2026', '{"person_id":"x"}\n', 'ndjson', 'replace')
    expect(reportPanel(db, 'china-pm-2026', regions)).toBeNull()
    generatePanel(db, 'china-pm-2026', 100, 1)
    expect(reportPanel(db, 'china-pm-2026', regions)).toMatchObject({ size: 100 })
    importPersons(db, 'china-pm-2026', '', 'ndjson', 'replace')
    expect(reportPanel(db, 'china-pm-2026', regions)).toBeNull()
    importPersons(db, 'china-pm-2026', ndjson([person('p2')]), 'ndjson', 'merge')
    expect(reportPanel(db, 'china-pm-2026', regions)).toMatchObject({ size: 1 })
  })

  it('has no synthetic population for a panel that is not built in', () => {
    expect(syntheticPanel(db, 'remote-panel-7', regions)).toBeNull()
  })
})
