/**
 * In-memory columns of events, one partition per campaign and per minisite (docs/measurement.md).
 * Each partition keeps an identity-ordered permutation of its events so that reports visit every
 * identity's events together: the prefix `[0, sorted)` is in `order`, the events after it (the
 * tail) are merged in at visit time, and the whole is re-sorted once the tail grows.
 */
import { nextTurn } from '../clock'
import { ensure } from './grow'
import { firstAtLeast } from './search'

/**
 * The packed sort keys (identity * 2^26 + index) limit a partition (a campaign's or a minisite's
 * events) to 2^26 events. Ingest refuses a hit beyond it before anything is written (ingest.ts).
 */
export const MAX_EVENTS = 67_108_864

/** Re-sort once the unsorted tail is longer than this, or an eighth of the partition. */
const TAIL_MIN = 65_536
/** Events a slice of sortInTurns handles in each loop (a few ms of scatter over every column on a 2-core build machine). */
const SORT_SLICE = 250_000

/** The device (root id) of an identity id (Identities.rootOf). */
export interface RootMap {
  rootOf(id: number): number
}

/** The columns of a partition trimmed to its events, and how many are in identity order (checkpoint.ts). */
export interface PartitionArrays {
  sorted: number
  /** Whether its identities are to be rewritten to their devices' roots (markRelabel). */
  relabel?: boolean
  day: Uint16Array<ArrayBuffer>
  hour: Uint8Array<ArrayBuffer>
  kind: Uint8Array<ArrayBuffer>
  flags: Uint8Array<ArrayBuffer>
  region: Uint16Array<ArrayBuffer>
  spot: Uint32Array<ArrayBuffer>
  keyword: Uint32Array<ArrayBuffer>
  identity: Uint32Array<ArrayBuffer>
  campaign: Uint32Array<ArrayBuffer>
  event: Uint32Array<ArrayBuffer>
}

export class Partition {
  n = 0
  day = new Uint16Array(256)
  hour = new Uint8Array(256)
  kind = new Uint8Array(256)
  flags = new Uint8Array(256)
  region = new Uint16Array(256)
  spot = new Uint32Array(256)
  keyword = new Uint32Array(256)
  identity = new Uint32Array(256)
  /** Minisite partitions: the campaign credited (empty in campaign partitions). */
  campaign: Uint32Array<ArrayBuffer>
  /** Minisite partitions: the event id. */
  event: Uint32Array<ArrayBuffer>
  /** Events [0, sorted) are stored in identity order. */
  private sorted = 0
  /** Increases whenever compaction renumbers the events (caches of event indices key on it). */
  generation = 0
  /** Increases with every event added (report caches key on it). */
  version = 0
  /** Set when devices with events here merged: identities are rewritten to their roots before the next pass. */
  private relabelBy: RootMap | null = null

  constructor(readonly minisite = false) {
    this.campaign = new Uint32Array(minisite ? 256 : 0)
    this.event = new Uint32Array(minisite ? 256 : 0)
  }

  add(day: number, hour: number, kind: number, flags: number, region: number, spot: number, keyword: number, identity: number, campaign = 0, event = 0): void {
    if (this.n >= MAX_EVENTS) throw new Error(`a partition holds at most ${MAX_EVENTS} events`)
    const i = this.n++
    if (i >= this.day.length) this.grow(this.n)
    this.day[i] = day
    this.hour[i] = hour
    this.kind[i] = kind
    this.flags[i] = flags
    this.region[i] = region
    this.spot[i] = spot
    this.keyword[i] = keyword
    this.identity[i] = identity
    if (this.minisite) {
      this.campaign[i] = campaign
      this.event[i] = event
    }
    this.version++
  }

  /**
   * Devices with events in this partition merged (docs/measurement.md, "Devices"): before the next
   * report pass, every event's identity is rewritten to its device's root and the partition sorted
   * again, so that a device is one identity run. `generation` changes now, so that kept results
   * (census-cache.ts, persons.ts) are counted afresh.
   */
  markRelabel(roots: RootMap): void {
    this.relabelBy = roots
    this.generation++
  }

  /** Whether a relabel is pending (markRelabel). */
  get relabelPending(): boolean {
    return this.relabelBy !== null
  }

