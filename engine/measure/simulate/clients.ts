/**
 * The clients of a simulation (docs/simulator.md, "Clients"): each is a browser or an app on a
 * device, with a user agent, a home and addresses, and a cookie jar or device ids. A client's
 * request in one state (its address of the day, the ids its medium fills) is what the engine's
 * attribution reads; the values are drawn from the simulation key, never from Math.random.
 */
import type { TrackingRequest } from '../attribute/types'
import { COOKIE_NAME, MARKER_PARAM } from '../attribute/identity'
import { AddressBook, NAT } from './address-book'
import type { AddressSpace } from './address-space'
import * as d from './distributions'
import type { Geo } from './geo'
import { hash3 } from './hash'
import { VALUE, androidIdValue, hexValue, imeiValue, uuidValue } from './id-values'
import { AliasTable, type SimRandom } from './random'
import { AGENT_GROUPS, type AgentEntry, type AgentGroup } from './user-agents'

/** What a client is: a browser keeping cookies or refusing them, an app (by its ids), a media server, a declared bot. */
export const CLIENT = { keeper: 0, refuser: 1, ios: 2, android: 3, legacy: 4, server: 5, bot: 6 } as const
export type ClientKind = (typeof CLIENT)[keyof typeof CLIENT]

/** Flags of a client: mobile, mover, has its first id (IDFA: tracking allowed; IMEI), data centre, SDK (bits 4-5). */
const MOBILE = 1
const MOVER = 2
const FIRST_ID = 4
const DATACENTRE = 8
const sdkBits = (f: number): number => (f >> 4) & 3

/** Which ids a state carries: both of the device's, the first only, the second only. */
export const FILL = { both: 0, first: 1, second: 2 } as const
/**
 * Clients drawn or given addresses between two pauses of a simulation that pauses (its input's
 * `pauses`): a simulation of 700,000 planned hits took 2.4 s to draw and address its pool in one
 * piece.
 */
export const CLIENTS_A_PAUSE = 10_000

const agentTables = Object.fromEntries(Object.entries(AGENT_GROUPS).map(([g, list]) => [g, new AliasTable(list.map((a) => a.weight))])) as Record<AgentGroup, AliasTable>

/** The agent group a client of a kind draws from. */
function groupOf(kind: ClientKind, mobile: boolean): AgentGroup {
  if (kind === CLIENT.ios) return 'iosApp'
  if (kind === CLIENT.android || kind === CLIENT.legacy) return 'androidApp'
  if (kind === CLIENT.bot) return 'bot'
  return mobile ? 'mobileWeb' : 'desktop'
}

/** The clients of one simulation, as parallel arrays by client number. */
export class Clients {
  readonly kind: Uint8Array
  readonly flags: Uint8Array
  readonly agent: Uint8Array
  readonly home: Uint16Array
  /** Address index (address book) of a client's usual address and of its other one (movers). */
  readonly homeAddress: Int32Array
  readonly awayAddress: Int32Array
  readonly addresses: AddressBook
  /** Panel devices: the id value (cookie, IDFA, OAID, IMEI) the client sends instead of a drawn one. */
  readonly own = new Map<number, string>()
  /** The media's server that reports server-to-server hits (a data-centre address). */
  private server = -1

  constructor(size: number, private readonly key: number, private readonly geo: Geo, space: AddressSpace, rng: SimRandom) {
    this.kind = new Uint8Array(size)
    this.flags = new Uint8Array(size)
    this.agent = new Uint8Array(size)
    this.home = new Uint16Array(size)
    this.homeAddress = new Int32Array(size)
    this.awayAddress = new Int32Array(size).fill(-1)
    this.addresses = new AddressBook(space, geo.province, geo.fallback, rng)
  }

  mobile(j: number): boolean {
    return (this.flags[j]! & MOBILE) !== 0
  }

  /** An ordinary client: a mobile one (app, browser or server-reported) or a PC browser. */
  drawOrdinary(j: number, mobile: boolean, rng: SimRandom): void {
    this.home[j] = this.geo.home(rng)
    if (!mobile) return this.drawBrowser(j, false, rng)
    const u = rng.next()
    if (u < d.MOBILE_APP_SHARE) return this.drawApp(j, rng)
    if (u < d.MOBILE_APP_SHARE + d.MOBILE_WEB_SHARE) return this.drawBrowser(j, true, rng)
    this.set(j, CLIENT.server, MOBILE, this.drawAgent('mobileWeb', rng))
  }

