/**
 * The identity dictionary: identity text <-> number, with the platform and the time each was first
 * seen (for the stable audience). Numbers are dense from 1, so reports can index arrays by them.
 * Also the per-identity counters of the abnormal-frequency rule (metrics.md).
 */
import { ensure } from './grow'
import { TextIndex } from './text-index'
import { nextTurn } from '../runtime'
import type { IdentityRecord } from './record'

/** The abnormal-frequency rule: more than this many impressions / clicks in one window. */
export const FREQUENCY_WINDOW_MS = 10 * 60_000
export const MAX_IMPRESSIONS_PER_WINDOW = 30
export const MAX_CLICKS_PER_WINDOW = 5

/** The typed arrays of an Identities, trimmed to its size (checkpoint.ts). */
export interface IdentityArrays {
  platform: Uint8Array<ArrayBuffer>
  firstSeen: Float64Array<ArrayBuffer>
  window: Float64Array<ArrayBuffer>
  impressions: Uint16Array<ArrayBuffer>
  clicks: Uint16Array<ArrayBuffer>
  earlierWindow: Uint32Array<ArrayBuffer>
  earlierImpressions: Uint16Array<ArrayBuffer>
  earlierClicks: Uint16Array<ArrayBuffer>
  impCampaign: Uint32Array<ArrayBuffer>
  impSpot: Uint32Array<ArrayBuffer>
  impTs: Float64Array<ArrayBuffer>
  clkCampaign: Uint32Array<ArrayBuffer>
  clkSpot: Uint32Array<ArrayBuffer>
  clkTs: Float64Array<ArrayBuffer>
  /** The `earlier` touches, six numbers each: id, campaign, clkSpot, clkTs, impSpot, impTs. */
  earlier: Float64Array<ArrayBuffer>
}

/**
 * The per-identity record: 64 bytes an identity in one buffer, read through views of three element
 * types. A hit reads and writes its identity's first sighting, frequency window and latest touch
 * of its kind: held in separate arrays (eleven of them, 53 bytes an identity), those were six
 * cache misses a hit over a million identities; in one record they are one or two. Bytes 56-63
 * hold the earlier frequency window (its number, u32, and its two counts).
 * Offsets are in elements of each view.
 */
const F64 = { firstSeen: 0, window: 1, impTs: 2, clkTs: 3 } as const
const U32 = { impCampaign: 8, impSpot: 9, clkCampaign: 10, clkSpot: 11, earlierWindow: 14 } as const
const U16 = { impressions: 24, clicks: 25, earlierImpressions: 30, earlierClicks: 31 } as const
const U8 = { platform: 52 } as const
/** Record size: in float64s, and in the units of the other views. */
const REC = 8

/** Texts indexed a turn by indexInTurns() (about 20 ms). */
const INDEX_A_TURN = 100_000

export class Identities {
  texts: string[] = ['']
  /** text -> id; built from `texts` on first use after a checkpoint (a start that only reports never needs it). */
  private byText: TextIndex | null = new TextIndex(this.texts)
  /** The records (REC float64s an identity), and views of the same memory. */
  private f64 = new Float64Array(1024 * REC)
  private u32 = new Uint32Array(this.f64.buffer)
  private u16 = new Uint16Array(this.f64.buffer)
  private u8 = new Uint8Array(this.f64.buffer)

  /** Number of identities + 1 (ids run from 1). */
  get size(): number {
    return this.texts.length
  }

  /** The text index being built between turns (indexInTurns), and the next id it adds. */
  private building: { index: TextIndex; next: number } | null = null

  private get ids(): TextIndex {
    if (this.byText === null) {
      // (the rest of a build begun between turns, or all of it)
      const b = this.building ?? { index: new TextIndex(this.texts, this.texts.length), next: 1 }
      for (let id = b.next; id < this.texts.length; id++) b.index.set(this.texts[id]!, id)
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
      const b = (this.building ??= { index: new TextIndex(this.texts, this.texts.length), next: 1 })
      for (const to = Math.min(this.texts.length, b.next + INDEX_A_TURN); b.next < to; b.next++) b.index.set(this.texts[b.next]!, b.next)
      if (b.next >= this.texts.length) {
        this.byText = b.index
        this.building = null
        return
      }
      await nextTurn()
    }
  }

  get(text: string): number | undefined {
    return this.ids.get(text)
  }

  platformOf(id: number): number {
    return this.u8[id * REC * 8 + U8.platform]!
  }

  /** When the identity was first seen (ms). */
  firstSeenOf(id: number): number {
    return this.f64[id * REC + F64.firstSeen]!
  }

