/**
 * Panels loaded at a start (docs/panel.md, "At a start"): the stored panels that campaigns use are
 * read into the panel cache in the background, a page of persons between two turns, while the
 * start reads the event log and waits for its reads; the first report then finds its panel
 * loaded, or reads the rest of it at once (PanelCache.get), never a half-loaded one.
 */
import { nextTurn } from '../../clock'
import type { Db } from '../../storage/db'
import { campaignPanelsWithPersons } from '../../storage/repos/panels'
import { panelCacheOf, type RegionRow } from './index'

/**
 * Persons read a turn, as loadPanel reads a page: smaller pages cost more in all (2,500: 20-30 ms
 * more over 20,000 persons), and a start whose disk is quick has no wait to fill.
 */
const PAGE_A_TURN = 20_000

/**
 * Loads the stored panels of the campaigns into the panel cache, a page a turn; `regions` (the
 * region table) is asked for at the first turn. Never rejects: a read that fails (the database
 * closed meanwhile) leaves the panel to its first report, which reads it and reports the failure.
 */
export async function preloadPanels(db: Db, regions: () => readonly RegionRow[]): Promise<void> {
  await nextTurn()
  try {
    const cache = panelCacheOf(db)
    const table = regions()
    for (const panelId of campaignPanelsWithPersons(db)) {
      cache.begin(db, panelId, table, PAGE_A_TURN)
      while (cache.step(db, panelId)) await nextTurn()
    }
  } catch {
    // (nothing begun is kept half-read: step() dropped it)
  }
}
