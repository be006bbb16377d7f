/**
 * The identity dictionary: identity text <-> number, with the platform and the time each was first
 * seen (for the stable audience), the devices (ids that arrived together on one hit, linked into
 * one device: docs/attribution.md, "Devices"), the per-device state of the frequency rule
 * (docs/attribution.md §5) and the latest touches minisite events are credited to (metrics.md).
 * Numbers are dense from 1, so reports can index arrays by them. A device's state lives in the
 * record of its root, the oldest of its ids; events are recorded under the root of the time.
 */
import { ensure } from './grow'
import { hashText } from './text-hash'
import { TextIndex } from './text-index'
import { IdentityTexts } from './identity-texts'
import { nextTurn } from '../clock'
import type { IdentityRecord } from './record'
import { CLK_LIMIT, CLK_MAX, IMP_LIMIT, IMP_MAX, RecentTimes, mergeTimes, newest } from './recent-times'

/** The frequency rule: more than this many impressions / clicks within this long (sliding, per device). */
export const FREQUENCY_WINDOW_MS = 10 * 60_000
export const MAX_IMPRESSIONS_PER_WINDOW = IMP_LIMIT
export const MAX_CLICKS_PER_WINDOW = CLK_LIMIT
/** The most ids one device holds: a link that would make it hold more is not made. */
export const MAX_DEVICE_IDS = 16

/** Bits of an identity's kind byte. */
export const ID_KIND = {
  /** An address+agent identity (`ipua:`), or a device one is linked to: exempt from the frequency rule. */
  address: 1,
  /** A first-party cookie (`amid:`): never linked with device ids. */
  cookie: 2,
  /** Member of a device of several ids (its root is in `roots`). */
  grouped: 4,
  /** Has had an event recorded under it (a merge of it relabels the partitions it has events in). */
  events: 8,
} as const

/** The kind bits a text has of itself. */
export function kindOfText(text: string): number {
  return text.startsWith('ipua:') ? ID_KIND.address : text.startsWith('amid:') ? ID_KIND.cookie : 0
}

/** The typed arrays of an Identities, trimmed to its size (checkpoint.ts, version 4). */
export interface IdentityArrays extends IdentityRest {
  platform: Uint8Array<ArrayBuffer>
  kind: Uint8Array<ArrayBuffer>
  firstSeen: Float64Array<ArrayBuffer>
  impLast: Float64Array<ArrayBuffer>
  clkLast: Float64Array<ArrayBuffer>
  impCampaign: Uint32Array<ArrayBuffer>
  impSpot: Uint32Array<ArrayBuffer>
  impTs: Float64Array<ArrayBuffer>
  clkCampaign: Uint32Array<ArrayBuffer>
  clkSpot: Uint32Array<ArrayBuffer>
  clkTs: Float64Array<ArrayBuffer>
}

/** What a checkpoint keeps of an Identities beside its records or their fields. */
interface IdentityRest {
  roots: Uint32Array<ArrayBuffer>
  /** The `earlier` touches, six numbers each: id, campaign, clkSpot, clkTs, impSpot, impTs. */
  earlier: Float64Array<ArrayBuffer>
  /** The recent times of the frequency rule (RecentTimes.toArray). */
  recent: Float64Array<ArrayBuffer>
  /** Campaigns of uncounted hits: id, count, the campaigns, per identity. */
  uncounted: Float64Array<ArrayBuffer>
}

/**
 * An Identities as a checkpoint keeps it (checkpoint.ts): its records as they are in memory
 * (RECORD_LAYOUT), its roots and the rest. Taken from a checkpoint, `records` and `roots` may be
 * longer than the identities: room for the next ones.
 */
export interface IdentityRecords extends IdentityRest {
  /** REC float64s an identity. */
  records: Float64Array<ArrayBuffer>
}

/** A device merge: `gone` (the younger root) joined `keep`; `campaigns` where gone had events, null when it had none. */
export interface Merge {
  keep: number
  gone: number
  campaigns: number[] | null
}

/**
 * The per-identity record: 64 bytes an identity in one buffer, read through views of three element
 * types. A hit reads and writes its device's first sighting, latest frequency times and latest
 * touch of its kind: in one record they are one or two cache misses. Offsets are in elements of
 * each view.
 */
