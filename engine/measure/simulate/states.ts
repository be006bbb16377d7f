/**
 * The engine's attribution of each simulated client state (docs/simulator.md, "Attribution"): a
 * client's request at one of its addresses with the ids its medium fills goes through the
 * Attributor once, and its identity, links, platform, SDK, region and invalid-traffic class are
 * kept for every hit of that state (attribution is a pure function of the request). Also counts
 * what the hits reach: identities, clients by kind, shared addresses, panel persons.
 */
import type { Attributor } from '../attribute'
import type { Attribution, TrackingRequest } from '../attribute/types'
import { speculativeRequest } from '../attribute/prefetch'
import type { IvtClass, PlatformCode, SdkCode } from '../types'
import { CLIENT, FILL, type Clients } from './clients'

/** State word: region (bits 0-11), platform (12), ivt (13-14), SDK (15-16). */
export const stateRegion = (w: number): number => w & 0xfff
export const statePlatform = (w: number): PlatformCode => ((w >> 12) & 1) as PlatformCode
export const stateIvt = (w: number): IvtClass => ((w >> 13) & 3) as IvtClass
export const stateSdk = (w: number): SdkCode => ((w >> 15) & 3) as SdkCode
const pack = (a: Attribution): number => a.region | (a.platform << 12) | (a.ivt << 13) | (a.sdk << 15)

/** A client's states other than its usual one: address slot 1, or fill first / second (slot * 3 + fill - 1). */
const OTHER_STATES = 5

/** What the simulated hits reached (docs/simulator.md, "Summary"). */
export interface Reach {
  /** Distinct identity texts of the hits. */
  identities: number
  /** Clients reached by kind: browsers keeping cookies, refusing them, apps, media servers, bots. */
  keepers: number
  refusers: number
  apps: number
  servers: number
  bots: number
  /** Addresses shared by two clients or more among those reached (households, offices, carrier NAT, proxies). */
  natGroups: number
  /** Distinct panel persons reached. */
  panelPersons: number
  /** Speculative requests (prefetch), answered and not counted. */
  prefetches: number
}

/** The attributed states of one simulation's clients. */
export class ClientStates {
  readonly reach: Reach = { identities: 0, keepers: 0, refusers: 0, apps: 0, servers: 0, bots: 0, natGroups: 0, panelPersons: 0, prefetches: 0 }
  /**
   * States are numbered from 1 as they are attributed; a client's usual one (its first address,
   * both ids) is found by client number, its others in a block of OTHER_STATES that a client gets
   * when it first needs one (`blockOf`, 1-based; 0 none): no map, no hashing.
   */
  private readonly usual: Int32Array
  private readonly blockOf: Int32Array
  private blocks = new Int32Array(OTHER_STATES * 1024)
  private blockCount = 0
  private words = new Uint32Array(1024)
  private readonly texts: string[] = ['']
  private readonly linkLists: (readonly string[] | undefined)[] = [undefined]
  /** Per client: bit 0 reached, bits 1-2 its device or cookie identities counted, bits 3-4 its addresses counted. */
  private readonly seen: Uint8Array
  /** Clients reached at each address (up to 2). */
  private readonly atAddress: Uint8Array
  /** Identities of address and agent (refusers, media servers, bots): shared behind one address, so counted by text. */
  private readonly shared = new Set<string>()
  private readonly personSeen: Uint8Array

  constructor(
    private readonly clients: Clients,
    private readonly attributor: Attributor,
    private readonly campaign: number,
    private readonly personOf: ReadonlyMap<number, number>,
    persons: number,
    private readonly onRequest?: (request: TrackingRequest, attribution: Attribution) => void,
  ) {
    const size = clients.kind.length
    this.usual = new Int32Array(size)
    this.blockOf = new Int32Array(size)
    this.seen = new Uint8Array(size)
    this.atAddress = new Uint8Array(clients.addresses.count)
    this.personSeen = new Uint8Array(persons)
  }

  /** The number of client `j`'s state on address `slot` with the ids of fill `fill`, attributed on first use. */
  resolve(j: number, slot: number, fill: number): number {
    if (slot === 0 && fill === 0) {
      const n = this.usual[j]!
      return n !== 0 ? n : (this.usual[j] = this.attribute(j, slot, fill))
    }
    let block = this.blockOf[j]!
    if (block === 0) {
      block = this.blockOf[j] = ++this.blockCount
      if (block * OTHER_STATES > this.blocks.length) {
        const grown = new Int32Array(this.blocks.length * 2)
        grown.set(this.blocks)
        this.blocks = grown
      }
    }
    const at = (block - 1) * OTHER_STATES + slot * 3 + fill - 1
    const n = this.blocks[at]!
    return n !== 0 ? n : (this.blocks[at] = this.attribute(j, slot, fill))
  }

  /** The state word (region, platform, class, SDK) of state `n`. */
  word(n: number): number {
    return this.words[n]!
  }

  text(n: number): string {
    return this.texts[n]!
  }

  /** The other ids that arrived with the identity (an app filling two), or undefined. */
  links(n: number): readonly string[] | undefined {
    return this.linkLists[n]
  }

  /**
   * A browser's speculative request before an impression, for a uniform `u`: true (and counted)
   * when there was one; the engine does not count it.
   */
  prefetch(j: number, u: number, share: number): boolean {
    if (u >= share || !this.clients.browser(j)) return false
    const marked = speculativeRequest({ 'user-agent': this.clients.userAgent(j), 'sec-purpose': 'prefetch;prerender' }) !== ''
    if (marked) this.reach.prefetches++
    return marked
  }

  /** Attributes a state's request; returns the state's number. */
  private attribute(j: number, slot: number, fill: number): number {
    const request = this.clients.request(j, slot, fill, this.campaign)
    const a = this.attributor.attribute(request)
    if (a === null) throw new Error('a simulated request is not a tracking request')
    this.onRequest?.(request, a)
    const n = this.texts.length
    if (n === this.words.length) {
      const grown = new Uint32Array(n * 2)
      grown.set(this.words)
      this.words = grown
    }
    this.words[n] = pack(a)
    this.texts.push(a.identity)
    this.linkLists.push(a.links.length > 0 ? a.links : undefined)
    this.count(j, slot, fill, a)
    return n
  }

  private count(j: number, slot: number, fill: number, a: Attribution): void {
    const r = this.reach
    const kind = this.clients.kind[j]!
    let seen = this.seen[j]!
    if ((seen & 1) === 0) {
      seen |= 1
      if (kind === CLIENT.keeper) r.keepers++
      else if (kind === CLIENT.refuser) r.refusers++
      else if (kind === CLIENT.server) r.servers++
      else if (kind === CLIENT.bot) r.bots++
      else r.apps++
      const person = this.personOf.get(j)
      if (person !== undefined && this.personSeen[person] === 0) (this.personSeen[person] = 1, r.panelPersons++)
    }
    if (a.device || kind === CLIENT.keeper) {
      const bit = 2 << (this.clients.fillOf(j, fill) === FILL.second ? 1 : 0)
      if ((seen & bit) === 0) (seen |= bit, r.identities++)
    } else if (!this.shared.has(a.identity)) (this.shared.add(a.identity), r.identities++)
    const at = 8 << slot
    if ((seen & at) === 0) {
      seen |= at
      const address = this.clients.address(j, slot)
      const n = this.atAddress[address]!
      if (n < 2) this.atAddress[address] = n + 1
      if (n === 1) r.natGroups++
    }
    this.seen[j] = seen
  }
}
