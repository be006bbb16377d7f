/**
 * Frequency capping (spec §8.2, docs/simulator.md): impressions of a capped spot go to clients
 * under their caps: the spot's own (`S`), its publisher's (`M`, the publisher's spots together)
 * and the campaign's (its freq_capping: a day, over all its spots); invalid traffic is not capped.
 * Counts are kept per cap group
 * and period in open-addressing tables, emptied when the period changes.
 */
import { dayNumber } from '../../time-zone'
import type { Audience } from './audience'
import * as d from './distributions'
import { periodOf, type Cap } from './media'
import type { SimRandom } from './random'
import type { SimulationPlan } from './types'

/** Impressions per client within one period: client + 1 as key (0: empty), linear probing. */
class Counts {
  private keys: Int32Array
  private counts: Uint16Array
  private used = 0

  constructor(expected: number) {
    let cap = 16
    while (cap < 2 * expected) cap *= 2
    this.keys = new Int32Array(cap)
    this.counts = new Uint16Array(cap)
  }

  get(j: number): number {
    const mask = this.keys.length - 1
    for (let i = hashOf(j) & mask; ; i = (i + 1) & mask) {
      const k = this.keys[i]!
      if (k === 0) return 0
      if (k === j + 1) return this.counts[i]!
    }
  }

  add(j: number): void {
    if (2 * (this.used + 1) > this.keys.length) this.grow()
    this.put(j, 1)
  }

  /** Adds `n` to the count of `j`. */
  private put(j: number, n: number): void {
    const mask = this.keys.length - 1
    for (let i = hashOf(j) & mask; ; i = (i + 1) & mask) {
      const k = this.keys[i]!
      if (k === j + 1) {
        this.counts[i] = Math.min(65535, this.counts[i]! + n)
        return
      }
      if (k === 0) {
        this.keys[i] = j + 1
        this.counts[i] = n
        this.used++
        return
      }
    }
  }

  clear(): void {
    if (this.used === 0) return
    this.keys.fill(0)
    this.used = 0
  }

  private grow(): void {
    const { keys, counts } = this
    this.keys = new Int32Array(keys.length * 2)
    this.counts = new Uint16Array(keys.length * 2)
    for (let i = 0; i < keys.length; i++) if (keys[i]! !== 0) (this.used--, this.put(keys[i]! - 1, counts[i]!))
  }
}

const hashOf = (j: number): number => Math.imul(j, 0x9e3779b1) >>> 7

interface Group {
  cap: Cap
  counts: Counts
  period: number
}

/** The cap groups of a plan, and the draw of a client under them. */
export class Capping {
  private readonly groups: Group[] = []
  /** Cap groups of each spot (plan order); an empty list: uncapped. */
  private readonly ofSpot: Group[][]

  constructor(p: SimulationPlan, private readonly audience: Audience, private readonly rng: SimRandom) {
    const byKey = new Map<string, Group>()
    this.ofSpot = p.spots.map(() => [])
    const join = (key: string, cap: Cap, s: number): void => {
      let g = byKey.get(key)
      if (!g) byKey.set(key, (g = { cap, counts: new Counts(0), period: -1 }))
      this.ofSpot[s]!.push(g)
    }
    p.spots.forEach((v, s) => {
      if (v.cap) join(v.cap.scope === 'S' ? `S${s}` : `M${v.publisher_id}:${v.cap.limit}${v.cap.period}`, v.cap, s)
      if (p.campaignCap !== null) join('C', { scope: 'M', limit: p.campaignCap, period: 'D' }, s)
    })
    this.groups = [...byKey.values()]
    // tables sized for the largest volume of a period (its distinct clients are fewer)
    for (const g of this.groups) {
      const spots = p.spots.filter((_, s) => this.ofSpot[s]!.includes(g))
      const byPeriod = new Map<number, number>()
      p.days.forEach((date, i) => {
        const key = periodOf(g.cap.period, dayNumber(date))
        byPeriod.set(key, (byPeriod.get(key) ?? 0) + spots.reduce((a, v) => a + v.impressions[i]!, 0))
      })
      g.counts = new Counts(Math.min(audience.size, Math.max(0, ...byPeriod.values())))
    }
  }

  /** Any spot is capped. */
  get active(): boolean {
    return this.groups.length > 0
  }

  /** A new day (days since 1970-01-01): the groups whose period ends start counting again. */
  startDay(day: number): void {
    for (const g of this.groups) {
      const period = periodOf(g.cap.period, day)
      if (period !== g.period) (g.counts.clear(), (g.period = period))
    }
  }

  /**
   * The client of an impression of spot `s` (mobile share `mobileShare`, its profile), under its caps: the
   * first draw over a cap gets through with CAP_LEAK, else it is drawn again, then searched
   * for; -1 when nobody under the cap is found (the impression is not delivered).
   */
  pick(s: number, mobileShare: number, profile: Float64Array | null): number {
    const groups = this.ofSpot[s]!
    const { audience, rng } = this
    let j = audience.pick(rng, mobileShare, profile)
    // invalid traffic is not held back: bots and proxies change their ids faster than a cap counts
    if (groups.length === 0 || j >= audience.regular) return j
    if (this.under(groups, j) || rng.next() < d.CAP_LEAK) return this.count(groups, j)
    for (let t = 0; t < d.CAP_REDRAWS; t++) {
      j = audience.pickRegular(rng, mobileShare, profile)
      if (this.under(groups, j)) return this.count(groups, j)
    }
    const mobileOnly = mobileShare >= 1
    for (let t = 0, k = audience.nextRegular(j % audience.regular); t < d.CAP_SCAN; t++, k = audience.nextRegular(k)) {
      if (mobileOnly && !audience.clients.mobile(k)) continue
      if (this.under(groups, k)) return this.count(groups, k)
    }
    return -1
  }

  private under(groups: Group[], j: number): boolean {
    for (const g of groups) if (g.counts.get(j) >= g.cap.limit) return false
    return true
  }

  private count(groups: Group[], j: number): number {
    for (const g of groups) g.counts.add(j)
    return j
  }
}