  /** Adds a new identity and returns its record (to be written before its first event). */
  add(text: string, platform: number, firstSeen: number): IdentityRecord {
    const id = this.texts.length
    this.restore({ id, text, platform, firstSeen })
    return { id, text, platform, firstSeen }
  }

  /** Takes an identity read from the log. */
  restore(r: IdentityRecord): void {
    if (r.id !== this.texts.length) throw new Error(`identity ${r.id} out of order (expected ${this.texts.length}): the event log is damaged`)
    this.texts.push(r.text)
    this.ids.set(r.text, r.id)
    this.room(this.texts.length)
    this.u8[r.id * REC * 8 + U8.platform] = r.platform
    this.f64[r.id * REC + F64.firstSeen] = r.firstSeen
  }

  /** Records for `n` identities. */
  private room(n: number): void {
    if (n * REC <= this.f64.length) return
    this.setRecords(ensure(this.f64, n * REC))
  }

  private setRecords(f64: Float64Array<ArrayBuffer>): void {
    this.f64 = f64
    this.u32 = new Uint32Array(f64.buffer)
    this.u16 = new Uint16Array(f64.buffer)
    this.u8 = new Uint8Array(f64.buffer)
  }

  /** Everything but the texts, as arrays (a checkpoint): copies, since hits change them in place. */
  arrays(): IdentityArrays {
    const n = this.size
    const earlier: number[] = []
    for (const [id, m] of this.earlier) for (const [campaign, e] of m) earlier.push(id, campaign, e.clkSpot, e.clkTs, e.impSpot, e.impTs)
    const field = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(out: T, view: T, at: number, stride: number): T => {
      for (let id = 0; id < n; id++) out[id] = view[id * stride + at]!
      return out
    }
    const [f, u32, u16, u8] = [REC, REC * 2, REC * 4, REC * 8]
    return {
      platform: field(new Uint8Array(n), this.u8, U8.platform, u8), firstSeen: field(new Float64Array(n), this.f64, F64.firstSeen, f),
      window: field(new Float64Array(n), this.f64, F64.window, f),
      impressions: field(new Uint16Array(n), this.u16, U16.impressions, u16), clicks: field(new Uint16Array(n), this.u16, U16.clicks, u16),
      earlierWindow: field(new Uint32Array(n), this.u32, U32.earlierWindow, u32),
      earlierImpressions: field(new Uint16Array(n), this.u16, U16.earlierImpressions, u16), earlierClicks: field(new Uint16Array(n), this.u16, U16.earlierClicks, u16),
      impCampaign: field(new Uint32Array(n), this.u32, U32.impCampaign, u32), impSpot: field(new Uint32Array(n), this.u32, U32.impSpot, u32),
      impTs: field(new Float64Array(n), this.f64, F64.impTs, f),
      clkCampaign: field(new Uint32Array(n), this.u32, U32.clkCampaign, u32), clkSpot: field(new Uint32Array(n), this.u32, U32.clkSpot, u32),
      clkTs: field(new Float64Array(n), this.f64, F64.clkTs, f),
      earlier: Float64Array.from(earlier),
    }
  }

  /** An Identities from a checkpoint: its texts (id order, '' first) and arrays. */
  static from(texts: string[], a: IdentityArrays): Identities {
    const x = new Identities()
    const n = texts.length
    const sizes = [a.firstSeen, a.window, a.impressions, a.clicks, a.earlierWindow, a.earlierImpressions, a.earlierClicks, a.impCampaign, a.impSpot, a.impTs, a.clkCampaign, a.clkSpot, a.clkTs].map((v) => v.length)
    if (texts[0] !== '' || n !== a.platform.length || sizes.some((k) => k !== n)) throw new Error('checkpoint: identity texts and arrays differ in length')
    x.texts = texts
    x.byText = null
    // room for an eighth more: the first new identity after a start does not double the records
    // while the old ones are still held (a start at a million identities: 73 MB, not 65 then 195)
    x.setRecords(new Float64Array(Math.max(n + (n >> 3), 1024) * REC))
    const field = <T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(from: T, view: T, at: number, stride: number): void => {
      for (let id = 0; id < n; id++) view[id * stride + at] = from[id]!
    }
    const [f, u32, u16, u8] = [REC, REC * 2, REC * 4, REC * 8]
    field(a.platform, x.u8, U8.platform, u8)
    field(a.firstSeen, x.f64, F64.firstSeen, f)
    field(a.window, x.f64, F64.window, f)
    field(a.impressions, x.u16, U16.impressions, u16)
    field(a.clicks, x.u16, U16.clicks, u16)
    field(a.earlierWindow, x.u32, U32.earlierWindow, u32)
    field(a.earlierImpressions, x.u16, U16.earlierImpressions, u16)
    field(a.earlierClicks, x.u16, U16.earlierClicks, u16)
    field(a.impCampaign, x.u32, U32.impCampaign, u32)
    field(a.impSpot, x.u32, U32.impSpot, u32)
    field(a.impTs, x.f64, F64.impTs, f)
    field(a.clkCampaign, x.u32, U32.clkCampaign, u32)
    field(a.clkSpot, x.u32, U32.clkSpot, u32)
    field(a.clkTs, x.f64, F64.clkTs, f)
    for (let i = 0; i + 6 <= a.earlier.length; i += 6) {
      const id = a.earlier[i]!
      let m = x.earlier.get(id)
      if (!m) x.earlier.set(id, (m = new Map()))
      m.set(a.earlier[i + 1]!, { clkSpot: a.earlier[i + 2]!, clkTs: a.earlier[i + 3]!, impSpot: a.earlier[i + 4]!, impTs: a.earlier[i + 5]! })
    }
    return x
  }

