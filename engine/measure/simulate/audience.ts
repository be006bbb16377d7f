/**
 * The audience of a simulated campaign: a pool of clients sized from the volume, in frequency
 * classes (distributions.ts), each a browser or an app on a device (clients.ts) with a
 * demographic class (profiles.ts); some are the devices of panel persons. Clients are numbers:
 * ordinary ones first (by frequency class, mobile ones first in a class), then data-centre
 * clients, then declared bots.
 */
import type { PanelIndex } from '../panel/types'
import type { AddressSpace } from './address-space'
import { CLIENTS_A_PAUSE, Clients } from './clients'
import * as d from './distributions'
import { MAX_REGIONS, type Geo } from './geo'
import { drawClass, panelClasses } from './profiles'
import { SimRandom } from './random'

const PC_NAMESPACES = ['amid:', 'cookie:']
/** Draws of an impression for a spot's profile before the last one is kept. */
const PROFILE_TRIES = 8

/** The panel's true share of the population: its persons over the weight they stand for. */
export function panelTrueShare(panel: PanelIndex): number {
  let units = 0
  for (let i = 0; i < panel.size; i++) units += panel.units[i]!
  return units > 0 ? panel.size / (units / panel.unit) : 0
}

/**
 * Panel devices the pool holds: their true share of the pool when that gives a usable sample,
 * else about 3 × √pool, within 1-15% of the persons and 25% of the pool (docs/decisions.md).
 */
export function panelDeviceCount(regular: number, panel: PanelIndex | null): number {
  if (!panel || panel.size === 0) return 0
  const lo = Math.ceil(d.PANEL_MIN_SHARE * panel.size)
  const hi = Math.max(lo, Math.round(d.PANEL_MAX_SHARE * panel.size))
  const sampled = Math.min(hi, Math.max(lo, Math.round(d.PANEL_SQRT_FACTOR * Math.sqrt(regular))))
  const want = Math.max(sampled, Math.round(regular * panelTrueShare(panel)))
  return Math.min(want, panel.personOfDevice.size, Math.floor(regular * d.PANEL_MAX_POOL_SHARE))
}

/** How the pool is sized: impressions expected, their days, mobile share of the volume (plan.ts poolOf). */
export interface PoolSize {
  impressions: number
  days: number
  mobileShare: number
}

/** Ordinary clients for a volume: IMPRESSIONS_PER_IDENTITY_DAY a day, building up as days^FREQUENCY_BUILD_UP. */
export function regularPool(valid: number, days: number): number {
  const perIdentity = d.IMPRESSIONS_PER_IDENTITY_DAY * Math.max(days, 1 / 24) ** d.FREQUENCY_BUILD_UP
  return Math.max(1, Math.ceil(valid / perIdentity))
}

/** The clients of one simulation and how impressions pick them. */
export class Audience {
  /** Clients 0..regular-1 are ordinary; then data-centre ones, then bots. */
  readonly regular: number
  readonly size: number
  readonly clients: Clients
  /** Demographic class of each client (profiles.ts). */
  readonly classOf: Uint8Array
  /** Panel devices: client -> person. */
  readonly personOf = new Map<number, number>()
  /** Panel devices placed over their true share (1 when at it, or without a panel); known once built. */
  panelOversampling = 1
  private readonly dcSize: number
  /** Data-centre clients 0..dcMobile-1 (from `regular`) are phones. */
  private readonly dcMobile: number
  private readonly botSize: number
  /** Frequency classes: first client, size, mobile members (first in the class) and cumulative share of impressions. */
  private readonly classStart: Int32Array
  private readonly classSize: Int32Array
  private readonly classMobile: Int32Array
  private readonly classCum: Float64Array

