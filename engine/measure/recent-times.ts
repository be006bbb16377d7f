/**
 * The recent impression and click times of the devices that had more than one of a kind within
 * 10 minutes (the frequency rule, docs/attribution.md §5): a device alone in its 10 minutes keeps
 * its latest time in its own record (identities.ts) and has no slot here. A slot holds, per kind,
 * the times within two windows (20 minutes) of the kind's newest, at most IMP_MAX (CLK_MAX) of
 * them, the largest: a hit that arrives after later ones, within 10 minutes of the newest, finds
 * every time of its own 10 minutes. Slots are let go deterministically, by hit times: when a
 * device holds one time of each kind, and, once many slots are held, those whose newest time is
 * 20 minutes or more before the latest hit judged (sweep).
 *
 * A slot's times live in a block of one Float64Array (ascending per kind) with its counts and
 * owner beside: a device takes and leaves a slot often (two impressions within minutes, then none
 * for a while), and an object and arrays each time cost a fifth of the ingest's time for a hit in
 * a measured stream where a tenth of the hits took one. A slot starts in the smallest block
 * (TIER_IMP[0] + TIER_CLK[0] times: most devices hold two to a dozen) and moves to the next size
 * that has room when a kind outgrows it, up to IMP_MAX + CLK_MAX: the 23,400 slots of the bench's
 * data directory (most of 8 to 13 impressions) take 3.6 MB (22 MB were every slot of the full size).
 * Freed blocks are reused by the next slot of their size.
 */

/** The frequency rule's limits: more impressions (clicks) than these within 10 minutes are beyond it. */
export const IMP_LIMIT = 30
export const CLK_LIMIT = 5
/**
 * Times a slot keeps per kind: a hit that arrives after later ones (an import out of time order,
 * a server-to-server hit dated by its `nt=`) needs the times before it too, not only the newest
 * ones, so a slot keeps every time within two windows of its newest, up to these many.
 */
export const IMP_MAX = 96
export const CLK_MAX = 24
/** The sizes of blocks: impressions (clicks) a block of each tier holds; the last is the full one. */
export const TIER_IMP = [6, 14, 28, IMP_MAX] as const
export const TIER_CLK = [2, 2, 4, CLK_MAX] as const
const TIER_SIZE = TIER_IMP.map((n, t) => n + TIER_CLK[t]!)
const LAST_TIER = TIER_IMP.length - 1
/** Slots held before the first sweep; later, twice those left by the last one. */
const SWEEP_MIN = 16_384

export class RecentTimes {
  /** The blocks: a slot's impressions from its block's start, its clicks after them. */
  private times = new Float64Array(64 * TIER_SIZE[0]!)
  /** Float64s of `times` ever handed out as blocks. */
  private top = 0
  /** Freed blocks by tier, reused before `top` moves. */
  private freeBlocks: number[][] = TIER_SIZE.map(() => [])
  /** Per slot: where its block starts in `times`. Slot 0 is unused. */
  private block = new Uint32Array(64)
  /** Per slot: the tier of its block. */
  private tier = new Uint8Array(64)
  /** Per slot: impressions, clicks held. */
  private counts = new Uint8Array(64 * 2)
  /** Per slot: its device (0: free). */
  private owners = new Uint32Array(64)
  /** Slots ever used + 1. */
  private used = 1
  private free: number[] = []
  /** Slots in use. */
  live = 0
  /** A sweep runs when more slots than this are in use. */
  sweepAt = SWEEP_MIN
  /** The time of the latest hit judged, in arrival order. */
  latest = 0

  /** A slot for `owner`, its times empty, in a block of `tier`; its number. */
  open(owner: number, tier = 0): number {
    this.live++
    let at = this.free.pop()
    if (at === undefined) {
      at = this.used++
      if (at >= this.owners.length) this.grow(at + 1)
    }
    this.owners[at] = owner
    this.counts[at * 2] = 0
    this.counts[at * 2 + 1] = 0
    this.block[at] = this.take(tier)
    this.tier[at] = tier
    return at
  }

  private grow(n: number): void {
    const slots = Math.max(n, this.owners.length * 2)
    const block = new Uint32Array(slots)
    block.set(this.block)
    const tier = new Uint8Array(slots)
    tier.set(this.tier)
    const counts = new Uint8Array(slots * 2)
    counts.set(this.counts)
    const owners = new Uint32Array(slots)
    owners.set(this.owners)
    ;[this.block, this.tier, this.counts, this.owners] = [block, tier, counts, owners]
  }

