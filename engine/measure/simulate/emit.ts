/**
 * Turns buffered slots into Hit objects, in time order, gathered in chunks; keeps the summary
 * (totals per day, invalid traffic; distinct identities and panel persons from the audience).
 */
import { IVT, KIND, type Hit, type Kind } from '../types'
import type { Audience } from './audience'
import { HIDDEN, hitIvt, hitKind, hitPlatform, hitSdk, type SlotBuffer } from './slot-buffer'
import type { SimulationSummary } from './types'

/** Hands out the hits of the slots as chunks, and counts them. */
export class Emitter {
  private chunk: Hit[] = []
  private emitted = 0
  /** Identity text of each buffer position of the current slot. */
  private readonly names: string[] = []

  constructor(
    private readonly campaign: number,
    private readonly spotIds: readonly number[],
    private readonly audience: Audience,
    private readonly summary: SimulationSummary,
    private readonly chunkSize: number,
    private readonly maxHits: number,
  ) {}

  /** maxHits have been emitted. */
  get full(): boolean {
    return this.emitted >= this.maxHits
  }

  /**
   * Draws the identity texts of a slot's hits before they are emitted, in identity order (forwards
   * through memory). When maxHits ends the simulation inside this slot, only the texts of the hits
   * that will be emitted are drawn, in time order, so that the reach counts emitted hits only.
   */
  prepare(buf: SlotBuffer, order: Int32Array): void {
    const names = this.names
    while (names.length < buf.n) names.push('')
    let visible = 0
    for (let i = 0; i < buf.n; i++) if (hitKind(buf.flags[i]!) !== HIDDEN) visible++
    const left = this.maxHits - this.emitted
    if (visible <= left) {
      const byIdentity = buf.byIdentity(this.audience.size)
      for (let k = 0; k < buf.n; k++) {
        const i = byIdentity[k]!
        if (hitKind(buf.flags[i]!) !== HIDDEN) names[i] = this.audience.text(buf.identity[i]!)
      }
      return
    }
    for (let k = 0, taken = 0; k < order.length && taken < left; k++) {
      const i = order[k]!
      if (hitKind(buf.flags[i]!) !== HIDDEN) (names[i] = this.audience.text(buf.identity[i]!), taken++)
    }
  }

  /**
   * Adds the slot's hits from sorted position `from` to the chunk until it is full (call prepare()
   * first); returns the position to continue from (order.length when the slot is done).
   */
  fill(buf: SlotBuffer, order: Int32Array, from: number, dayIndex: number): number {
    const to = this.count(buf, order, from, dayIndex)
    for (let k = from; k < to; k++) {
      const i = order[k]!
      const flags = buf.flags[i]!
      const kind = hitKind(flags)
      if (kind !== HIDDEN) this.chunk.push(this.hit(buf, i, flags, kind, this.names[i]!))
    }
    return to
  }

  /** The chunk is complete (chunkSize hits, or maxHits reached). */
  get ready(): boolean {
    return this.chunk.length >= this.chunkSize || (this.full && this.chunk.length > 0)
  }

  /** The current chunk, handed over. */
  take(): Hit[] {
    const out = this.chunk
    this.chunk = []
    this.summary.identities = this.audience.reached
    this.summary.panelPersons = this.audience.personsReached
    return out
  }

  private hit(buf: SlotBuffer, i: number, flags: number, kind: Kind, identity: string): Hit {
    return {
      kind, ts: buf.ts[i]!, campaign: this.campaign, spot: this.spotIds[buf.spot[i]!]!, keyword: buf.keyword[i]!,
      identity, platform: hitPlatform(flags), sdk: hitSdk(flags), region: buf.region[i]!, ivt: hitIvt(flags),
    }
  }

  /** Counts the hits from sorted position `from` that fit in the chunk; returns where they end. */
  private count(buf: SlotBuffer, order: Int32Array, from: number, dayIndex: number): number {
    const s = this.summary
    const day = s.byDay[dayIndex]!
    const room = Math.min(this.chunkSize - this.chunk.length, this.maxHits - this.emitted)
    let added = 0
    let k = from
    for (; k < order.length && added < room; k++) {
      const flags = buf.flags[order[k]!]!
      const kind = hitKind(flags)
      if (kind === HIDDEN) continue
      added++
      if (kind === KIND.click) (s.clicks++, day.clicks++)
      else (s.impressions++, day.impressions++)
      const ivt = hitIvt(flags)
      if (ivt === IVT.bot) s.invalid.bot++
      else if (ivt === IVT.datacenter) s.invalid.datacenter++
    }
    this.emitted += added
    return k
  }
}