const F64 = { firstSeen: 0, impLast: 1, impTs: 2, clkTs: 3, clkLast: 7 } as const
const U32 = { impCampaign: 8, impSpot: 9, clkCampaign: 10, clkSpot: 11, recent: 12 } as const
const U8 = { platform: 52, kind: 53 } as const
/** Record size: in float64s, and in the units of the other views. */
const REC = 8
/** The records' layout: a checkpoint that keeps them as they are names it, and one of another layout is not read. */
export const RECORD_LAYOUT = JSON.stringify({ REC, F64, U32, U8 })

/** Texts indexed a turn by indexInTurns() (about 20 ms). */
const INDEX_A_TURN = 100_000
/** Ids a turn of settleInTurns() takes into the devices (a few ms). */
const SETTLE_A_TURN = 250_000

/** What a checkpoint's rest holds until taken (Identities.pending): not the roots, the identities' own from the start. */
type Pending = Omit<IdentityRest, 'roots'>

type Earlier = Map<number, Map<number, { clkSpot: number; clkTs: number; impSpot: number; impTs: number }>>

export class Identities {
  /** The identity texts, id order ('' first: ids run from 1). */
  private texts = new IdentityTexts()
  /** text -> id; built from `texts` on first use after a checkpoint (a start that only reports never needs it). */
  private byText: TextIndex | null = new TextIndex(this.texts)
  /** The records (REC float64s an identity), and views of the same memory. */
  private f64 = new Float64Array(1024 * REC)
  private u32 = new Uint32Array(this.f64.buffer)
  private u8 = new Uint8Array(this.f64.buffer)
  /** The root (device) of each id: itself unless grouped. */
  private roots = new Uint32Array(1024)
  /** The ids of each device of several, by root, ascending (`members`). */
  private memberLists = new Map<number, number[]>()
  /** Recent times of identities with several hits of a kind within 10 minutes (`recent`). */
  private recentTimes = new RecentTimes()
  /** Campaigns with uncounted impressions or clicks (no touch) of linkable identities (`uncounted`). */
  private uncountedOf = new Map<number, number[]>()
  /** The touches of campaigns a device touched before its latest of a kind (`earlier`). */
  private earlierOf: Earlier = new Map()
  /**
   * A checkpoint's devices, touches, recent times and uncounted campaigns, not yet taken into the
   * structures above (fromRecords): reports read only the records and roots, so a start's first
   * report does not wait for them. The first use of one takes the rest at once (settle()), and
   * settleInTurns() takes them between turns of the event loop after a start. `linked`: whether
   * any of the first `n` ids belongs to a device of several (worked out at its first ask).
   */
  private pending: { rest: Pending; n: number; next: number; linked?: boolean } | null = null
  /** Merges of two devices that both had events (Measurement.personOf rebuilds its maps on a change). */
  merges = 0

  /** Number of identities + 1 (ids run from 1). */
  get size(): number {
    return this.texts.size
  }

  constructor() {
    this.texts.push('')
  }

  /** The text of identity `id` (a string made on each call: reports and the API ask for few). */
  text(id: number): string {
    return this.texts.text(id)
  }

  /** The identity texts, for reading ahead of lookups (Ingest) and for a checkpoint. */
  get textStore(): IdentityTexts {
    return this.texts
  }

  /** The text index being built between turns (indexInTurns), and the next id it adds. */
  private building: { index: TextIndex; next: number } | null = null

  private get ids(): TextIndex {
    if (this.byText === null) {
      // (the rest of a build begun between turns, or all of it)
      const b = this.building ?? { index: new TextIndex(this.texts, this.texts.size), next: 1 }
      for (let id = b.next; id < this.texts.size; id++) b.index.set(id)
      this.byText = b.index
      this.building = null
    }
    return this.byText
  }

  /**
   * Builds the text index after a start from a checkpoint, INDEX_A_TURN texts at a time between
   * turns of the event loop, so that the server's first hit does not build it in one piece (about
   * 330 ms at 1.5 million identities, every request waiting meanwhile). A lookup before it is done
   * finishes it at once.
   */
  async indexInTurns(): Promise<void> {
    while (this.byText === null) {
      const b = (this.building ??= { index: new TextIndex(this.texts, this.texts.size), next: 1 })
      for (const to = Math.min(this.texts.size, b.next + INDEX_A_TURN); b.next < to; b.next++) b.index.set(b.next)
      if (b.next >= this.texts.size) {
        this.byText = b.index
        this.building = null
        return
      }
      await nextTurn()
    }
  }

