/**
 * The addresses of a simulation and who shares them (docs/simulator.md, "Addresses"): households
 * of a few clients behind one home broadband address, offices and campuses of many, carrier NAT
 * addresses shared by hundreds of phones, proxies in data centres. Clients of one city fill the
 * city's open group of a kind until it is full; a new group draws a new address from the city's
 * ranges of the IP library (3% from its province's ranges without a city, 1% from abroad).
 */
import { hostingOfNumber } from '../attribute/hosting'
import type { AddressSpace, RangeSet } from './address-space'
import * as d from './distributions'
import type { SimRandom } from './random'

/** Kinds of shared address. */
export const NAT = { household: 0, office: 1, carrier: 2, proxy: 3, foreign: 4 } as const
export type NatKind = (typeof NAT)[keyof typeof NAT]

/** Clients a group of each kind holds: [smallest, largest]. */
const GROUP_SIZE: Readonly<Record<NatKind, readonly [number, number]>> = {
  [NAT.household]: d.HOUSEHOLD_SIZE, [NAT.office]: d.OFFICE_SIZE, [NAT.carrier]: d.CARRIER_NAT_SIZE, [NAT.proxy]: d.PROXY_SIZE, [NAT.foreign]: [1, 1],
}
const KINDS = 5
/** Draws of an ordinary address before one in a hosting network is kept (few ranges of a city are). */
const HOSTING_REDRAWS = 8

/** The addresses handed out (by index), and the open group of each city and kind. */
export class AddressBook {
  /** Address of each index (unsigned 32-bit). */
  private addresses = new Uint32Array(1024)
  private readonly texts: (string | undefined)[] = []
  count = 0
  /** Per city and kind: the index of its open group's address and the places left in it. */
  private readonly open: Int32Array
  private readonly left: Int32Array

  constructor(private readonly space: AddressSpace, private readonly province: Uint16Array, private readonly fallback: number, private readonly rng: SimRandom) {
    this.open = new Int32Array(province.length * KINDS).fill(-1)
    this.left = new Int32Array(province.length * KINDS)
  }

  /**
   * The address of index `i`, written as text: one string an address, so the attribution's caches
   * keyed by it hash it once.
   */
  text(i: number): string {
    let t = this.texts[i]
    if (t === undefined) {
      const a = this.addresses[i]!
      this.texts[i] = t = `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`
    }
    return t
  }

  /** A place in the open group of `kind` in `city` (a new group when it is full); returns the address index. */
  join(city: number, kind: NatKind): number {
    const at = city * KINDS + kind
    if (this.left[at]! <= 0) {
      const [lo, hi] = GROUP_SIZE[kind]
      this.left[at] = lo + Math.floor(this.rng.next() * (hi - lo + 1))
      this.open[at] = this.add(this.draw(city, kind))
    }
    this.left[at] = this.left[at]! - 1
    return this.open[at]!
  }

  private add(address: number): number {
    if (this.count === this.addresses.length) {
      const grown = new Uint32Array(this.addresses.length * 2)
      grown.set(this.addresses)
      this.addresses = grown
    }
    this.addresses[this.count] = address
    this.texts.push(undefined)
    return this.count++
  }

  /** An address for a new group; not in a hosting network (by its AS) unless it is a proxy's. */
  private draw(city: number, kind: NatKind): number {
    if (kind === NAT.proxy && !this.space.datacentre.empty) return this.space.datacentre.draw(this.rng)
    let address = this.drawPlace(city, kind)
    for (let t = 0; t < HOSTING_REDRAWS && hostingOfNumber(address) !== ''; t++) address = this.drawPlace(city, kind)
    return address
  }

  private drawPlace(city: number, kind: NatKind): number {
    const { space, rng } = this
    const u = rng.next()
    if ((kind === NAT.foreign || u < d.GLOBAL_SHARE) && !space.foreign.empty) return space.foreign.draw(rng)
    const own = space.byRegion[city]
    const province = space.byRegion[this.province[city]!]
    const set: RangeSet | undefined = u < d.GLOBAL_SHARE + d.PROVINCE_ONLY_SHARE && province ? province : own ?? province ?? space.byRegion[this.fallback]
    return set && !set.empty ? set.draw(rng) : space.foreign.draw(rng)
  }
}