  /** Rewrites every identity to its root and sorts, when markRelabel asked for it. */
  private applyLabels(identities: number): void {
    const roots = this.relabelBy
    if (!roots) return
    this.relabelBy = null
    // (new columns, not in place: a checkpoint being written holds views of these)
    const was = this.identity
    const ident = new Uint32Array(was.length)
    for (let i = 0; i < this.n; i++) ident[i] = roots.rootOf(was[i]!)
    this.identity = ident
    this.compact(identities)
  }

  /** How many events, from the first, are in identity order. */
  get sortedCount(): number {
    return this.sorted
  }

  /** The columns as a checkpoint keeps them. */
  arrays(): PartitionArrays {
    const n = this.n
    return {
      sorted: this.sorted, relabel: this.relabelBy !== null, day: this.day.subarray(0, n), hour: this.hour.subarray(0, n), kind: this.kind.subarray(0, n), flags: this.flags.subarray(0, n),
      region: this.region.subarray(0, n), spot: this.spot.subarray(0, n), keyword: this.keyword.subarray(0, n), identity: this.identity.subarray(0, n),
      campaign: this.campaign.subarray(0, this.minisite ? n : 0), event: this.event.subarray(0, this.minisite ? n : 0),
    }
  }

  /**
   * A partition of the first `n` events of a checkpoint's columns (the arrays are taken, not
   * copied): columns longer than `n` are room for the events added next (once it is used, adding
   * an event copies them).
   */
  static from(minisite: boolean, a: PartitionArrays, n = a.day.length): Partition {
    const p = new Partition(minisite)
    for (const col of [a.hour, a.kind, a.flags, a.region, a.spot, a.keyword, a.identity, ...(minisite ? [a.campaign, a.event] : [])]) {
      if (col.length !== a.day.length) throw new Error('checkpoint: the columns of a partition differ in length')
    }
    if (n > a.day.length) throw new Error('checkpoint: a partition holds more events than its columns')
    if (a.sorted > n) throw new Error('checkpoint: a partition sorted beyond its end')
    ;({ day: p.day, hour: p.hour, kind: p.kind, flags: p.flags, region: p.region, spot: p.spot, keyword: p.keyword, identity: p.identity } = a)
    if (minisite) (p.campaign = a.campaign, p.event = a.event)
    p.n = n
    p.sorted = a.sorted
    p.version = n
    return p
  }

  private grow(n: number): void {
    this.day = ensure(this.day, n)
    this.hour = ensure(this.hour, n)
    this.kind = ensure(this.kind, n)
    this.flags = ensure(this.flags, n)
    this.region = ensure(this.region, n)
    this.spot = ensure(this.spot, n)
    this.keyword = ensure(this.keyword, n)
    this.identity = ensure(this.identity, n)
    if (this.minisite) {
      this.campaign = ensure(this.campaign, n)
      this.event = ensure(this.event, n)
    }
  }

  /**
   * Puts every event in identity order, physically: the columns are rewritten in that order, so a
   * report pass reads them front to back (memory order), and only the newer tail by index.
   */
  private compact(identities: number): void {
    for (const _ of this.compactSteps(identities, Infinity));
  }