  /** The id of `text`; `hash` is its hashText when the caller has it already. */
  get(text: string, hash?: number): number | undefined {
    return this.ids.get(text, hash)
  }

  /** TextIndex.peek of the text index: the id a text of `hash` most likely has (0: none), read ahead of its get(). */
  peek(hash: number): number {
    return this.ids.peek(hash)
  }

  /** Whether a checkpoint's rest (devices, touches, recent times, uncounted campaigns) is taken (fromRecords). */
  get restTaken(): boolean {
    return this.pending === null
  }

  /** Whether the text index is built (get() then costs a lookup, not the rest of the build). */
  get indexed(): boolean {
    return this.byText !== null
  }

  platformOf(id: number): number {
    return this.u8[id * REC * 8 + U8.platform]!
  }

  /** The kind bits of an id (ID_KIND). */
  kindOf(id: number): number {
    return this.u8[id * REC * 8 + U8.kind]!
  }

  /** When the identity was first seen (ms). */
  firstSeenOf(id: number): number {
    return this.f64[id * REC + F64.firstSeen]!
  }

  /** The device (root id) an id belongs to. */
  rootOf(id: number): number {
    return (this.u8[id * REC * 8 + U8.kind]! & ID_KIND.grouped) === 0 ? id : this.roots[id]!
  }

  /**
   * Identity texts by kind (measurement status): device ids, first-party cookies, address+agent
   * identities; and how many texts belong to a device of another id (linked ids, legacy texts).
   */
  kinds(): { device: number; cookie: number; address: number; linked: number } {
    const out = { device: 0, cookie: 0, address: 0, linked: 0 }
    for (let id = 1; id < this.texts.size; id++) {
      const k = this.u8[id * REC * 8 + U8.kind]!
      if ((k & ID_KIND.cookie) !== 0) out.cookie++
      else if ((k & ID_KIND.address) !== 0) out.address++
      else out.device++
      if ((k & ID_KIND.grouped) !== 0 && this.roots[id] !== id) out.linked++
    }
    return out
  }

  /** The ids of the device of `root` (itself alone when it holds one). */
  membersOf(root: number): readonly number[] {
    return this.members.get(root) ?? [root]
  }

  /** Whether any id belongs to a device of several (reports then read roots). */
  get linked(): boolean {
    const p = this.pending
    if (p === null) return this.memberLists.size > 0
    // (no link is made while the rest is pending: link() takes it first)
    if (p.linked === undefined) {
      p.linked = false
      for (let id = 1; id < p.n && !p.linked; id++) p.linked = this.roots[id] !== id
    }
    return p.linked
  }

  private get members(): Map<number, number[]> {
    if (this.pending !== null) this.takeRest(Infinity)
    return this.memberLists
  }

  private get recent(): RecentTimes {
    if (this.pending !== null) this.takeRest(Infinity)
    return this.recentTimes
  }

  private get uncounted(): Map<number, number[]> {
    if (this.pending !== null) this.takeRest(Infinity)
    return this.uncountedOf
  }

  private get earlier(): Earlier {
    if (this.pending !== null) this.takeRest(Infinity)
    return this.earlierOf
  }

  /**
   * Takes a checkpoint's rest (fromRecords) SETTLE_A_TURN ids at a time between turns of the event
   * loop, the recent times in a turn of their own, so that a start's first hit finds it taken and
   * no turn holds requests for all of it. A use of the rest before it is done takes what is left at once.
   */
  async settleInTurns(): Promise<void> {
    for (let p = this.pending; p !== null; p = this.pending) {
      this.takeRest(p.next < p.n ? Math.min(p.n, p.next + SETTLE_A_TURN) : Infinity)
      if (this.pending !== null) await nextTurn()
    }
  }

  /** Marks that an event is recorded under `id` (a root). */
  noteEvent(id: number): void {
    this.u8[id * REC * 8 + U8.kind]! |= ID_KIND.events
  }

  /** Adds a new identity and returns its record (to be written before its first event). */
  add(text: string, platform: number, firstSeen: number): IdentityRecord {
    const id = this.texts.size
    this.restore({ id, text, platform, firstSeen })
    return { id, text, platform, firstSeen }
  }