  /** A client behind a data-centre address: an emulated phone app, or a PC browser. */
  drawDatacentre(j: number, mobile: boolean, rng: SimRandom): void {
    this.home[j] = this.geo.home(rng)
    if (mobile) this.drawApp(j, rng)
    else this.drawBrowser(j, false, rng)
    this.flags[j] = this.flags[j]! | DATACENTRE
  }

  /** A declared bot, from a data centre or from abroad. */
  drawBot(j: number, rng: SimRandom): void {
    this.home[j] = this.geo.home(rng)
    this.set(j, CLIENT.bot, rng.next() < d.BOT_GLOBAL_SHARE ? 0 : DATACENTRE, this.drawAgent('bot', rng))
  }

  /** A panel device: its kind from its id's namespace, its value as the panel has it; false when no request can carry it. */
  placeDevice(j: number, text: string, home: number): boolean {
    const colon = text.indexOf(':')
    const ns = text.slice(0, colon)
    const value = text.slice(colon + 1)
    const pick = hash3(this.key, j, 11)
    const sdk = this.flags[j]! & 0x30
    if (ns === COOKIE_NAME && /^[0-9a-f]{32}$/.test(value)) this.set(j, CLIENT.keeper, 0, pick % AGENT_GROUPS.desktop.length)
    else if (ns === 'idfa') this.set(j, CLIENT.ios, MOBILE | FIRST_ID | sdk, pick % AGENT_GROUPS.iosApp.length)
    else if (ns === 'oaid') this.set(j, CLIENT.android, MOBILE | sdk, pick % AGENT_GROUPS.androidApp.length)
    else if (ns === 'imei') this.set(j, CLIENT.legacy, MOBILE | FIRST_ID | sdk, pick % AGENT_GROUPS.androidApp.length)
    else return false
    this.home[j] = home
    this.own.set(j, value)
    return true
  }

  /** Gives every client its addresses (after the panel devices took their persons' homes), pausing every CLIENTS_A_PAUSE clients. */
  *assignAddresses(rng: SimRandom): Generator<void> {
    const book = this.addresses
    this.server = book.join(0, NAT.proxy)
    for (let j = 0; j < this.kind.length; j++) {
      if (j > 0 && j % CLIENTS_A_PAUSE === 0) yield
      const f = this.flags[j]!
      const city = this.home[j]!
      if (this.kind[j] === CLIENT.bot) {
        this.homeAddress[j] = book.join(city, f & DATACENTRE ? NAT.proxy : NAT.foreign)
        continue
      }
      if (f & DATACENTRE) {
        this.homeAddress[j] = book.join(city, NAT.proxy)
        continue
      }
      const mobile = (f & MOBILE) !== 0
      this.homeAddress[j] = book.join(city, mobile ? NAT.carrier : rng.next() < d.OFFICE_SHARE ? NAT.office : NAT.household)
      if (rng.next() < (mobile ? d.MOBILE_MOVER_SHARE : d.PC_MOVER_SHARE)) {
        this.flags[j] = f | MOVER
        this.awayAddress[j] = book.join(city, mobile ? NAT.household : NAT.office)
      }
    }
  }

  /** Which of its addresses (0 or 1) a client uses on a day (days since 1970-01-01): movers change by day. */
  addressOn(j: number, day: number): number {
    return (this.flags[j]! & MOVER) !== 0 && (hash3(this.key, j, day) & 1) === 1 ? 1 : 0
  }

  /** The address index of a client's address `slot`. */
  address(j: number, slot: number): number {
    return slot === 0 ? this.homeAddress[j]! : this.awayAddress[j]!
  }

  /** The ids a client's request carries on a medium that fills `fill` (FILL): what the device has of them. */
  fillOf(j: number, fill: number): number {
    const kind = this.kind[j]!
    if (kind !== CLIENT.ios && kind !== CLIENT.android && kind !== CLIENT.legacy) return FILL.both
    // without its first id (no IDFA: tracking not allowed; no IMEI) a device sends its second only
    if (kind !== CLIENT.android && (this.flags[j]! & FIRST_ID) === 0) return FILL.second
    return fill
  }

  userAgent(j: number): string {
    return this.agentEntry(j).ua
  }