  /**
   * compact() in slices of about `slice` events a loop, yielding between two: a state being read
   * beside the live one (a rebuild) is sorted while hits are counted (sortInTurns). The columns
   * take their new order at the end only.
   */
  private *compactSteps(identities: number, slice: number): Generator<void> {
    const n = this.n
    // where each event goes: identity order, and index order within an identity
    const dest = new Uint32Array(n)
    const ident = this.identity
    if (n * 4 < identities) {
      // key = identity * 2^26 + index: exact in a double for index < 2^26, identity < 2^27
      const keys = new Float64Array(n)
      for (let i = 0; i < n; i++) keys[i] = ident[i]! * 67_108_864 + i
      keys.sort()
      for (let k = 0; k < n; k++) dest[keys[k]! % 67_108_864] = k
    } else {
      const start = new Uint32Array(identities + 1)
      for (let from = 0; from < n; from += slice) {
        for (let i = from, to = Math.min(n, from + slice); i < to; i++) start[ident[i]! + 1]!++
        yield
      }
      for (let k = 1; k <= identities; k++) start[k]! += start[k - 1]!
      for (let from = 0; from < n; from += slice) {
        for (let i = from, to = Math.min(n, from + slice); i < to; i++) dest[i] = start[ident[i]!]!++
        yield
      }
    }
    // Each column is read in order and written to its places (a scatter), rather than written in
    // order from the places it is read (a gather): the reads of a gather that miss the cache stall
    // the loop, the writes of a scatter do not (compacting 4M / 8M events of a million identities,
    // the last 2M unsorted: 219-292 / 375-474 ms -> 129-179 / 247-292 ms, measured alternately).
    // One copy loop per element type: a single generic loop over three array types is several
    // times slower (V8 cannot specialise its element loads).
    const cols = {
      day: new Uint16Array(this.day.length), hour: new Uint8Array(this.hour.length), kind: new Uint8Array(this.kind.length), flags: new Uint8Array(this.flags.length),
      region: new Uint16Array(this.region.length), spot: new Uint32Array(this.spot.length), keyword: new Uint32Array(this.keyword.length), identity: new Uint32Array(ident.length),
      campaign: new Uint32Array(this.minisite ? this.campaign.length : 0), event: new Uint32Array(this.minisite ? this.event.length : 0),
    }
    for (let from = 0; from < n; from += slice) {
      const to = Math.min(n, from + slice)
      scatter16(this.day, cols.day, dest, from, to)
      scatter8(this.hour, cols.hour, dest, from, to)
      scatter8(this.kind, cols.kind, dest, from, to)
      scatter8(this.flags, cols.flags, dest, from, to)
      scatter16(this.region, cols.region, dest, from, to)
      scatter32(this.spot, cols.spot, dest, from, to)
      scatter32(this.keyword, cols.keyword, dest, from, to)
      scatter32(ident, cols.identity, dest, from, to)
      if (this.minisite) {
        scatter32(this.campaign, cols.campaign, dest, from, to)
        scatter32(this.event, cols.event, dest, from, to)
      }
      yield
    }
    ;({ day: this.day, hour: this.hour, kind: this.kind, flags: this.flags, region: this.region, spot: this.spot, keyword: this.keyword, identity: this.identity } = cols)
    if (this.minisite) (this.campaign = cols.campaign, this.event = cols.event)
    this.sorted = n
    this.generation++
  }

  /**
   * settle(identities, true) in slices between turns of the event loop, for a partition that takes
   * no events meanwhile (a state read beside the live one); the same columns as settle's.
   */
  async sortInTurns(identities: number, slice = SORT_SLICE): Promise<void> {
    this.applyLabels(identities)
    if (this.n <= this.sorted) return
    for (const _ of this.compactSteps(identities, slice)) await nextTurn()
  }

  /**
   * Puts the events in identity order now when the unsorted tail is long, or (`all`) when there is
   * any: before a checkpoint is saved, so that a start from it need not sort, and the first report
   * after a start is a plain pass.
   */
  settle(identities: number, all = false): void {
    this.applyLabels(identities)
    if (all ? this.n > this.sorted : this.longTail()) this.compact(identities)
  }

  /**
   * Whether the unsorted tail is long enough for a report to sort the whole partition first
   * (settle); with `sorted`, the tail past that many sorted events (a checkpoint's, Ingest.closingCheckpoint).
   */
  longTail(sorted = this.sorted): boolean {
    return this.n - sorted > Math.max(TAIL_MIN, this.n >> 3)
  }

  /**
   * The identity order for a report pass: events [0, sorted) are stored in identity order, the
   * tail (events added since) is given sorted by identity; merge the two by identity to visit
   * every identity's events together. Re-sorts the whole partition first when the tail is long
   * (which renumbers the events: `generation` changes).
   */
  identityOrder(identities: number): { sorted: number; tail: Uint32Array } {
    this.settle(identities)
    return { sorted: this.sorted, tail: this.sortedTail() }
  }

  /**
   * Calls `run(events, count)` once per identity with the indices of its events (in a reused
   * buffer: copy what you keep). `identities` is the size of the identity dictionary.
   */
  visitByIdentity(identities: number, run: (events: Uint32Array, count: number, identity: number) => void): void {
    const { sorted, tail } = this.identityOrder(identities)
    let events = new Uint32Array(64)
    let a = 0
    let b = 0
    const ident = this.identity
    while (a < sorted || b < tail.length) {
      const ia = a < sorted ? ident[a]! : 0xffffffff
      const ib = b < tail.length ? ident[tail[b]!]! : 0xffffffff
      const id = ia < ib ? ia : ib
      let count = 0
      while (a < sorted && ident[a] === id) {
        if (count === events.length) events = ensure(events, count + 1)
        events[count++] = a++
      }
      while (b < tail.length && ident[tail[b]!] === id) {
        if (count === events.length) events = ensure(events, count + 1)
        events[count++] = tail[b++]!
      }
      run(events, count, id)
    }
  }