  /** Takes an identity read from the log. */
  restore(r: IdentityRecord): void {
    if (r.id !== this.texts.size) throw new Error(`identity ${r.id} out of order (expected ${this.texts.size}): the event log is damaged`)
    this.texts.push(r.text)
    // (without an index yet, as after a checkpoint, its build takes the text from `texts` with the rest)
    if (this.byText !== null) this.byText.set(r.id, hashText(r.text))
    this.room(this.texts.size)
    this.u8[r.id * REC * 8 + U8.platform] = r.platform
    this.u8[r.id * REC * 8 + U8.kind] = kindOfText(r.text)
    this.f64[r.id * REC + F64.firstSeen] = r.firstSeen
    this.roots[r.id] = r.id
  }

  /** Records for `n` identities. */
  private room(n: number): void {
    if (n > this.roots.length) this.roots = ensure(this.roots, n)
    if (n * REC <= this.f64.length) return
    this.setRecords(ensure(this.f64, n * REC))
  }

  private setRecords(f64: Float64Array<ArrayBuffer>): void {
    this.f64 = f64
    this.u32 = new Uint32Array(f64.buffer)
    this.u8 = new Uint8Array(f64.buffer)
  }

  /**
   * Whether ids `a` and `b` may be linked by a hit (docs/attribution.md, "Devices"): device ids
   * with device ids; a cookie never; an address identity only with its legacy text (`legacy`).
   */
  linkable(a: number, b: number, legacy: boolean): boolean {
    const ka = this.kindOf(a) & (ID_KIND.address | ID_KIND.cookie)
    const kb = this.kindOf(b) & (ID_KIND.address | ID_KIND.cookie)
    return legacy ? ka === ID_KIND.address && kb === ID_KIND.cookie : ka === 0 && kb === 0
  }

  /**
   * Links the devices of ids `a` and `b` into one: the older root (smaller id) survives and takes
   * the other's state (first sighting, frequency times, touches, platform). Null when they are one
   * device already or the device would hold more than MAX_DEVICE_IDS ids (the link is not made).
   */
  link(a: number, b: number): Merge | null {
    const ra = this.rootOf(a)
    const rb = this.rootOf(b)
    if (ra === rb) return null
    const ma = this.membersOf(ra)
    const mb = this.membersOf(rb)
    if (ma.length + mb.length > MAX_DEVICE_IDS) return null
    const [keep, gone] = ra < rb ? [ra, rb] : [rb, ra]
    const had = (this.kindOf(gone) & ID_KIND.events) !== 0
    const campaigns = had ? this.campaignsOf(gone) : null
    if (had) this.merges++
    const all = [...ma, ...mb].sort((x, y) => x - y)
    for (const id of all) {
      this.roots[id] = keep
      this.u8[id * REC * 8 + U8.kind]! |= ID_KIND.grouped
    }
    this.members.delete(gone)
    this.members.set(keep, all)
    this.mergeState(keep, gone)
    return { keep, gone, campaigns }
  }

  /** The campaigns `id` has touches or uncounted hits in. */
  private campaignsOf(id: number): number[] {
    const out = new Set<number>(this.uncounted.get(id))
    for (const c of [this.u32[id * REC * 2 + U32.impCampaign]!, this.u32[id * REC * 2 + U32.clkCampaign]!]) if (c !== 0) out.add(c)
    for (const c of this.earlier.get(id)?.keys() ?? []) out.add(c)
    return [...out]
  }