  /** A browser client (it gets cookies; a prefetch is a browser's). */
  browser(j: number): boolean {
    const kind = this.kind[j]!
    return kind === CLIENT.keeper || kind === CLIENT.refuser
  }

  /** The tracking request of client `j` in a state: its address `slot` and the ids `fill` of its medium. */
  request(j: number, slot: number, fill: number, campaign: number): TrackingRequest {
    const kind = this.kind[j]! as ClientKind
    const ip = this.addresses.text(this.address(j, slot))
    const headers: Record<string, string> = { 'user-agent': this.userAgent(j) }
    let params = `k=${campaign}&p=simulated`
    let remote = ip
    if (kind === CLIENT.keeper) headers.cookie = `${COOKIE_NAME}=${this.cookie(j)}`
    else if (kind === CLIENT.refuser || kind === CLIENT.bot) params += `&${MARKER_PARAM}=${this.cookie(j)}`
    else if (kind === CLIENT.server) {
      params += `&ns=${ip}`
      remote = this.addresses.text(this.server)
    } else params += this.deviceParams(j, kind, fill)
    return { path: `/x/${params}&o=`, query: '', headers, remoteAddress: remote }
  }

  /**
   * The cookie value a browser was given (a panel device's own, else drawn from the simulation
   * key): what a keeper sends back, and what the cookie check's marker carries for a refuser.
   */
  private cookie(j: number): string {
    return this.own.get(j) ?? hexValue(this.key ^ VALUE.cookie, j)
  }

  /** The device-id macros, OS and SDK of an app's request. */
  private deviceParams(j: number, kind: ClientKind, fill: number): string {
    const own = this.own.get(j)
    const first = fill !== FILL.second
    const second = fill !== FILL.first
    let p = ''
    if (kind === CLIENT.ios) {
      if (first) p += `&m5=${own ?? uuidValue(this.key ^ VALUE.idfa, j)}`
      if (second) p += `&m14=${uuidValue(this.key ^ VALUE.caid, j)}`
      p += '&mo=1'
    } else {
      if (first) p += kind === CLIENT.android ? `&m11=${own ?? uuidValue(this.key ^ VALUE.oaid, j)}` : `&m2=${own ?? imeiValue(this.key ^ VALUE.imei, j)}`
      if (second) p += `&m1a=${androidIdValue(this.key ^ VALUE.androidId, j)}`
      p += '&mo=0'
    }
    const sdk = sdkBits(this.flags[j]!)
    return sdk === 1 ? `${p}&sdk=mm` : sdk === 2 ? `${p}&sdk=mz` : p
  }

  private agentEntry(j: number): AgentEntry {
    return AGENT_GROUPS[groupOf(this.kind[j]! as ClientKind, this.mobile(j))][this.agent[j]!]!
  }

  private drawAgent(group: AgentGroup, rng: SimRandom): number {
    return agentTables[group].draw(rng)
  }

  private drawBrowser(j: number, mobile: boolean, rng: SimRandom): void {
    const group = mobile ? 'mobileWeb' : 'desktop'
    const agent = this.drawAgent(group, rng)
    const refuses = rng.next() < AGENT_GROUPS[group][agent]!.refuse
    this.set(j, refuses ? CLIENT.refuser : CLIENT.keeper, mobile ? MOBILE : 0, agent)
  }

  private drawApp(j: number, rng: SimRandom): void {
    const u = rng.next()
    const sdk = u < d.SDK_MM_SHARE ? 1 << 4 : u < d.SDK_MM_SHARE + d.SDK_MZ_SHARE ? 2 << 4 : 0
    if (rng.next() < d.IOS_SHARE) {
      this.set(j, CLIENT.ios, MOBILE | sdk | (rng.next() < d.IOS_IDFA_SHARE ? FIRST_ID : 0), this.drawAgent('iosApp', rng))
    } else if (rng.next() < d.ANDROID_OAID_SHARE) {
      this.set(j, CLIENT.android, MOBILE | sdk, this.drawAgent('androidApp', rng))
    } else {
      this.set(j, CLIENT.legacy, MOBILE | sdk | (rng.next() < d.ANDROID_LEGACY_IMEI_SHARE ? FIRST_ID : 0), this.drawAgent('androidApp', rng))
    }
  }

  private set(j: number, kind: ClientKind, flags: number, agent: number): void {
    this.kind[j] = kind
    this.flags[j] = flags
    this.agent[j] = agent
  }
}
