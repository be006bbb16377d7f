// Panel person import (docs/panel.md): per-line checks, one transaction, replace and merge
import { beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../../engine/contract/errors'
import { MAX_IMPORT_PERSONS, MAX_LISTED_ERRORS, importPersons } from '../../../../engine/measure/panel/import'
import type { PersonRecord } from '../../../../engine/measure/panel/person'
import { eachPersonPage, panelVersion } from '../../../../engine/measure/panel/store'
import type { Db } from '../../../../engine/storage/db'
import { REGION, amid, idfa, ndjson, panelDb, person } from './helpers'

const PANEL = 'china-pm-2025'
let db: Db

beforeEach(async () => {
  db = await panelDb()
})

function stored(panelId = PANEL): PersonRecord[] {
  const out: PersonRecord[] = []
  eachPersonPage(db, panelId, (page) => out.push(...page))
  return out
}
const ids = (panelId = PANEL) => stored(panelId).map((p) => p.person_id)

describe('importPersons (NDJSON)', () => {
  it('keeps the good lines and reports each bad one with its line number and reason', () => {
    const text = ndjson([
      person('p1', { devices: [{ device: idfa(1), platform: 'mb' }, { device: amid(1), platform: 'pc' }] }),
      person('p2', { tags: ['male', 'martian'] }),
      person('p3', { tags: ['male', 'female'] }),
      person('p4', { weight: 0 }),
      person('p5', { home_region: '999' }),
      person('p6', { devices: [{ device: idfa(1), platform: 'mb' }] }),
      '{"person_id":"p7","weight":',
      person('p1'),
      person('p8', { weight: -3 }),
      person('p9', { tags: [] }),
    ])
    const r = importPersons(db, PANEL, text, 'ndjson', 'merge')
    expect(r).toMatchObject({ imported: 2, rejected: 8, persons: 2 })
    expect(r.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9])
    const say = Object.fromEntries(r.errors.map((e) => [e.line, e.error]))
    expect(say[2]).toContain("the tag 'martian' is not a tag of panel china-pm-2025")
    expect(say[3]).toContain('two tags of the type gender')
    expect(say[4]).toContain("'weight' must be a number above 0")
    expect(say[5]).toContain("'home_region' 999 is not a region id")
    expect(say[6]).toContain(`the device '${idfa(1)}' is also on line 1`)
    expect(say[7]).toContain('malformed JSON')
    expect(say[8]).toContain("the person_id 'p1' is also on line 1")
    expect(ids()).toEqual(['p1', 'p9'])
    // Stored records come back with tags in tag_id order and devices in device order.
    expect(stored()[0]).toEqual(person('p1', { tags: ['25-29Y', 'male'], devices: [{ device: amid(1), platform: 'pc' }, { device: idfa(1), platform: 'mb' }] }))
  })

  it('skips blank lines, keeps physical line numbers, and reads CRLF and a byte order mark', () => {
    const text = '\uFEFF' + JSON.stringify(person('p1')) + '\r\n\r\n   \r\n' + JSON.stringify(person('p2', { weight: 'x' as unknown as number })) + '\r\n'
    const r = importPersons(db, PANEL, text, 'ndjson', 'merge')
    expect(r).toMatchObject({ imported: 1, rejected: 1, errors: [{ line: 4 }] })
  })

  it('reads a byte order mark at the start of a later line (NDJSON files joined together)', () => {
    const text = `${JSON.stringify(person('p1'))}\n\uFEFF${JSON.stringify(person('p2'))}\n`
    expect(importPersons(db, PANEL, text, 'ndjson', 'merge')).toMatchObject({ imported: 2, rejected: 0 })
  })

  it('lists at most 1000 errors and counts them all', () => {
    const text = ndjson([person('ok'), ...Array.from({ length: 1500 }, () => '{bad')])
    const r = importPersons(db, PANEL, text, 'ndjson', 'merge')
    expect(r.rejected).toBe(1500)
    expect(r.errors).toHaveLength(MAX_LISTED_ERRORS)
    expect(r.imported).toBe(1)
  })

  it('quotes the file briefly in its messages', () => {
    const huge = 'x'.repeat(100_000)
    const r = importPersons(db, PANEL, ndjson([person('a', { tags: [huge] }), `{"person_id":"b","weight":{"a":"${huge}"},"home_region":"r"}`, huge]), 'ndjson', 'merge')
    expect(r.rejected).toBe(3)
    for (const e of r.errors) expect(e.error.length).toBeLessThanOrEqual(301)
  })

  it(`refuses a file of more than ${MAX_IMPORT_PERSONS} persons as a whole, naming the body`, () => {
    const text = 'x\n'.repeat(MAX_IMPORT_PERSONS + 1)
    expect(() => importPersons(db, PANEL, text, 'ndjson', 'merge')).toThrow(ApiError)
    expect(() => importPersons(db, PANEL, text, 'ndjson', 'merge')).toThrow("The 'body' has 500001 persons")
  })

  it('bumps the panel version when it writes, and not when nothing is written', () => {
    const v0 = panelVersion(db, PANEL)
    importPersons(db, PANEL, ndjson([person('p1')]), 'ndjson', 'merge')
    const v1 = panelVersion(db, PANEL)
    expect(v1).not.toBe(v0)
    importPersons(db, PANEL, ndjson(['{bad']), 'ndjson', 'replace')
    expect(panelVersion(db, PANEL)).toBe(v1)
  })
})