  /** A block of `tier`: a freed one, or the next one of `times`. */
  private take(tier: number): number {
    const at = this.freeBlocks[tier]!.pop()
    if (at !== undefined) return at
    const size = TIER_SIZE[tier]!
    if (this.top + size > this.times.length) this.room(this.top + size)
    this.top += size
    return this.top - size
  }

  /** `times` made to hold at least `n` Float64s (doubled at least). */
  private room(n: number): void {
    const times = new Float64Array(Math.max(n, this.times.length * 2))
    times.set(this.times.subarray(0, this.top))
    this.times = times
  }

  /** Moves a slot's times to a block of the first tier with room for `imp` impressions and `clk` clicks. */
  private widen(at: number, imp: number, clk: number): void {
    const tier = this.tier[at]!
    const to = tierOf(imp, clk)
    const from = this.block[at]!
    const into = this.take(to)
    const t = this.times
    t.copyWithin(into, from, from + this.counts[at * 2]!)
    t.copyWithin(into + TIER_IMP[to]!, from + TIER_IMP[tier]!, from + TIER_IMP[tier]! + this.counts[at * 2 + 1]!)
    this.freeBlocks[tier]!.push(from)
    this.block[at] = into
    this.tier[at] = to
  }

  /** Where a slot's times of a kind start in `times`. */
  private base(at: number, click: boolean): number {
    return this.block[at]! + (click ? TIER_IMP[this.tier[at]!]! : 0)
  }

  close(at: number): void {
    this.freeBlocks[this.tier[at]!]!.push(this.block[at]!)
    this.owners[at] = 0
    this.free.push(at)
    this.live--
  }

  /** Memory held by the slots' times and what describes them. */
  get bytes(): number {
    return this.times.byteLength + this.owners.length * 11 + (this.freeBlocks.reduce((n, f) => n + f.length, 0) + this.free.length) * 8
  }

  ownerOf(at: number): number {
    return this.owners[at]!
  }

  /** How many times of a kind a slot holds. */
  count(at: number, click: boolean): number {
    return this.counts[at * 2 + (click ? 1 : 0)]!
  }

  /** The newest time of a kind in a slot (-Infinity for none). */
  newest(at: number, click: boolean): number {
    const n = this.count(at, click)
    return n === 0 ? -Infinity : this.times[this.base(at, click) + n - 1]!
  }

  /** A slot's times of a kind, ascending (a copy). */
  list(at: number, click: boolean): number[] {
    const base = this.base(at, click)
    return Array.from(this.times.subarray(base, base + this.count(at, click)))
  }

  /** Sets a slot's times of a kind (ascending, at most the kind's limit). */
  set(at: number, click: boolean, times: ArrayLike<number>): void {
    const tier = this.tier[at]!
    if (times.length > (click ? TIER_CLK : TIER_IMP)[tier]!) this.widen(at, click ? this.count(at, false) : times.length, click ? times.length : this.count(at, true))
    this.times.set(times, this.base(at, click))
    this.counts[at * 2 + (click ? 1 : 0)] = times.length
  }

  /**
   * Judges a hit at `ts` against a slot's times of its kind and adds it: answers how many of them
   * lie in the `windowMs` up to and including `ts`. Keeps at most IMP_MAX (CLK_MAX) times, the
   * largest, and none two windows or more before the newest.
   */
  judge(at: number, click: boolean, ts: number, windowMs: number): number {
    const c = at * 2 + (click ? 1 : 0)
    let n = this.counts[c]!
    const tier = this.tier[at]!
    if (tier < LAST_TIER && n === (click ? TIER_CLK : TIER_IMP)[tier]!) this.widen(at, click ? this.counts[at * 2]! : n + 1, click ? n + 1 : this.counts[at * 2 + 1]!)
    const t = this.times
    const base = this.base(at, click)
    const max = click ? CLK_MAX : IMP_MAX
    let inWindow = 0
    let pos = n
    for (let i = n - 1; i >= 0; i--) {
      const x = t[base + i]!
      if (x > ts) pos = i
      else if (x > ts - windowMs) inWindow++
      else break
    }
    // insert at pos (the times after it move up one), dropping the smallest when full
    let from = 0
    if (n === max) {
      if (pos === 0) return inWindow // smaller than every time kept: not among the largest
      for (let i = 1; i < pos; i++) t[base + i - 1] = t[base + i]!
      t[base + pos - 1] = ts
    } else {
      for (let i = n; i > pos; i--) t[base + i] = t[base + i - 1]!
      t[base + pos] = ts
      n++
    }
    // (two windows: a late hit within one window of the newest has its own window reach one further back)
    const oldest = t[base + n - 1]! - 2 * windowMs
    while (from < n - 1 && t[base + from]! <= oldest) from++
    if (from > 0) {
      for (let i = from; i < n; i++) t[base + i - from] = t[base + i]!
      n -= from
    }
    this.counts[c] = n
    return inWindow
  }

