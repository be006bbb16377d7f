/**
 * Where simulated clients live: home cities drawn over the mainland's level-2 cities by online
 * population (panel/generate/cities.ts) times a tier exposure factor. Where a hit is located is
 * the attribution's answer for the client's address (address-book.ts).
 */
import type { RegionSeed } from '../../reference/types'
import { cityFrame } from '../panel/generate/cities'
import { AliasTable, type SimRandom } from './random'
import { TIER_EXPOSURE } from './distributions'

/** Region index of the global region (region table order). */
export const GLOBAL_REGION = 0
/** Region indices fit in 12 bits (the audience packs them with other traits). */
export const MAX_REGIONS = 4096

/** Home regions over one region table. */
export class Geo {
  /** For each region index, the index of its level-1 ancestor (itself for levels 0 and 1). */
  readonly province: Uint16Array
  /** Mainland China's index (global without it): home of clients when the table has no cities. */
  readonly fallback: number
  private readonly index: Int32Array
  private readonly sampler: AliasTable | null
  /** Tier exposure factor of each region index (1 where the region is no city of the frame). */
  private readonly exposures: Float64Array

  constructor(readonly regions: readonly RegionSeed[]) {
    if (regions.length > MAX_REGIONS) throw new Error(`the simulator handles at most ${MAX_REGIONS} regions, not ${regions.length}`)
    const indexOf = new Map(regions.map((r, i) => [r.region_id, i]))
    this.province = new Uint16Array(regions.length)
    regions.forEach((r, i) => {
      const parent = indexOf.get(r.parent_id)
      this.province[i] = r.level === 2 && parent !== undefined ? parent : i
    })
    const cities = cityFrame(regions).filter((c) => indexOf.has(c.region_id))
    this.index = Int32Array.from(cities.map((c) => indexOf.get(c.region_id)!))
    this.sampler = cities.length > 0 ? new AliasTable(cities.map((c) => c.online * TIER_EXPOSURE[c.tier])) : null
    this.exposures = new Float64Array(regions.length).fill(1)
    for (const c of cities) this.exposures[indexOf.get(c.region_id)!] = TIER_EXPOSURE[c.tier]
    this.fallback = regions.length > 1 && regions[1]!.level === 0 ? 1 : GLOBAL_REGION
  }

  /** A home city for a client. */
  home(rng: SimRandom): number {
    return this.sampler ? this.index[this.sampler.draw(rng)]! : this.fallback
  }

  /** The tier exposure factor of a home region (1 when it is not a city of the frame). */
  exposure(region: number): number {
    return this.exposures[region] ?? 1
  }
}
