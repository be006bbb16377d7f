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

/** State word: region (bits 0-11), platform (12), ivt (13-14), SDK (15-16), attributed (20). */
const SET = 1 << 20
export const stateRegion = (w: number): number => w & 0xfff
export const statePlatform = (w: number): PlatformCode => ((w >> 12) & 1) as PlatformCode
export const stateIvt = (w: number): IvtClass => ((w >> 13) & 3) as IvtClass
export const stateSdk = (w: number): SdkCode => ((w >> 15) & 3) as SdkCode
const pack = (a: Attribution): number => a.region | (a.platform << 12) | (a.ivt << 13) | (a.sdk << 15) | SET

/** A state's key: client, address slot (0, 1) and fill (FILL). */
const STATES = 6
const keyOf = (j: number, slot: number, fill: number): number => j * STATES + slot * 3 + fill

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
  /** The usual state of each client (first address, both ids): most hits; others in the maps. */
  private readonly firstWord: Uint32Array
  private readonly firstText: (string | undefined)[] = []
  private readonly words = new Map<number, number>()
  private readonly texts = new Map<number, string>()
  private readonly linkLists = new Map<number, readonly string[]>()
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
    this.firstWord = new Uint32Array(size)
    // pushed, not `new Array(size)`: a large preallocated array is a slow dictionary in V8
    for (let j = 0; j < size; j++) this.firstText.push(undefined)
    this.seen = new Uint8Array(size)
    this.atAddress = new Uint8Array(clients.addresses.count)
    this.personSeen = new Uint8Array(persons)
  }

  /** The key of client `j`'s state on address `slot` with the ids of fill `fill`, attributed on first use. */
  resolve(j: number, slot: number, fill: number): number {
    const key = keyOf(j, slot, fill)
    if (key % STATES === 0 ? this.firstWord[j] === 0 : !this.words.has(key)) this.attribute(j, slot, fill, key)
    return key
  }

  word(key: number): number {
    return key % STATES === 0 ? this.firstWord[key / STATES]! : this.words.get(key)!
  }

  text(key: number): string {
    return key % STATES === 0 ? this.firstText[key / STATES]! : this.texts.get(key)!
  }

  /** The other ids that arrived with the identity (an app filling two), or undefined. */
  links(key: number): readonly string[] | undefined {
    return this.linkLists.get(key)
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

  private attribute(j: number, slot: number, fill: number, key: number): void {
    const request = this.clients.request(j, slot, fill, this.campaign)
    const a = this.attributor.attribute(request)
    if (a === null) throw new Error('a simulated request is not a tracking request')
    this.onRequest?.(request, a)
    const word = pack(a)
    if (key % STATES === 0) (this.firstWord[j] = word, this.firstText[j] = a.identity)
    else (this.words.set(key, word), this.texts.set(key, a.identity))
    if (a.links.length > 0) this.linkLists.set(key, a.links)
    this.count(j, slot, fill, a)
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
