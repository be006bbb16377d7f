/**
 * The audience of a simulated campaign: a pool of identities sized from the volume, in frequency
 * classes (distributions.ts), each with a device kind, a home region and an invalid-traffic class;
 * some are the devices of panel persons. Identities are numbers; texts are drawn on first use.
 * The traits of an identity share one 16-bit word, so a hit reads them in one memory access.
 */
import type { PanelIndex } from '../panel/types'
import { IVT, type IvtClass } from '../types'
import * as d from './distributions'
import { MAX_REGIONS, type Geo } from './geo'
import { OS, simulatedIdentity, type OsCode } from './identity-texts'
import { SimRandom } from './random'

const PC_NAMESPACES = ['amid:', 'cookie:']

/** Traits word: home region (bits 0-11), device kind (12-13), invalid-traffic class (14-15). */
export const traitHome = (t: number): number => t & 0xfff
export const traitOs = (t: number): OsCode => ((t >> 12) & 3) as OsCode
export const traitIvt = (t: number): IvtClass => (t >> 14) as IvtClass
const traits = (home: number, os: OsCode, ivt: IvtClass): number => home | (os << 12) | (ivt << 14)

/** Up to `n` distinct indices below `total`, drawn by a partial Fisher-Yates shuffle. */
function sample(rng: SimRandom, total: number, n: number): Int32Array {
  const idx = new Int32Array(total)
  for (let i = 0; i < total; i++) idx[i] = i
  const k = Math.min(n, total)
  for (let i = 0; i < k; i++) {
    const j = i + (rng.u32() % (total - i))
    const t = idx[i]!
    idx[i] = idx[j]!
    idx[j] = t
  }
  return idx.subarray(0, k)
}

/** Panel devices the pool holds: about 3 × √pool, within 1-15% of the persons and 25% of the pool. */
export function panelDeviceCount(regular: number, panel: PanelIndex | null): number {
  if (!panel || panel.size === 0) return 0
  const lo = Math.ceil(d.PANEL_MIN_SHARE * panel.size)
  const hi = Math.max(lo, Math.round(d.PANEL_MAX_SHARE * panel.size))
  const want = Math.min(hi, Math.max(lo, Math.round(d.PANEL_SQRT_FACTOR * Math.sqrt(regular))))
  return Math.min(want, panel.personOfDevice.size, Math.floor(regular * d.PANEL_MAX_POOL_SHARE))
}

/** The identities of one simulation and how impressions pick them. */
export class Audience {
  /** Identities 0..regular-1 are ordinary; then data-centre ones, then bots. */
  readonly regular: number
  readonly size: number
  readonly traits: Uint16Array
  /** Distinct identities and panel persons whose text has been asked for (reached by a hit). */
  reached = 0
  personsReached = 0
  /** undefined until reached: comparing with undefined does not read the string (a cache miss). */
  private readonly texts: (string | undefined)[] = []
  private readonly devices = new Map<number, { text: string; person: number }>()
  private readonly personSeen: Uint8Array
  private readonly dcSize: number
  private readonly botSize: number
  /** Frequency classes: first identity, size and cumulative share of impressions. */
  private readonly classStart: Int32Array
  private readonly classSize: Int32Array
  private readonly classCum: Float64Array

  /** A pool for `volume` impressions. */
  constructor(volume: number, private readonly key: number, geo: Geo, panel: PanelIndex | null) {
    const valid = volume * (1 - d.BOT_SHARE - d.DATACENTER_SHARE)
    this.regular = Math.max(1, Math.ceil(valid / d.IMPRESSIONS_PER_IDENTITY))
    this.dcSize = Math.max(1, Math.ceil((volume * d.DATACENTER_SHARE) / d.DATACENTER_FREQUENCY))
    this.botSize = Math.max(1, Math.ceil((volume * d.BOT_SHARE) / d.BOT_FREQUENCY))
    this.size = this.regular + this.dcSize + this.botSize
    this.traits = new Uint16Array(this.size)
    // Pushed, not `new Array(size)`: a large preallocated array is a slow dictionary in V8.
    for (let j = 0; j < this.size; j++) this.texts.push(undefined)
    this.personSeen = new Uint8Array(panel?.size ?? 0)
    const n = d.FREQUENCY_CLASSES.length
    this.classStart = new Int32Array(n)
    this.classSize = new Int32Array(n)
    this.classCum = new Float64Array(n)
    this.buildClasses()
    this.draw(new SimRandom(key ^ 0x3c6ef372), geo)
    if (panel) this.placePanel(new SimRandom(key ^ 0x0a5a5a5a), panel)
  }