  /** Moves the state of root `gone` into root `keep` (link). */
  private mergeState(keep: number, gone: number): void {
    const [k8, g8] = [keep * REC * 8, gone * REC * 8]
    const f = this.f64
    f[keep * REC + F64.firstSeen] = Math.min(f[keep * REC + F64.firstSeen]!, f[gone * REC + F64.firstSeen]!)
    this.u8[k8 + U8.platform] = Math.max(this.u8[k8 + U8.platform]!, this.u8[g8 + U8.platform]!)
    this.u8[k8 + U8.kind]! |= this.u8[g8 + U8.kind]! & (ID_KIND.address | ID_KIND.events)
    // frequency: both devices' recent times as one list per kind
    const imp = mergeTimes(this.timesOf(keep, false), this.timesOf(gone, false), FREQUENCY_WINDOW_MS, IMP_MAX)
    const clk = mergeTimes(this.timesOf(keep, true), this.timesOf(gone, true), FREQUENCY_WINDOW_MS, CLK_MAX)
    for (const id of [keep, gone]) {
      const slot = this.u32[id * REC * 2 + U32.recent]!
      if (slot !== 0) this.recent.close(slot)
      this.u32[id * REC * 2 + U32.recent] = 0
    }
    f[gone * REC + F64.impLast] = 0
    f[gone * REC + F64.clkLast] = 0
    this.setTimes(keep, imp, clk)
    // touches: the latest of each campaign wins
    for (const click of [false, true]) {
      const c = gone * REC * 2 + (click ? U32.clkCampaign : U32.impCampaign)
      if (this.u32[c] !== 0) this.mergeTouch(keep, click, this.u32[c]!, this.u32[c + 1]!, f[gone * REC + (click ? F64.clkTs : F64.impTs)]!)
      this.u32[c] = 0
      this.u32[c + 1] = 0
      f[gone * REC + (click ? F64.clkTs : F64.impTs)] = 0
    }
    for (const [campaign, e] of this.earlier.get(gone) ?? []) {
      if (e.clkTs > -Infinity) this.mergeTouch(keep, true, campaign, e.clkSpot, e.clkTs)
      if (e.impTs > -Infinity) this.mergeTouch(keep, false, campaign, e.impSpot, e.impTs)
    }
    this.earlier.delete(gone)
    const u = this.uncounted.get(gone)
    if (u) for (const c of u) this.noteUncounted(keep, c)
    this.uncounted.delete(gone)
  }

  /** A device's recent times of a kind, ascending (its slot's, or the one kept in its record): a copy. */
  private timesOf(id: number, click: boolean): number[] {
    const slot = this.u32[id * REC * 2 + U32.recent]!
    if (slot !== 0) return this.recent.list(slot, click)
    const last = this.f64[id * REC + (click ? F64.clkLast : F64.impLast)]!
    return last === 0 ? [] : [last]
  }

  /** Keeps a device's recent times: in its record when at most one of each kind, else in a slot. */
  private setTimes(id: number, imp: number[], clk: number[]): void {
    this.f64[id * REC + F64.impLast] = imp.length > 0 ? newest(imp) : 0
    this.f64[id * REC + F64.clkLast] = clk.length > 0 ? newest(clk) : 0
    if (imp.length <= 1 && clk.length <= 1) {
      this.u32[id * REC * 2 + U32.recent] = 0
      return
    }
    const at = (this.u32[id * REC * 2 + U32.recent] = this.recent.open(id))
    this.recent.set(at, false, imp)
    this.recent.set(at, true, clk)
  }

  /** A touch of another device (a merge): the latest of each campaign wins, whatever the order. */
  private mergeTouch(id: number, click: boolean, campaign: number, spot: number, ts: number): void {
    const c = id * REC * 2 + (click ? U32.clkCampaign : U32.impCampaign)
    const at = id * REC + (click ? F64.clkTs : F64.impTs)
    const was = this.u32[c]!
    if (was !== 0 && was !== campaign && ts <= this.f64[at]!) return this.keepEarlier(id, click, campaign, spot, ts)
    if (was === campaign && ts <= this.f64[at]!) return
    if (was !== 0 && was !== campaign) this.keepEarlier(id, click, was, this.u32[c + 1]!, this.f64[at]!)
    this.u32[c] = campaign
    this.u32[c + 1] = spot
    this.f64[at] = ts
  }

  /** Remembers a campaign a linkable identity has an uncounted impression or click in (its partition is relabelled on a merge). */
  noteUncounted(id: number, campaign: number): void {
    if ((this.kindOf(id) & (ID_KIND.address | ID_KIND.cookie)) !== 0) return
    const list = this.uncounted.get(id)
    if (!list) this.uncounted.set(id, [campaign])
    else if (!list.includes(campaign)) list.push(campaign)
  }

