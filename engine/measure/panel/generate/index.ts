/** The demo panel generator (docs/panel.md): fills a panel with deterministic persons. */
import { badRequest } from '../../../contract/errors'
import type { PanelGenerateResult } from '../../../contract/models'
import type { Db } from '../../../storage/db'
import { panelTagTypes } from '../../../storage/repos/panels'
import { allRegionSeeds } from '../../../storage/repos/reference'
import { bumpPanelVersion, deleteAllPersons, setPanelEmptied, upsertPersons } from '../store'
import { generatePersons } from './persons'
import * as pop from './population'

export { generatePersons } from './persons'
export { INTERNET_POPULATION } from './population'

/** Every tag the generator writes; the panel must have them all (the demo panels do). */
export const GENERATED_TAGS: readonly string[] = [pop.GENDERS, pop.AGES, pop.EDUCATIONS, pop.INCOMES, pop.HOUSEHOLD_INCOMES, pop.TIERS, pop.MARITAL].flat()

/** Replaces the panel's persons with `count` generated ones; the same seed gives the same panel. */
export function generatePanel(db: Db, panelId: string, count: number, seed: number): PanelGenerateResult {
  const have = new Set(panelTagTypes(db, panelId).map((r) => r.tag_id))
  const missing = GENERATED_TAGS.filter((t) => !have.has(t))
  if (missing.length > 0) throw badRequest('panel.demoTags', { param: 'panel_id', panel: panelId, tags: `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}` })
  const regions = allRegionSeeds(db)
  const persons = generatePersons(regions, count, seed)
  db.tx(() => {
    deleteAllPersons(db, panelId)
    upsertPersons(db, panelId, persons, false)
    setPanelEmptied(db, panelId, false)
    bumpPanelVersion(db, panelId)
  })
  let weight = 0
  let devices = 0
  for (const p of persons) {
    weight += p.weight
    devices += p.devices.length
  }
  return { panel_id: panelId, persons: persons.length, devices, weight_total: Math.round(weight) }
}
