/**
 * The identity dictionary: identity text <-> number, with the platform and the time each was first
 * seen (for the stable audience). Numbers are dense from 1, so reports can index arrays by them.
 * Also the per-identity counters of the abnormal-frequency rule (metrics.md).
 */
import { ensure } from './grow'
import { TextIndex } from './text-index'
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
  impCampaign: Uint32Array<ArrayBuffer>
  impSpot: Uint32Array<ArrayBuffer>
  impTs: Float64Array<ArrayBuffer>
  clkCampaign: Uint32Array<ArrayBuffer>
  clkSpot: Uint32Array<ArrayBuffer>
  clkTs: Float64Array<ArrayBuffer>
  /** The `earlier` touches, six numbers each: id, campaign, clkSpot, clkTs, impSpot, impTs. */
  earlier: Float64Array<ArrayBuffer>
}

export class Identities {
  texts: string[] = ['']
  /** text -> id; built from `texts` on first use after a checkpoint (a start that only reports never needs it). */
  private byText: TextIndex | null = new TextIndex(this.texts)
  platform = new Uint8Array(1024)
  firstSeen = new Float64Array(1024)
  private window = new Float64Array(1024)
  private impressions = new Uint16Array(1024)
  private clicks = new Uint16Array(1024)
  /** The last impression and click of each identity (campaign, spot, time): minisite credit. */
  private touch = { impCampaign: new Uint32Array(1024), impSpot: new Uint32Array(1024), impTs: new Float64Array(1024), clkCampaign: new Uint32Array(1024), clkSpot: new Uint32Array(1024), clkTs: new Float64Array(1024) }

  /** Number of identities + 1 (ids run from 1). */
  get size(): number {
    return this.texts.length
  }

  private get ids(): TextIndex {
    if (this.byText === null) {
      const m = new TextIndex(this.texts, this.texts.length)
      for (let id = 1; id < this.texts.length; id++) m.set(this.texts[id]!, id)
      this.byText = m
    }
    return this.byText
  }

  get(text: string): number | undefined {
    return this.ids.get(text)
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
    const n = this.texts.length
    this.platform = ensure(this.platform, n)
    this.firstSeen = ensure(this.firstSeen, n)
    this.window = ensure(this.window, n)
    this.impressions = ensure(this.impressions, n)
    this.clicks = ensure(this.clicks, n)
    const t = this.touch
    this.touch = {
      impCampaign: ensure(t.impCampaign, n), impSpot: ensure(t.impSpot, n), impTs: ensure(t.impTs, n),
      clkCampaign: ensure(t.clkCampaign, n), clkSpot: ensure(t.clkSpot, n), clkTs: ensure(t.clkTs, n),
    }
    this.platform[r.id] = r.platform
    this.firstSeen[r.id] = r.firstSeen
  }

  /** Everything but the texts, as arrays (a checkpoint): copies, since hits change them in place. */
  arrays(): IdentityArrays {
    const n = this.size
    const t = this.touch
    const earlier: number[] = []
    for (const [id, m] of this.earlier) for (const [campaign, e] of m) earlier.push(id, campaign, e.clkSpot, e.clkTs, e.impSpot, e.impTs)
    return {
      platform: this.platform.slice(0, n), firstSeen: this.firstSeen.slice(0, n), window: this.window.slice(0, n),
      impressions: this.impressions.slice(0, n), clicks: this.clicks.slice(0, n),
      impCampaign: t.impCampaign.slice(0, n), impSpot: t.impSpot.slice(0, n), impTs: t.impTs.slice(0, n),
      clkCampaign: t.clkCampaign.slice(0, n), clkSpot: t.clkSpot.slice(0, n), clkTs: t.clkTs.slice(0, n),
      earlier: Float64Array.from(earlier),
    }
  }

  /** An Identities from a checkpoint: its texts (id order, '' first) and arrays. */
  static from(texts: string[], a: IdentityArrays): Identities {
    const x = new Identities()
    if (texts[0] !== '' || texts.length !== a.platform.length) throw new Error('checkpoint: identity texts and arrays differ in length')
    x.texts = texts
    x.byText = null
    ;({ platform: x.platform, firstSeen: x.firstSeen, window: x.window, impressions: x.impressions, clicks: x.clicks } = a)
    x.touch = { impCampaign: a.impCampaign, impSpot: a.impSpot, impTs: a.impTs, clkCampaign: a.clkCampaign, clkSpot: a.clkSpot, clkTs: a.clkTs }
    for (let i = 0; i + 6 <= a.earlier.length; i += 6) {
      const id = a.earlier[i]!
      let m = x.earlier.get(id)
      if (!m) x.earlier.set(id, (m = new Map()))
      m.set(a.earlier[i + 1]!, { clkSpot: a.earlier[i + 2]!, clkTs: a.earlier[i + 3]!, impSpot: a.earlier[i + 4]!, impTs: a.earlier[i + 5]! })
    }
    return x
  }

  /**
   * Remembers an impression or click: the identity's latest of its kind in typed arrays, and
   * when a touch of another campaign replaces it, the replaced one per campaign in `earlier`
   * (only identities that touch several campaigns have an entry there).
   */
  touched(id: number, click: boolean, campaign: number, spot: number, ts: number): void {
    const t = this.touch
    const [cs, ss, tss] = click ? [t.clkCampaign, t.clkSpot, t.clkTs] : [t.impCampaign, t.impSpot, t.impTs]
    if (cs[id]! !== 0 && cs[id]! !== campaign) this.keepEarlier(id, click, cs[id]!, ss[id]!, tss[id]!)
    if (cs[id]! === campaign && ts < tss[id]!) return
    cs[id] = campaign
    ss[id] = spot
    tss[id] = ts
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
    const t = this.touch
    const ok = (at: number) => at <= ts && ts - at <= windowMs
    for (const click of [true, false]) {
      let best: { campaign: number; spot: number; at: number } | null = null
      const [c, s, at] = click ? [t.clkCampaign[id]!, t.clkSpot[id]!, t.clkTs[id]!] : [t.impCampaign[id]!, t.impSpot[id]!, t.impTs[id]!]
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
   * Counts a hit in its identity's 10-minute window (windows aligned to the clock) and says
   * whether it goes beyond the limit. Hits are counted in arrival order.
   */
  overLimit(id: number, ts: number, click: boolean): boolean {
    const w = Math.floor(ts / FREQUENCY_WINDOW_MS)
    if (this.window[id] !== w) {
      this.window[id] = w
      this.impressions[id] = 0
      this.clicks[id] = 0
    }
    if (click) {
      const c = this.clicks[id]! + 1
      this.clicks[id] = Math.min(c, 65535)
      return c > MAX_CLICKS_PER_WINDOW
    }
    const n = this.impressions[id]! + 1
    this.impressions[id] = Math.min(n, 65535)
    return n > MAX_IMPRESSIONS_PER_WINDOW
  }
}
