/**
 * A panel at a glance, for the UI (docs/panel.md): persons, devices, the weighted total, and
 * persons and weight by tag (every tag of the panel, by type) and by province of home region.
 * Weights are rounded to whole persons, half away from zero, after summing. A built-in panel
 * without persons that the user has not emptied is summarized as its synthetic population.
 */
import type { PanelSummary } from '../../contract/models'
import type { Db } from '../../storage/db'
import { tagTypesOf } from '../../storage/repos/reference'
import { hasTag, wholeWeight } from './index'
import type { RegionSeed } from '../../reference/types'
import { provinceOf, regionTree } from './regions'
import { reportPanel } from './synthetic'
import type { PanelIndex } from './types'

/**
 * The summary of a loaded panel, or of the population reports read in its place when it has no
 * persons (`synthetic` says which); `regions` must be the table the panel was loaded with.
 */
export function summarize(db: Db, stored: PanelIndex, regions: readonly RegionSeed[]): PanelSummary {
  const panel = stored.size > 0 ? stored : (reportPanel(db, stored.panelId, regions) ?? stored)
  const tagWeight = new Float64Array(panel.tagIds.length)
  const tagPersons = new Uint32Array(panel.tagIds.length)
  const tree = regionTree(regions)
  const provWeight = new Float64Array(tree.size)
  const provPersons = new Uint32Array(tree.size)
  const provinceCache = new Int32Array(tree.size).fill(-2)
  let total = 0
  for (let i = 0; i < panel.size; i++) {
    const w = panel.units[i]!
    total += w
    for (let b = 0; b < panel.tagIds.length; b++) {
      if (!hasTag(panel, i, b)) continue
      tagWeight[b]! += w
      tagPersons[b]!++
    }
    const r = panel.homeRegion[i]!
    if (provinceCache[r] === -2) provinceCache[r] = provinceOf(regions, r)
    const p = provinceCache[r]!
    if (p < 0) continue
    provWeight[p]! += w
    provPersons[p]!++
  }
  const byType: PanelSummary['by_type'] = {}
  for (const t of tagTypesOf(db, panel.panelId)) byType[t] = []
  panel.tagIds.forEach((tag_id, b) => {
    const list = (byType[panel.tagTypes[b]!] ??= [])
    list.push({ tag_id, persons: tagPersons[b]!, weight: wholeWeight(tagWeight[b]!, panel.unit) })
  })
  const byRegion: PanelSummary['by_region_level1'] = []
  for (let r = 0; r < tree.size; r++) {
    if (tree.level[r] === 1 && provPersons[r]! > 0) byRegion.push({ region_id: tree.ids[r]!, persons: provPersons[r]!, weight: wholeWeight(provWeight[r]!, panel.unit) })
  }
  return { panel_id: panel.panelId, synthetic: panel.synthetic === true, persons: panel.size, devices: panel.personOfDevice.size, weight_total: wholeWeight(total, panel.unit), by_type: byType, by_region_level1: byRegion }
}