describe('importPersons (CSV)', () => {
  const HEADER = 'person_id,weight,home_region,tags,devices'

  it('reads rows through the header and reports short rows', () => {
    const text = [
      HEADER,
      `p1,55000,${REGION.shenzhen},male|25-29Y,mb:${idfa(1)}|pc:${amid(2)}`,
      `p2,1000,${REGION.beijing},female`,
      `"p3",1000,${REGION.beijing},"female|18-24Y",`,
      `p4,1e3,${REGION.guangdong},,`,
      `p5,-3,${REGION.guangdong},,`,
    ].join('\n')
    const r = importPersons(db, PANEL, text, 'csv', 'merge')
    expect(r).toMatchObject({ imported: 3, rejected: 2 })
    expect(r.errors.map((e) => [e.line, e.error])).toEqual([[3, 'has 4 fields, the header has 5'], [6, "'weight' must be a number above 0 and at most 10000000000, got -3"]])
    expect(stored().map((p) => [p.person_id, p.weight, p.tags.length, p.devices.length])).toEqual([['p1', 55000, 2, 2], ['p3', 1000, 2, 0], ['p4', 1000, 0, 0]])
  })

  it('refuses a file without a usable header row as a whole, naming the missing columns', () => {
    expect(() => importPersons(db, PANEL, `p1,1,${REGION.shenzhen},,\n`, 'csv', 'merge')).toThrow(/'body' is not a panel CSV file: the header row lacks the columns person_id, weight, home_region/)
    expect(() => importPersons(db, PANEL, 'person_id,home_region\n', 'csv', 'merge')).toThrow(/lacks the column weight/)
    expect(() => importPersons(db, PANEL, '', 'csv', 'merge')).toThrow(/'body' is empty/)
  })
})

describe('replace and merge', () => {
  beforeEach(() => {
    importPersons(db, PANEL, ndjson([person('a', { devices: [{ device: idfa(1), platform: 'mb' }] }), person('b', { devices: [{ device: idfa(2), platform: 'mb' }] })]), 'ndjson', 'replace')
  })

  it('merge upserts by person_id: the person, its tags and its devices are replaced', () => {
    const r = importPersons(db, PANEL, ndjson([person('b', { weight: 7, tags: ['female'], devices: [] }), person('c')]), 'ndjson', 'merge')
    expect(r).toMatchObject({ imported: 2, rejected: 0, persons: 3 })
    expect(stored().find((p) => p.person_id === 'b')).toEqual(person('b', { weight: 7, tags: ['female'], devices: [] }))
  })

  it('replace deletes the persons the file does not name', () => {
    const r = importPersons(db, PANEL, ndjson([person('c')]), 'ndjson', 'replace')
    expect(r).toMatchObject({ imported: 1, persons: 1 })
    expect(ids()).toEqual(['c'])
  })

  it('replace with a file whose every line is bad changes nothing; an empty file empties the panel', () => {
    expect(importPersons(db, PANEL, ndjson(['{bad']), 'ndjson', 'replace')).toMatchObject({ imported: 0, rejected: 1, persons: 2 })
    expect(importPersons(db, PANEL, '', 'ndjson', 'replace')).toMatchObject({ imported: 0, rejected: 0, persons: 0 })
  })

  it('merge refuses a device of a stored person the file does not replace, and lets one move between replaced persons', () => {
    const r = importPersons(db, PANEL, ndjson([person('c', { devices: [{ device: idfa(1), platform: 'mb' }] })]), 'ndjson', 'merge')
    expect(r.errors).toEqual([{
      line: 1,
      error: `the device '${idfa(1)}' belongs to the person 'a' of panel ${PANEL}; a device belongs to one person`,
      error_problem: { key: 'panelLine.deviceOwner', args: { device: idfa(1), person: 'a', panel: PANEL } },
    }])
    const moved = importPersons(db, PANEL, ndjson([person('a', { devices: [{ device: idfa(2), platform: 'mb' }] }), person('b', { devices: [] })]), 'ndjson', 'merge')
    expect(moved).toMatchObject({ imported: 2, rejected: 0 })
    expect(stored().map((p) => p.devices.map((d) => d.device))).toEqual([[idfa(2)], []])
  })

  it('merge rejects in a chain: a refused line keeps its person\'s stored devices', () => {
    importPersons(db, PANEL, ndjson([person('r', { devices: [{ device: idfa(3), platform: 'mb' }] })]), 'ndjson', 'merge')
    // b gives up idfa(2) only if its own line is taken; it is not (idfa(3) is r's), so a cannot take idfa(2).
    const r = importPersons(db, PANEL, ndjson([person('a', { devices: [{ device: idfa(2), platform: 'mb' }] }), person('b', { devices: [{ device: idfa(3), platform: 'mb' }] })]), 'ndjson', 'merge')
    expect(r).toMatchObject({ imported: 0, rejected: 2 })
    expect(r.errors.map((e) => e.line)).toEqual([1, 2])
    expect(stored().map((p) => p.devices.map((d) => d.device))).toEqual([[idfa(1)], [idfa(2)], [idfa(3)]])
  })

  it('keeps panels apart: the same person and device may be in two panels', () => {
    importPersons(db, 'china-pc-2025', ndjson([person('a', { devices: [{ device: idfa(1), platform: 'mb' }] })]), 'ndjson', 'replace')
    expect(ids('china-pc-2025')).toEqual(['a'])
    expect(ids()).toEqual(['a', 'b'])
  })
})
