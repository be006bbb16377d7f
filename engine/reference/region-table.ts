/** The region table, built once: the index of a region in it is what events record as their `region`. */
import { buildRegions } from './regions'
import type { RegionSeed } from './types'

let regions: RegionSeed[] | null = null

/** The region table, in index order (the `region` of events indexes it). */
export function regionTable(): RegionSeed[] {
  regions ??= buildRegions()
  return regions
}