  /** A pool for `pool.impressions` impressions over `pool.days` days, its clients drawn by build(). */
  constructor(pool: PoolSize, private readonly key: number, private readonly geo: Geo, space: AddressSpace, private readonly panel: PanelIndex | null) {
    const volume = pool.impressions
    this.regular = regularPool(volume * (1 - d.BOT_SHARE - d.DATACENTER_SHARE), pool.days)
    this.dcSize = Math.max(1, Math.ceil((volume * d.DATACENTER_SHARE) / d.DATACENTER_FREQUENCY))
    this.dcMobile = Math.max(1, Math.round(this.dcSize * d.DATACENTER_MOBILE_SHARE))
    this.botSize = Math.max(1, Math.ceil((volume * d.BOT_SHARE) / d.BOT_FREQUENCY))
    this.size = this.regular + this.dcSize + this.botSize
    this.clients = new Clients(this.size, key, geo, space, new SimRandom(key ^ 0x5f356495))
    this.classOf = new Uint8Array(this.size)
    const n = d.FREQUENCY_CLASSES.length
    this.classStart = new Int32Array(n)
    this.classSize = new Int32Array(n)
    this.classMobile = new Int32Array(n)
    this.classCum = new Float64Array(n)
    this.buildClasses(Math.min(0.98, Math.max(0.02, pool.mobileShare)))
  }

  /**
   * Draws the clients, places the panel's devices and gives every client its addresses, pausing (a
   * yield) every CLIENTS_A_PAUSE clients and around the panel's placing (a sort of its devices).
   */
  *build(): Generator<void> {
    yield* this.draw(new SimRandom(this.key ^ 0x3c6ef372))
    yield
    const panel = this.panel
    const placed = panel ? this.placePanel(new SimRandom(this.key ^ 0x0a5a5a5a), panel, this.geo) : 0
    yield
    yield* this.clients.assignAddresses(new SimRandom(this.key ^ 0x6a09e667))
    const trueCount = panel ? this.regular * panelTrueShare(panel) : 0
    this.panelOversampling = placed > 0 && trueCount > 0 ? Math.max(1, Math.round(placed / trueCount)) : 1
  }

  /** Contiguous ranges of the ordinary clients, one per class, mobile ones first; the cumulative impression shares. */
  private buildClasses(mobileShare: number): void {
    let start = 0
    let share = 0
    let total = 0
    d.FREQUENCY_CLASSES.forEach(([s, activity], c) => {
      share += s
      const end = c === d.FREQUENCY_CLASSES.length - 1 ? this.regular : Math.round(share * this.regular)
      this.classStart[c] = start
      this.classSize[c] = end - start
      this.classMobile[c] = Math.round((end - start) * mobileShare)
      total += (end - start) * activity
      this.classCum[c] = total
      start = end
    })
    for (let c = 0; c < this.classCum.length; c++) this.classCum[c] = this.classCum[c]! / total
  }

  private *draw(rng: SimRandom): Generator<void> {
    const clients = this.clients
    for (let c = 0; c < this.classStart.length; c++) {
      const first = this.classStart[c]!
      for (let j = first; j < first + this.classSize[c]!; j++) {
        if (j > 0 && j % CLIENTS_A_PAUSE === 0) yield
        clients.drawOrdinary(j, j < first + this.classMobile[c]!, rng)
        this.classOf[j] = drawClass(rng)
      }
    }
    // the mobile data-centre clients first: a phone-only spot draws its invalid traffic there
    for (let j = this.regular; j < this.regular + this.dcSize; j++) clients.drawDatacentre(j, j < this.regular + this.dcMobile, rng)
    for (let j = this.regular + this.dcSize; j < this.size; j++) clients.drawBot(j, rng)
  }

  /** Members of the ordinary clients on one platform, over every class. */
  private platformSize(mobile: boolean): number {
    let n = 0
    for (let c = 0; c < this.classStart.length; c++) n += mobile ? this.classMobile[c]! : this.classSize[c]! - this.classMobile[c]!
    return n
  }

  /** The client at position `at` of the platform's members, class after class. */
  private platformMember(mobile: boolean, at: number): number {
    let rest = at
    for (let c = 0; c < this.classStart.length; c++) {
      const m = this.classMobile[c]!
      const n = mobile ? m : this.classSize[c]! - m
      if (rest < n) return this.classStart[c]! + (mobile ? 0 : m) + rest
      rest -= n
    }
    return 0
  }

