/**
 * Turns buffered slots into Hit objects, in time order, gathered in chunks: each hit's client
 * state is attributed by the engine (states.ts) and the hit carries what the attribution said.
 * Keeps the summary (totals per day, invalid traffic as classified, what the hits reached).
 */
import { IVT, KIND, type Hit, type Kind } from '../types'
import type { Clients } from './clients'
import { PREFETCH_SHARE } from './distributions'
import { unit } from './hash'
import { HIDDEN, hitIvt, hitKind, hitPlatform, hitSdk, packHit, type SlotBuffer } from './slot-buffer'
import { stateIvt, statePlatform, stateRegion, stateSdk, type ClientStates } from './states'
import type { SimulationSummary } from './types'

/**
 * Requests attributed between two pauses of a simulation that pauses (its input's `pauses`): the
 * 500,000 hits of a simulation took 3 s to attribute, each hour's in one piece.
 */
const REQUESTS_A_PAUSE = 1_000

/** Hands out the hits of the slots as chunks, and counts them. */
export class Emitter {
  private chunk: Hit[] = []
  private emitted = 0
  /** The day (days since 1970-01-01) of the slot being emitted: movers' addresses change by day. */
  private day = 0

  constructor(
    private readonly campaign: number,
    private readonly spotIds: readonly number[],
    /** Which ids each spot's apps fill (clients.ts FILL). */
    private readonly spotFill: readonly number[],
    private readonly clients: Clients,
    private readonly states: ClientStates,
    private readonly key: number,
    private readonly summary: SimulationSummary,
    private readonly chunkSize: number,
    private readonly maxHits: number,
  ) {}

  /** maxHits have been emitted. */
  get full(): boolean {
    return this.emitted >= this.maxHits
  }

  /**
   * Attributes the requests of a slot's hits before they are emitted, in client order (forwards
   * through memory). When maxHits ends the simulation inside this slot, only the hits that will be
   * emitted are attributed, in time order, so that the reach counts emitted hits only. Pauses (a
   * yield) every REQUESTS_A_PAUSE requests.
   */
  *prepare(buf: SlotBuffer, order: Int32Array, day: number): Generator<void> {
    this.day = day
    let visible = 0
    for (let i = 0; i < buf.n; i++) if (hitKind(buf.flags[i]!) !== HIDDEN) visible++
    const left = this.maxHits - this.emitted
    if (visible <= left) {
      const byClient = buf.byIdentity(this.clients.kind.length)
      for (let k = 0; k < buf.n; k++) {
        if (k > 0 && k % REQUESTS_A_PAUSE === 0) yield
        const i = byClient[k]!
        if (hitKind(buf.flags[i]!) !== HIDDEN) this.resolve(buf, i)
      }
      return
    }
    for (let k = 0, taken = 0; k < order.length && taken < left; k++) {
      if (k > 0 && k % REQUESTS_A_PAUSE === 0) yield
      const i = order[k]!
      if (hitKind(buf.flags[i]!) !== HIDDEN) (this.resolve(buf, i), taken++)
    }
  }

  /** The state of hit `i`'s request: the client's address of the day, the ids its spot's apps fill. */
  private resolve(buf: SlotBuffer, i: number): void {
    const j = buf.identity[i]!
    const kind = hitKind(buf.flags[i]!)
    // a browser's speculative request before the view: answered, not counted, not a hit
    if (kind === KIND.impression && this.clients.browser(j)) this.states.prefetch(j, unit(this.key, j, buf.ts[i]!), PREFETCH_SHARE)
    const key = this.states.resolve(j, this.clients.addressOn(j, this.day), this.clients.fillOf(j, this.spotFill[buf.spot[i]!]!))
    const w = this.states.word(key)
    buf.state[i] = key
    buf.region[i] = stateRegion(w)
    buf.flags[i] = packHit(kind, statePlatform(w), stateIvt(w), stateSdk(w))
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
      if (kind !== HIDDEN) this.chunk.push(this.hit(buf, i, flags, kind))
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
    const r = this.states.reach
    const s = this.summary
    s.identities = r.identities
    s.panelPersons = r.panelPersons
    s.clients = { keepers: r.keepers, refusers: r.refusers, apps: r.apps, servers: r.servers, bots: r.bots }
    s.natGroups = r.natGroups
    s.prefetches = r.prefetches
    return out
  }

  private hit(buf: SlotBuffer, i: number, flags: number, kind: Kind): Hit {
    const state = buf.state[i]!
    const hit: Hit = {
      kind, ts: buf.ts[i]!, campaign: this.campaign, spot: this.spotIds[buf.spot[i]!]!, keyword: buf.keyword[i]!,
      identity: this.states.text(state), platform: hitPlatform(flags), sdk: hitSdk(flags), region: buf.region[i]!, ivt: hitIvt(flags),
    }
    const links = this.states.links(state)
    if (links !== undefined) hit.links = links
    return hit
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
