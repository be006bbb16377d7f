/**
 * The hits of one hour slot as parallel typed arrays, filled in any order and read back in time
 * order (a stable radix sort of their offsets in the slot), or in identity order: no per-hit objects.
 */
import { ensure } from '../grow'
import { RadixSorter } from './radix'
import type { IvtClass, Kind, PlatformCode, SdkCode } from '../types'

/** Kind of a buffered impression that is not emitted (it only leads to clicks). */
export const HIDDEN = 0

/** Flags byte of a buffered hit: kind (bits 0-1), platform (2), ivt (3-4), sdk (5-6). */
export const packHit = (kind: number, platform: number, ivt: number, sdk: number): number => kind | (platform << 2) | (ivt << 3) | (sdk << 5)
export const hitKind = (f: number): Kind | typeof HIDDEN => (f & 3) as Kind | typeof HIDDEN
export const hitPlatform = (f: number): PlatformCode => ((f >> 2) & 1) as PlatformCode
export const hitIvt = (f: number): IvtClass => ((f >> 3) & 3) as IvtClass
export const hitSdk = (f: number): SdkCode => ((f >> 5) & 3) as SdkCode

/** Offsets in a slot stay below 2^22 ms (70 minutes: a slot is at most an hour), two radix passes. */
const MAX_OFFSET = 1 << 22

/** The hits of the current slot, one typed array per attribute. */
export class SlotBuffer {
  n = 0
  flags = new Uint8Array(1024)
  ts = new Float64Array(1024)
  identity = new Int32Array(1024)
  spot = new Int32Array(1024)
  keyword = new Int32Array(1024)
  region = new Uint16Array(1024)
  /** The attributed state of each hit's request (states.ts), set when it is emitted. */
  state = new Int32Array(1024)
  private readonly byTime = new RadixSorter()
  private readonly byIdentityOrder = new RadixSorter()

  reset(): void {
    this.n = 0
  }

  /** Room for `more` hits beyond the current ones. */
  reserve(more: number): void {
    const need = this.n + more
    if (need <= this.ts.length) return
    this.flags = ensure(this.flags, need)
    this.ts = ensure(this.ts, need)
    this.identity = ensure(this.identity, need)
    this.spot = ensure(this.spot, need)
    this.keyword = ensure(this.keyword, need)
    this.region = ensure(this.region, need)
    this.state = ensure(this.state, need)
  }

  /** Appends a hit; call reserve() first. */
  add(flags: number, ts: number, identity: number, spot: number, keyword: number, region: number): void {
    const i = this.n++
    this.flags[i] = flags
    this.ts[i] = ts
    this.identity[i] = identity
    this.spot[i] = spot
    this.keyword[i] = keyword
    this.region[i] = region
  }

  /** Hides the hits at or after `until` (not emitted: a time still to come). */
  hideFrom(until: number): void {
    for (let i = 0; i < this.n; i++) if (this.ts[i]! >= until) this.flags[i] = (this.flags[i]! & ~3) | HIDDEN
  }

  /** Positions of the hits in time order (ties in the order added); times are whole ms from `start`. */
  order(start: number): Int32Array {
    const keys = this.byTime.keysFor(this.n)
    for (let i = 0; i < this.n; i++) keys[i] = this.ts[i]! - start
    return this.byTime.sort(this.n, MAX_OFFSET)
  }

  /** Positions of the hits by identity (each below `identities`); valid until the next call. */
  byIdentity(identities: number): Int32Array {
    const keys = this.byIdentityOrder.keysFor(this.n)
    for (let i = 0; i < this.n; i++) keys[i] = this.identity[i]!
    return this.byIdentityOrder.sort(this.n, identities)
  }
}