  /**
   * Panel devices spread evenly over the ordinary clients of their platform (so over every
   * frequency class), drawn in proportion to the tier exposure of their person's home, like the
   * homes of the other clients (geo.ts). A device becomes the client that sends its id (clients.ts)
   * and takes its person's home and demographic class; returns how many were placed.
   */
  private placePanel(rng: SimRandom, panel: PanelIndex, geo: Geo): number {
    const want = panelDeviceCount(this.regular, panel)
    if (want === 0) return 0
    const classes = panelClasses(panel)
    const devices = [...panel.personOfDevice.entries()]
    const drawKey = devices.map(([, person], i) => [-Math.log(1 - rng.next()) / geo.exposure(panel.homeRegion[person] ?? 0), i] as const)
    drawKey.sort((a, b) => a[0] - b[0] || a[1] - b[1])
    const byPlatform: [string, number][][] = [[], []]
    for (const [, di] of drawKey.slice(0, want)) {
      const [text, person] = devices[di]!
      const bits = panel.platforms[person] ?? 0
      const pc = bits === 1 || (bits !== 2 && PC_NAMESPACES.some((ns) => text.startsWith(ns)))
      byPlatform[pc ? 0 : 1]!.push(devices[di]!)
    }
    let placed = 0
    byPlatform.forEach((list, p) => {
      const mobile = p === 1
      const room = this.platformSize(mobile)
      const k = Math.min(list.length, Math.floor(room * d.PANEL_MAX_POOL_SHARE))
      for (let i = 0; i < k; i++) {
        const j = this.platformMember(mobile, Math.floor(((i + 0.5) * room) / k))
        const [text, person] = list[i]!
        const home = panel.homeRegion[person] ?? this.clients.home[j]!
        if (!this.clients.placeDevice(j, text, home < MAX_REGIONS ? home : 0)) continue
        this.classOf[j] = classes[person]!
        this.personOf.set(j, person)
        placed++
      }
    })
    return placed
  }

  /**
   * The client of one impression of a spot (its mobile share, its profile's keep chance by
   * class): a bot, a data-centre client or an ordinary client.
   */
  pick(rng: SimRandom, mobileShare: number, profile: Float64Array | null): number {
    const u = rng.next()
    // a phone-only spot gets no declared bots (crawlers): its invalid traffic is emulator farms
    if (mobileShare >= 1 && u < d.BOT_SHARE + d.DATACENTER_SHARE) return this.regular + Math.min(this.dcMobile - 1, Math.floor((u / (d.BOT_SHARE + d.DATACENTER_SHARE)) * this.dcMobile))
    if (u < d.BOT_SHARE) return this.regular + this.dcSize + Math.min(this.botSize - 1, Math.floor((u / d.BOT_SHARE) * this.botSize))
    if (u < d.BOT_SHARE + d.DATACENTER_SHARE) return this.regular + Math.min(this.dcSize - 1, Math.floor(((u - d.BOT_SHARE) / d.DATACENTER_SHARE) * this.dcSize))
    return this.pickRegular(rng, mobileShare, profile)
  }

  /**
   * An ordinary client of a spot: drawn by class and platform, kept with the chance its
   * demographic class has in the spot's profile, else drawn again (PROFILE_TRIES at most).
   */
  pickRegular(rng: SimRandom, mobileShare: number, profile: Float64Array | null): number {
    let j = this.drawRegular(rng, mobileShare)
    if (profile === null) return j
    for (let t = 1; t < PROFILE_TRIES && rng.next() >= profile[this.classOf[j]!]!; t++) j = this.drawRegular(rng, mobileShare)
    return j
  }

  /** One draw of an ordinary client: one number picks the class and the platform, the next the member. */
  private drawRegular(rng: SimRandom, mobileShare: number): number {
    const u = rng.next()
    const cum = this.classCum
    let c = 0
    while (c < cum.length - 1 && u >= cum[c]!) c++
    const lo = c === 0 ? 0 : cum[c - 1]!
    const mobile = (u - lo) / (cum[c]! - lo) < mobileShare
    const m = this.classMobile[c]!
    const size = this.classSize[c]!
    const [first, n] = mobile ? [0, m] : [m, size - m]
    if (n === 0) return this.classStart[c]! + Math.min(Math.floor(rng.next() * size), size - 1)
    return this.classStart[c]! + first + Math.min(Math.floor(rng.next() * n), n - 1)
  }

  /** An ordinary client near `j` (wrapping round), for the capping's search of one under its cap. */
  nextRegular(j: number): number {
    return j + 1 < this.regular ? j + 1 : 0
  }
}
