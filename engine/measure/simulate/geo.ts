/**
 * Where simulated hits come from: home cities drawn over the mainland's level-2 cities by online
 * population (panel/generate/cities.ts) times a tier exposure factor, data-centre cities for
 * invalid traffic, and the per-hit location (city, province only, or global).
 */
import type { RegionSeed } from '../../reference/types'
import { cityFrame } from '../panel/generate/cities'
import { AliasTable, type SimRandom } from './random'
import { DATACENTER_CITIES, GLOBAL_SHARE, PROVINCE_ONLY_SHARE, TIER_EXPOSURE } from './distributions'

/** Region index of the global region (region table order). */
export const GLOBAL_REGION = 0
/** Region indices fit in 12 bits (the audience packs them with other traits). */
export const MAX_REGIONS = 4096

/** A region sampler: indices in the region table and a sampler over them. */
interface Choice {
  index: Int32Array
  sampler: AliasTable | null
}

function choice(index: readonly number[], weights: readonly number[]): Choice {
  return { index: Int32Array.from(index), sampler: index.length > 0 ? new AliasTable(weights) : null }
}

/** Home regions and hit locations over one region table. */
export class Geo {
  /** For each region index, the index of its level-1 ancestor (itself for levels 0 and 1). */
  private readonly province: Uint16Array
  private readonly homes: Choice
  private readonly datacenters: Choice
  private readonly fallback: number
  /** Tier exposure factor of each region index (1 where the region is no city of the frame). */
  private readonly exposures: Float64Array

  constructor(regions: readonly RegionSeed[]) {
    if (regions.length > MAX_REGIONS) throw new Error(`the simulator handles at most ${MAX_REGIONS} regions, not ${regions.length}`)
    const indexOf = new Map(regions.map((r, i) => [r.region_id, i]))
    this.province = new Uint16Array(regions.length)
    regions.forEach((r, i) => {
      const parent = indexOf.get(r.parent_id)
      this.province[i] = r.level === 2 && parent !== undefined ? parent : i
    })
    const cities = cityFrame(regions).filter((c) => indexOf.has(c.region_id))
    this.homes = choice(cities.map((c) => indexOf.get(c.region_id)!), cities.map((c) => c.online * TIER_EXPOSURE[c.tier]))
    this.exposures = new Float64Array(regions.length).fill(1)
    for (const c of cities) this.exposures[indexOf.get(c.region_id)!] = TIER_EXPOSURE[c.tier]
    const byCode = new Map(regions.filter((r) => r.level === 2).map((r) => [r.gb_code, indexOf.get(r.region_id)!]))
    const dc = DATACENTER_CITIES.filter(([code]) => byCode.has(code))
    this.datacenters = choice(dc.map(([code]) => byCode.get(code)!), dc.map(([, w]) => w))
    // Without cities (a custom region table), hits are located in mainland China, else global.
    this.fallback = regions.length > 1 && regions[1]!.level === 0 ? 1 : GLOBAL_REGION
  }

  /** A home city for an ordinary identity. */
  home(rng: SimRandom): number {
    const c = this.homes
    return c.sampler ? c.index[c.sampler.draw(rng)]! : this.fallback
  }

  /** The tier exposure factor of a home region (1 when it is not a city of the frame). */
  exposure(region: number): number {
    return this.exposures[region] ?? 1
  }

  /** A data-centre city (invalid traffic). */
  datacenter(rng: SimRandom): number {
    const c = this.datacenters.sampler ? this.datacenters : this.homes
    return c.sampler ? c.index[c.sampler.draw(rng)]! : this.fallback
  }

  /** Where one hit of an identity living in `home` is located, for a uniform `u` in [0, 1). */
  locate(home: number, u: number): number {
    if (u < GLOBAL_SHARE) return GLOBAL_REGION
    if (u < GLOBAL_SHARE + PROVINCE_ONLY_SHARE) return this.province[home]!
    return home
  }
}