  /** Everything but the texts, as arrays (a checkpoint): copies, since hits change them in place. */
  arrays(): IdentityArrays {
    // (first the rest: it clears the recent times' slots in the records)
    if (this.pending !== null) this.takeRest(Infinity)
    const n = this.size
    const field = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(out: T, view: T, at: number, stride: number): T => {
      for (let id = 0; id < n; id++) out[id] = view[id * stride + at]!
      return out
    }
    const [f, u32, u8] = [REC, REC * 2, REC * 8]
    return {
      platform: field(new Uint8Array(n), this.u8, U8.platform, u8), kind: field(new Uint8Array(n), this.u8, U8.kind, u8),
      firstSeen: field(new Float64Array(n), this.f64, F64.firstSeen, f),
      impLast: field(new Float64Array(n), this.f64, F64.impLast, f), clkLast: field(new Float64Array(n), this.f64, F64.clkLast, f),
      impCampaign: field(new Uint32Array(n), this.u32, U32.impCampaign, u32), impSpot: field(new Uint32Array(n), this.u32, U32.impSpot, u32),
      impTs: field(new Float64Array(n), this.f64, F64.impTs, f),
      clkCampaign: field(new Uint32Array(n), this.u32, U32.clkCampaign, u32), clkSpot: field(new Uint32Array(n), this.u32, U32.clkSpot, u32),
      clkTs: field(new Float64Array(n), this.f64, F64.clkTs, f),
      ...this.rest(),
    }
  }

  /** The records as they are and the rest (a checkpoint): copies, since hits change them in place. */
  records(): IdentityRecords {
    if (this.pending !== null) this.takeRest(Infinity)
    return { records: this.f64.slice(0, this.size * REC), ...this.rest() }
  }

  /** What arrays() and records() keep beside the records' fields: copies. */
  private rest(): IdentityRest {
    const earlier: number[] = []
    for (const [id, m] of this.earlier) for (const [campaign, e] of m) earlier.push(id, campaign, e.clkSpot, e.clkTs, e.impSpot, e.impTs)
    const uncounted: number[] = []
    for (const [id, list] of [...this.uncounted].sort((a, b) => a[0] - b[0])) uncounted.push(id, list.length, ...list)
    return { roots: this.roots.slice(0, this.size), earlier: Float64Array.from(earlier), recent: this.recent.toArray(), uncounted: Float64Array.from(uncounted) }
  }

  /** An Identities from a checkpoint: its texts (id order, '' first) and arrays. */
  static from(texts: IdentityTexts, a: IdentityArrays): Identities {
    const x = new Identities()
    const n = texts.size
    const sizes = [a.kind, a.firstSeen, a.impLast, a.clkLast, a.roots, a.impCampaign, a.impSpot, a.impTs, a.clkCampaign, a.clkSpot, a.clkTs].map((v) => v.length)
    if (n === 0 || texts.text(0) !== '' || n !== a.platform.length || sizes.some((k) => k !== n)) throw new Error('checkpoint: identity texts and arrays differ in length')
    x.texts = texts
    x.byText = null
    // room for an eighth more: the first new identity after a start does not double the records
    // while the old ones are still held (a start at a million identities: 73 MB, not 65 then 195)
    const room = Math.max(n + (n >> 3), 1024)
    x.setRecords(new Float64Array(room * REC))
    x.roots = new Uint32Array(room)
    x.roots.set(a.roots)
    // one pass writing each record whole (a record is one cache line), not a pass per field
    const [f64, u32, u8] = [x.f64, x.u32, x.u8]
    for (let id = 0; id < n; id++) {
      const r = id * REC
      f64[r + F64.firstSeen] = a.firstSeen[id]!
      f64[r + F64.impLast] = a.impLast[id]!
      f64[r + F64.impTs] = a.impTs[id]!
      f64[r + F64.clkTs] = a.clkTs[id]!
      f64[r + F64.clkLast] = a.clkLast[id]!
      u32[r * 2 + U32.impCampaign] = a.impCampaign[id]!
      u32[r * 2 + U32.impSpot] = a.impSpot[id]!
      u32[r * 2 + U32.clkCampaign] = a.clkCampaign[id]!
      u32[r * 2 + U32.clkSpot] = a.clkSpot[id]!
      u8[r * 8 + U8.platform] = a.platform[id]!
      u8[r * 8 + U8.kind] = a.kind[id]!
    }
    x.pending = { rest: a, n, next: 0 }
    x.takeRest(Infinity)
    return x
  }