  /**
   * Remembers an impression or click: the identity's latest of its kind in its record, and
   * when a touch of another campaign replaces it, the replaced one per campaign in `earlier`
   * (only identities that touch several campaigns have an entry there).
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

  private earlier = new Map<number, Map<number, { clkSpot: number; clkTs: number; impSpot: number; impTs: number }>>()

  private keepEarlier(id: number, click: boolean, campaign: number, spot: number, ts: number): void {
    let m = this.earlier.get(id)
    if (!m) this.earlier.set(id, (m = new Map()))
    const e = m.get(campaign) ?? { clkSpot: 0, clkTs: -Infinity, impSpot: 0, impTs: -Infinity }
    if (click && ts > e.clkTs) (e.clkSpot = spot, e.clkTs = ts)
    if (!click && ts > e.impTs) (e.impSpot = spot, e.impTs = ts)
    m.set(campaign, e)
  }

  /**
   * The campaign and spot a minisite event credits (metrics.md): the identity's latest click on a
   * campaign `linked` allows, within `windowMs` before `ts`; else its latest such impression.
   */
  lastTouch(text: string, ts: number, windowMs: number, linked: (campaign: number) => boolean): { campaign: number; spot: number } | null {
    const id = this.ids.get(text)
    return id === undefined ? null : this.creditOf(id, ts, windowMs, linked)
  }

  /** lastTouch by identity number. */
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
   * Counts a hit in its identity's 10-minute window (windows aligned to the clock, UTC) and says
   * whether it goes beyond the limit. Hits are counted in arrival order. Two windows are held an
   * identity, the latest and one earlier, so that hits of two windows arriving interleaved (logs
   * of several servers merged) are each counted in their own; a hit of a third, earlier window
   * starts the earlier slot over. (Until 2026-11-26 only the latest was held, and every switch
   * between two windows set both counts back to zero: 40 + 40 interleaved impressions were all valid.)
   */
  overLimit(id: number, ts: number, click: boolean): boolean {
    const w = Math.floor(ts / FREQUENCY_WINDOW_MS)
    const n16 = id * REC * 4
    const u16 = this.u16
    let k: number
    const current = this.f64[id * REC + F64.window]!
    if (w === current) k = n16 + (click ? U16.clicks : U16.impressions)
    else if (w > current) {
      // a later window: the current one becomes the earlier one, its counts kept
      this.u32[id * REC * 2 + U32.earlierWindow] = current
      u16[n16 + U16.earlierImpressions] = u16[n16 + U16.impressions]!
      u16[n16 + U16.earlierClicks] = u16[n16 + U16.clicks]!
      this.f64[id * REC + F64.window] = w
      u16[n16 + U16.impressions] = 0
      u16[n16 + U16.clicks] = 0
      k = n16 + (click ? U16.clicks : U16.impressions)
    } else {
      // an earlier window (an import's lines out of time order): counted in the earlier slot,
      // which another earlier window takes over from zero
      if (this.u32[id * REC * 2 + U32.earlierWindow] !== w) {
        this.u32[id * REC * 2 + U32.earlierWindow] = w
        u16[n16 + U16.earlierImpressions] = 0
        u16[n16 + U16.earlierClicks] = 0
      }
      k = n16 + (click ? U16.earlierClicks : U16.earlierImpressions)
    }
    const n = u16[k]! + 1
    u16[k] = Math.min(n, 65535)
    return n > (click ? MAX_CLICKS_PER_WINDOW : MAX_IMPRESSIONS_PER_WINDOW)
  }
}
