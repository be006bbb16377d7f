/**
 * The panel persons repository's page walk: the route tests read panels of at most one page
 * (20,000 persons), so the walk over several pages is checked here with small pages.
 */
import { describe, expect, it } from 'vitest'
import { countPersons, lastPersonIdOfPage, rawPage, upsertPersons } from '../../../engine/storage/repos/panel-persons'
import { panelDb, person } from '../measure/panel/helpers'

const PANEL = 'china-pc-2026'

describe('panel persons repository', () => {
  it('walks a panel page by page: every person once, in person_id order, with its tags and devices', async () => {
    const db = await panelDb()
    // ids written out of order; person_id order is text order: p10 before p2
    const ids = ['p3', 'p10', 'p1', 'p2', 'p7']
    db.tx(() => upsertPersons(db, PANEL, ids.map((id, i) => person(id, { weight: 100 + i, tags: ['male'], devices: [{ platform: 'pc', device: `amid:${id}` }] }))))
    expect(countPersons(db, PANEL)).toBe(5)
    const pages: string[] = []
    for (let after = ''; ; ) {
      const last = lastPersonIdOfPage(db, PANEL, after, 2)
      if (last === undefined) break
      const page = rawPage(db, PANEL, { after, upTo: last })
      pages.push(page.persons)
      expect(page.tags.split(' ').filter((_, i) => i % 2 === 0)).toEqual(page.persons.split(' ').filter((_, i) => i % 3 === 0))
      expect(page.devices).toContain(`amid:${last}`)
      after = last
    }
    const sorted = [...ids].sort()
    expect(pages.map((p) => p.split(' ').filter((_, i) => i % 3 === 0))).toEqual([sorted.slice(0, 2), sorted.slice(2, 4), sorted.slice(4)])
    expect(rawPage(db, PANEL).persons.split(' ').filter((_, i) => i % 3 === 0)).toEqual(sorted)
  })

  it('replaces a person written again, with its tags and devices', async () => {
    const db = await panelDb()
    db.tx(() => upsertPersons(db, PANEL, [person('a', { tags: ['male'], devices: [{ platform: 'pc', device: 'amid:1' }] })]))
    db.tx(() => upsertPersons(db, PANEL, [person('a', { weight: 7.5, tags: ['female'], devices: [] })]))
    expect(rawPage(db, PANEL)).toEqual({ persons: `a 7.5 ${person('a').home_region}`, tags: 'a female', devices: '' })
  })
})
