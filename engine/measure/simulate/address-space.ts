/**
 * The IPv4 addresses simulated clients come from, by the IP library's own ranges
 * (attribute/ip-ranges.ts): for each mainland city the ranges the library places there, for each
 * province its ranges without a city, the ranges whose ISP the attribution takes for a hosting
 * provider (data centres), and foreign ranges. Built once per region table, in slices, and
 * shared by every simulation of the process.
 */
import type { RegionSeed } from '../../reference/types'
import { eachIpv4Range } from '../attribute/ip-ranges'
import { isDataCentreIsp } from '../attribute/ivt'
import { PlaceMatcher } from '../attribute/place-matcher'
import type { SimRandom } from './random'
import { firstAbove } from '../search'

/** Ranges to draw from: starts and cumulative sizes (addresses), drawn in proportion to size. */
export class RangeSet {
  private starts: number[] = []
  private cum: number[] = []
  private total = 0

  add(start: number, end: number): void {
    this.starts.push(start)
    this.total += end - start + 1
    this.cum.push(this.total)
  }

  get empty(): boolean {
    return this.total === 0
  }

  /** An address (unsigned 32-bit) drawn uniformly over the set's addresses. */
  draw(rng: SimRandom): number {
    const x = Math.floor(rng.next() * this.total)
    const lo = firstAbove(this.cum, x)
    return this.starts[lo]! + (x - (lo === 0 ? 0 : this.cum[lo - 1]!))
  }
}

const CHINA = new Set(['中国'])

/** The address ranges of one region table. */
export interface AddressSpace {
  /** Ranges of each region index (cities; a province's own: its ranges without a city). */
  byRegion: (RangeSet | undefined)[]
  /** Hosting and cloud ranges located in mainland China. */
  datacentre: RangeSet
  /** Ranges outside China, not hosting. */
  foreign: RangeSet
}

let cached: { regions: readonly RegionSeed[]; space: AddressSpace } | undefined

/** Skips ranges no client has (0/8, private, loopback, link-local, carrier-grade NAT, multicast and reserved). */
function usable(start: number): boolean {
  const a = start >>> 24
  const b = (start >>> 16) & 255
  return !(a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b < 128))
}

/** Ranges of the IP library read between two pauses of addressSpaceInSlices: about 10 ms. */
export const RANGES_SLICE = 40_000

/**
 * The address space of a region table, built on first use in slices: a pause (a yield) after
 * every RANGES_SLICE ranges of the IP library, so that a caller can answer requests between them
 * (the whole takes 0.15-0.25 s); returned at once when built.
 */
export function* addressSpaceInSlices(regions: readonly RegionSeed[]): Generator<void, AddressSpace> {
  if (cached?.regions === regions) return cached.space
  const places = new PlaceMatcher(regions)
  const byRegion: (RangeSet | undefined)[] = new Array<RangeSet | undefined>(regions.length).fill(undefined)
  const datacentre = new RangeSet()
  const foreign = new RangeSet()
  const placeOf = new Map<string, number>()
  const visit = (start: number, end: number, country: string, province: string, city: string, isp: string): void => {
    if (!usable(start)) return
    if (isDataCentreIsp(isp)) {
      if (CHINA.has(country)) datacentre.add(start, end)
      return
    }
    if (!CHINA.has(country)) {
      if (country !== '' && country !== '香港' && country !== '澳门' && country !== '台湾') foreign.add(start, end)
      return
    }
    if (province === '') return
    const text = province + city
    let region = placeOf.get(text)
    if (region === undefined) placeOf.set(text, (region = places.match(text)))
    if (region === places.mainland || region === places.global) return
    ;(byRegion[region] ??= new RangeSet()).add(start, end)
  }
  for (let from = 0, total = Infinity; from < total; from += RANGES_SLICE) {
    if (from > 0) yield
    total = eachIpv4Range(visit, from, RANGES_SLICE)
  }
  const space = { byRegion, datacentre, foreign }
  cached = { regions, space }
  return space
}