  /**
   * An Identities from a checkpoint that keeps the records as they are (RECORD_LAYOUT): its texts
   * (id order, '' first) and arrays. The records and roots are taken, not copied: their length
   * past the identities is room for the next ones. The rest (devices, touches, recent times,
   * uncounted campaigns) is taken at its first use or by settleInTurns(), not here.
   */
  static fromRecords(texts: IdentityTexts, a: IdentityRecords): Identities {
    const x = new Identities()
    const n = texts.size
    if (n === 0 || texts.text(0) !== '' || a.records.length < n * REC || a.records.length % REC !== 0 || a.roots.length < n) throw new Error('checkpoint: identity texts and records differ in length')
    x.texts = texts
    x.byText = null
    x.setRecords(a.records)
    x.roots = a.roots
    x.pending = { rest: { earlier: a.earlier, recent: a.recent, uncounted: a.uncounted }, n, next: 0 }
    return x
  }

  /**
   * Takes the pending rest of a checkpoint (`pending`): the ids below `to` (their slots of recent
   * times cleared, their devices listed), and once every id is, with `to` past them, the touches,
   * recent times and uncounted campaigns. Writes the structures' fields, never their getters.
   */
  private takeRest(to: number): void {
    const p = this.pending
    if (p === null) return
    const { rest: a, n } = p
    const [u32, roots, members] = [this.u32, this.roots, this.memberLists]
    const end = Math.min(n, to)
    for (let id = p.next; id < end; id++) {
      // (the slots of recent times are numbered afresh: the last step sets those of the devices that hold one)
      u32[id * REC * 2 + U32.recent] = 0
      const root = roots[id]!
      if (root === id) continue
      let m = members.get(root)
      if (!m) members.set(root, (m = [root]))
      m.push(id)
    }
    p.next = Math.max(p.next, end)
    if (to <= n) return
    for (let i = 0; i + 6 <= a.earlier.length; i += 6) {
      const id = a.earlier[i]!
      let m = this.earlierOf.get(id)
      if (!m) this.earlierOf.set(id, (m = new Map()))
      m.set(a.earlier[i + 1]!, { clkSpot: a.earlier[i + 2]!, clkTs: a.earlier[i + 3]!, impSpot: a.earlier[i + 4]!, impTs: a.earlier[i + 5]! })
    }
    this.recentTimes = RecentTimes.fromArray(a.recent, (owner, slot) => (this.u32[owner * REC * 2 + U32.recent] = slot))
    for (let i = 0; i + 2 <= a.uncounted.length; i += 2 + a.uncounted[i + 1]!) this.uncountedOf.set(a.uncounted[i]!, Array.from(a.uncounted.subarray(i + 2, i + 2 + a.uncounted[i + 1]!)))
    this.pending = null
  }

  /**
   * Remembers an impression or click that counts (metrics.md: only those earn minisite credit):
   * the device's latest of its kind in its record, and when a touch of another campaign replaces
   * it, the replaced one per campaign in `earlier` (only devices that touch several campaigns
   * have an entry there).
   */
  touched(id: number, click: boolean, campaign: number, spot: number, ts: number): void {
    // the campaign and spot of the kind's touch, in u32 units; its time, in float64s
    const c = id * REC * 2 + (click ? U32.clkCampaign : U32.impCampaign)
    const at = id * REC + (click ? F64.clkTs : F64.impTs)
    const u32 = this.u32
    const was = u32[c]!
    if (was !== 0 && was !== campaign) this.keepEarlier(id, click, was, u32[c + 1]!, this.f64[at]!)
    if (was === campaign && ts < this.f64[at]!) return
    u32[c] = campaign
    u32[c + 1] = spot
    this.f64[at] = ts
  }

  private keepEarlier(id: number, click: boolean, campaign: number, spot: number, ts: number): void {
    let m = this.earlier.get(id)
    if (!m) this.earlier.set(id, (m = new Map()))
    const e = m.get(campaign) ?? { clkSpot: 0, clkTs: -Infinity, impSpot: 0, impTs: -Infinity }
    if (click && ts > e.clkTs) (e.clkSpot = spot, e.clkTs = ts)
    if (!click && ts > e.impTs) (e.impSpot = spot, e.impTs = ts)
    m.set(campaign, e)
  }