  /** Contiguous ranges of the ordinary identities, one per class; the cumulative impression shares. */
  private buildClasses(): void {
    let start = 0
    let share = 0
    let total = 0
    d.FREQUENCY_CLASSES.forEach(([s, activity], c) => {
      share += s
      const end = c === d.FREQUENCY_CLASSES.length - 1 ? this.regular : Math.round(share * this.regular)
      this.classStart[c] = start
      this.classSize[c] = end - start
      total += (end - start) * activity
      this.classCum[c] = total
      start = end
    })
    for (let c = 0; c < this.classCum.length; c++) this.classCum[c] = this.classCum[c]! / total
  }

  private draw(rng: SimRandom, geo: Geo): void {
    for (let j = 0; j < this.regular; j++) {
      const os = rng.next() < d.MOBILE_SHARE ? this.mobileOs(rng) : OS.pc
      this.traits[j] = traits(geo.home(rng), os, IVT.valid)
    }
    for (let j = this.regular; j < this.regular + this.dcSize; j++) {
      const os = rng.next() < d.DATACENTER_MOBILE_SHARE ? this.mobileOs(rng) : OS.pc
      this.traits[j] = traits(geo.datacenter(rng), os, IVT.datacenter)
    }
    for (let j = this.regular + this.dcSize; j < this.size; j++) {
      this.traits[j] = traits(rng.next() < d.BOT_GLOBAL_SHARE ? 0 : geo.datacenter(rng), OS.pc, IVT.bot)
    }
  }

  private mobileOs(rng: SimRandom): OsCode {
    if (rng.next() < d.IOS_SHARE) return OS.idfa
    return rng.next() < d.ANDROID_OAID_SHARE ? OS.oaid : OS.imei
  }

  /** Panel devices spread evenly over the ordinary identities (so over every frequency class). */
  private placePanel(rng: SimRandom, panel: PanelIndex): void {
    const want = panelDeviceCount(this.regular, panel)
    if (want === 0) return
    const devices = [...panel.personOfDevice.entries()]
    const chosen = sample(rng, devices.length, want)
    chosen.forEach((di, k) => {
      const j = Math.floor(((k + 0.5) * this.regular) / chosen.length)
      const [text, person] = devices[di]!
      const bits = panel.platforms[person] ?? 0
      const pc = bits === 1 || (bits !== 2 && PC_NAMESPACES.some((ns) => text.startsWith(ns)))
      const home = panel.homeRegion[person] ?? traitHome(this.traits[j]!)
      this.traits[j] = traits(home < MAX_REGIONS ? home : 0, pc ? OS.pc : OS.idfa, IVT.valid)
      this.devices.set(j, { text, person })
    })
  }

  /** The identity of one impression: a bot, a data-centre address or an ordinary identity. */
  pick(rng: SimRandom): number {
    const u = rng.next()
    if (u < d.BOT_SHARE) return this.regular + this.dcSize + Math.min(this.botSize - 1, Math.floor((u / d.BOT_SHARE) * this.botSize))
    if (u < d.BOT_SHARE + d.DATACENTER_SHARE) return this.regular + Math.min(this.dcSize - 1, Math.floor(((u - d.BOT_SHARE) / d.DATACENTER_SHARE) * this.dcSize))
    return this.pickRegular(rng)
  }

  /** An ordinary identity, by frequency class; one draw picks the class and the member. */
  pickRegular(rng: SimRandom): number {
    const u = rng.next()
    const cum = this.classCum
    let c = 0
    while (c < cum.length - 1 && u >= cum[c]!) c++
    const lo = c === 0 ? 0 : cum[c - 1]!
    const at = Math.floor(((u - lo) / (cum[c]! - lo)) * this.classSize[c]!)
    return this.classStart[c]! + Math.min(at, this.classSize[c]! - 1)
  }

  /** The text of identity `j`, drawn when first asked for (which counts it as reached). */
  text(j: number): string {
    return this.texts[j] ?? this.reach(j)
  }

  private reach(j: number): string {
    const device = this.devices.get(j)
    const t = device?.text ?? simulatedIdentity(traitOs(this.traits[j]!), this.key, j)
    this.texts[j] = t
    this.reached++
    if (device && this.personSeen[device.person] === 0) {
      this.personSeen[device.person] = 1
      this.personsReached++
    }
    return t
  }
}