  /**
   * The indices, ascending, of every event of each of `identities` (one pass over the tail; the
   * sorted prefix's runs by binary search). For a few identities among many events, where a
   * report pass over all of them would cost far more. Not after markRelabel before a pass: its
   * callers keep results by `generation`, which markRelabel changed.
   */
  eventsOf(identities: ReadonlySet<number>): Map<number, number[]> {
    const out = new Map<number, number[]>()
    const ident = this.identity
    for (const id of identities) {
      const events: number[] = []
      for (let i = firstAtLeast(ident, id, this.sorted); i < this.sorted && ident[i] === id; i++) events.push(i)
      out.set(id, events)
    }
    for (let i = this.sorted; i < this.n; i++) out.get(ident[i]!)?.push(i)
    return out
  }

  /** The events after the sorted prefix, ordered by identity. */
  private sortedTail(): Uint32Array {
    const t = this.n - this.sorted
    const keys = new Float64Array(t)
    for (let k = 0; k < t; k++) keys[k] = this.identity[this.sorted + k]! * 67_108_864 + this.sorted + k
    keys.sort()
    const out = new Uint32Array(t)
    for (let k = 0; k < t; k++) out[k] = keys[k]! % 67_108_864
    return out
  }
}

function scatter8(col: Uint8Array, out: Uint8Array, dest: Uint32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) out[dest[i]!] = col[i]!
}

function scatter16(col: Uint16Array, out: Uint16Array, dest: Uint32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) out[dest[i]!] = col[i]!
}

function scatter32(col: Uint32Array, out: Uint32Array, dest: Uint32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) out[dest[i]!] = col[i]!
}

/** Every partition: campaigns by campaign id, minisites by minisite id. */
export class Columns {
  campaigns = new Map<number, Partition>()
  minisites = new Map<number, Partition>()
  /** Events held, all partitions. */
  events = 0
  /**
   * Relabels asked for partitions that have no event yet (markRelabel): each is marked when its
   * first event makes it, so that partitions are made in the order of their first events, as a
   * replay of the log makes them, whether a merge came while their hits were on their way or not.
   */
  private relabels = { campaign: new Map<number, RootMap>(), minisite: new Map<number, RootMap>() }

  campaign(id: number): Partition | undefined {
    return this.campaigns.get(id)
  }

  minisite(id: number): Partition | undefined {
    return this.minisites.get(id)
  }

  /** How many events a partition holds (0 when it has none), without creating it. */
  size(kind: 'campaign' | 'minisite', id: number): number {
    return (kind === 'campaign' ? this.campaigns : this.minisites).get(id)?.n ?? 0
  }

  partitionFor(kind: 'campaign' | 'minisite', id: number): Partition {
    const map = kind === 'campaign' ? this.campaigns : this.minisites
    let p = map.get(id)
    if (!p) {
      p = new Partition(kind === 'minisite')
      map.set(id, p)
      const roots = this.relabels[kind].get(id)
      if (roots) (this.relabels[kind].delete(id), p.markRelabel(roots))
    }
    this.events++
    return p
  }

  /**
   * Marks a partition for relabel (Partition.markRelabel); one with no events yet (they may be on
   * their way) is marked when its first event makes it.
   */
  markRelabel(kind: 'campaign' | 'minisite', id: number, roots: RootMap): void {
    const p = (kind === 'campaign' ? this.campaigns : this.minisites).get(id)
    if (p) p.markRelabel(roots)
    else this.relabels[kind].set(id, roots)
  }

  /** Takes a partition read from a checkpoint. */
  put(kind: 'campaign' | 'minisite', id: number, p: Partition): void {
    ;(kind === 'campaign' ? this.campaigns : this.minisites).set(id, p)
    this.events += p.n
  }

  clear(): void {
    this.campaigns.clear()
    this.minisites.clear()
    this.relabels.campaign.clear()
    this.relabels.minisite.clear()
    this.events = 0
  }
}