  /**
   * The campaign and spot a minisite event credits (metrics.md): the device's latest click on a
   * campaign `linked` allows, within `windowMs` before `ts`; else its latest such impression.
   */
  lastTouch(text: string, ts: number, windowMs: number, linked: (campaign: number) => boolean): { campaign: number; spot: number } | null {
    const id = this.ids.get(text)
    return id === undefined ? null : this.creditOf(this.rootOf(id), ts, windowMs, linked)
  }

  /** lastTouch by device (root) number. */
  creditOf(id: number, ts: number, windowMs: number, linked: (campaign: number) => boolean): { campaign: number; spot: number } | null {
    const ok = (at: number) => at <= ts && ts - at <= windowMs
    for (const click of [true, false]) {
      let best: { campaign: number; spot: number; at: number } | null = null
      const i = id * REC * 2 + (click ? U32.clkCampaign : U32.impCampaign)
      const [c, s, at] = [this.u32[i]!, this.u32[i + 1]!, this.f64[id * REC + (click ? F64.clkTs : F64.impTs)]!]
      if (c !== 0 && ok(at) && linked(c)) best = { campaign: c, spot: s, at }
      for (const [campaign, e] of this.earlier.get(id) ?? []) {
        const [spot, when] = click ? [e.clkSpot, e.clkTs] : [e.impSpot, e.impTs]
        if (ok(when) && linked(campaign) && (!best || when > best.at)) best = { campaign, spot, at: when }
      }
      if (best) return { campaign: best.campaign, spot: best.spot }
    }
    return null
  }

  /**
   * Judges an impression or click of device `id` at `ts` by the frequency rule (docs/attribution.md
   * §5): beyond the limit when, counting it, the device has more than MAX_IMPRESSIONS_PER_WINDOW
   * impressions (MAX_CLICKS_PER_WINDOW clicks) whose times lie in the FREQUENCY_WINDOW_MS up to and
   * including `ts`, among the hits judged before it (arrival order). Address+agent devices are
   * exempt (never beyond, nothing kept). A device alone in its 10 minutes keeps its latest time in
   * its record; one with more, in a slot of `recent`.
   */
  overLimit(id: number, ts: number, click: boolean): boolean {
    const k8 = id * REC * 8
    if ((this.u8[k8 + U8.kind]! & ID_KIND.address) !== 0) return false
    const recent = this.recent
    recent.latest = ts
    const r = id * REC * 2 + U32.recent
    let slot = this.u32[r]!
    if (slot === 0) {
      const at = id * REC + (click ? F64.clkLast : F64.impLast)
      const last = this.f64[at]!
      // alone in its 10 minutes: nothing to count (the common case, no slot)
      if (last === 0 || Math.abs(ts - last) >= FREQUENCY_WINDOW_MS) {
        if (ts > last) this.f64[at] = ts
        return false
      }
      // several of a kind within 10 minutes: a slot, with the latest time of each kind kept so far
      slot = this.u32[r] = recent.open(id)
      const [imp, clk] = [this.f64[id * REC + F64.impLast]!, this.f64[id * REC + F64.clkLast]!]
      if (imp !== 0) recent.judge(slot, false, imp, FREQUENCY_WINDOW_MS)
      if (clk !== 0) recent.judge(slot, true, clk, FREQUENCY_WINDOW_MS)
    }
    const before = recent.judge(slot, click, ts, FREQUENCY_WINDOW_MS)
    if (recent.count(slot, false) <= 1 && recent.count(slot, true) <= 1) this.release(id, slot)
    if (recent.live > recent.sweepAt) for (const at of recent.sweep(FREQUENCY_WINDOW_MS)) this.release(recent.ownerOf(at), at)
    return before >= (click ? MAX_CLICKS_PER_WINDOW : MAX_IMPRESSIONS_PER_WINDOW)
  }

  /** Lets a device's slot go, its newest time of each kind kept in its record. */
  private release(id: number, slot: number): void {
    const recent = this.recent
    if (recent.count(slot, false) > 0) this.f64[id * REC + F64.impLast] = recent.newest(slot, false)
    if (recent.count(slot, true) > 0) this.f64[id * REC + F64.clkLast] = recent.newest(slot, true)
    this.u32[id * REC * 2 + U32.recent] = 0
    this.recent.close(slot)
  }
}