  /**
   * The slots to let go now (their owners' newest times are two windows or more before the latest
   * hit judged), when more than sweepAt are in use; empty otherwise.
   */
  sweep(windowMs: number): number[] {
    if (this.live <= this.sweepAt) return []
    const out: number[] = []
    const before = this.latest - 2 * windowMs
    for (let at = 1; at < this.used; at++) {
      if (this.owners[at] !== 0 && this.newest(at, false) <= before && this.newest(at, true) <= before) out.push(at)
    }
    this.sweepAt = Math.max(SWEEP_MIN, 2 * (this.live - out.length))
    return out
  }

  /**
   * The state as numbers (a checkpoint): latest, sweepAt, then per slot in use, by owner, the
   * owner, #imp, #clk and the times (slot numbers are not kept: they decide nothing).
   */
  toArray(): Float64Array<ArrayBuffer> {
    const inUse: number[] = []
    let size = 2
    for (let at = 1; at < this.used; at++) {
      if (this.owners[at] === 0) continue
      inUse.push(at)
      size += 3 + this.count(at, false) + this.count(at, true)
    }
    inUse.sort((a, b) => this.owners[a]! - this.owners[b]!)
    // (written in place: a checkpoint takes it while hits wait, and arrays of numbers spread per slot took 80 ms at 16,000 slots)
    const out = new Float64Array(size)
    out[0] = this.latest
    out[1] = this.sweepAt
    let i = 2
    for (const at of inUse) {
      const [ni, nc] = [this.count(at, false), this.count(at, true)]
      out[i++] = this.owners[at]!
      out[i++] = ni
      out[i++] = nc
      const [bi, bc] = [this.base(at, false), this.base(at, true)]
      out.set(this.times.subarray(bi, bi + ni), i)
      out.set(this.times.subarray(bc, bc + nc), i + ni)
      i += ni + nc
    }
    return out
  }

  /** The state of toArray(); calls `place(owner, slot)` for each slot (renumbered from 1). */
  static fromArray(a: Float64Array, place: (owner: number, slot: number) => void): RecentTimes {
    const r = new RecentTimes()
    if (a.length < 2) return r
    r.latest = a[0]!
    r.sweepAt = a[1]!
    // (the slots and blocks allocated once, with room for an eighth more: grown one doubling at a
    // time, and doubled again by the first slot opened after a start, 70,000 slots took 0.5 s of copies)
    let slots = 0
    let blocks = 0
    for (let i = 2; i + 3 <= a.length; i += 3 + a[i + 1]! + a[i + 2]!) {
      slots++
      blocks += TIER_SIZE[tierOf(a[i + 1]!, a[i + 2]!)]!
    }
    if (slots >= r.owners.length) r.grow(slots + (slots >> 3) + 1)
    if (blocks > r.times.length) r.room(blocks + (blocks >> 3))
    for (let i = 2; i + 3 <= a.length;) {
      const [owner, ni, nc] = [a[i]!, a[i + 1]!, a[i + 2]!]
      if (i + 3 + ni + nc > a.length || ni > IMP_MAX || nc > CLK_MAX) throw new Error('checkpoint: the recent times are cut short or too many')
      const at = r.open(owner, tierOf(ni, nc))
      r.set(at, false, a.subarray(i + 3, i + 3 + ni))
      r.set(at, true, a.subarray(i + 3 + ni, i + 3 + ni + nc))
      place(owner, at)
      i += 3 + ni + nc
    }
    return r
  }
}

/** The first tier whose blocks hold `imp` impressions and `clk` clicks. */
function tierOf(imp: number, clk: number): number {
  let t = 0
  while (t < LAST_TIER && (TIER_IMP[t]! < imp || TIER_CLK[t]! < clk)) t++
  return t
}

/** The largest time of an ascending list (-Infinity for none). */
export const newest = (times: readonly number[]): number => (times.length > 0 ? times[times.length - 1]! : -Infinity)

/** Two ascending lists as one (a device merge), kept as RecentTimes.judge keeps one. */
export function mergeTimes(a: readonly number[], b: readonly number[], windowMs: number, max: number): number[] {
  const all = [...a, ...b].sort((x, y) => x - y)
  const kept = all.slice(Math.max(0, all.length - max))
  const from = newest(kept) - 2 * windowMs
  return kept.filter((t, i) => t > from || i === kept.length - 1)
}
