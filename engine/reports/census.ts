/**
 * The census kernel: one pass over a partition's events, identity by identity (a run whose days go
 * back is read again once), filling per-cell counts (impressions, clicks, by day and hour) and
 * exact unique counts (each identity counted once per cell, with per-cell stamps). Cells are
 * position x region (metrics.md), or day x position x region for the counts of each day of a
 * window in one pass (`byDay`, census-days.ts).
 */
import type { Partition } from '../measure/columns'
import type { CellBytes } from './kept-bytes'
import { positionOf, type Selector } from './selector'
import { StampSet } from './stamp-set'

export interface CensusSpec {
  part: Partition
  /** Size of the identity dictionary. */
  identities: number
  sel: Selector
  /** The day of `_day` metrics. */
  day: number
  nPos: number
  /** Region cells of each region index (-1 none), and how many cells. */
  regionFirst: Int32Array
  regionSecond: Int32Array
  nRegions: number
  /** Whether unique counts are needed at all, and per-day averages. */
  uniques: boolean
  averages: boolean
  /**
   * Cells per day of the window: cell ((d - sel.from) * nPos + position) * nRegions + region
   * counts the events of day d alone (its unique counts are that day's identities); `day` and
   * `averages` are then of no use (census-days.ts reads the cells as each day's `_day` figures).
   */
  byDay?: boolean
}

export interface CensusResult {
  nCells: number
  imp: Uint32Array
  clk: Uint32Array
  impDay: Uint32Array
  clkDay: Uint32Array
  uim: Uint32Array
  ucl: Uint32Array
  uimDay: Uint32Array
  uclDay: Uint32Array
  /** Sum over days of the day's uniques (for the daily average). */
  uimDays: Uint32Array
  uclDays: Uint32Array
  /** [cell * 24 + hour]. */
  impHour: Uint32Array
  clkHour: Uint32Array
  /** 1 when the cell has any counted event in the window. */
  seen: Uint8Array
  /**
   * How many times censusAdd has changed each cell since the pass: a kept result's cells whose
   * count is unchanged keep the answer bytes written for them (kept-bytes.ts).
   */
  rev: Uint32Array
  /**
   * How many cell changes censusAdd has made since the pass (the sum of `rev`), and how many of
   * them were a cell's first counted event: the items text of an answer kept with the result is
   * that of its counts while both stay (kept-items.ts).
   */
  changes: number
  newCells: number
  /** The JSON text of the cells' items as reports last wrote them, per key (kept-bytes.ts). */
  written?: CellBytes[]
}

/**
 * The counters, as 32-bit integers (a campaign holds far fewer than 2^32 events): the pass
 * touches them at random, so their size decides how many of its reads miss the cache.
 */
function alloc(nCells: number): CensusResult {
  const f = () => new Uint32Array(nCells)
  return {
    nCells, imp: f(), clk: f(), impDay: f(), clkDay: f(), uim: f(), ucl: f(), uimDay: f(), uclDay: f(), uimDays: f(), uclDays: f(),
    impHour: new Uint32Array(nCells * 24), clkHour: new Uint32Array(nCells * 24), seen: new Uint8Array(nCells), rev: new Uint32Array(nCells), changes: 0, newCells: 0,
  }
}

/** The totals and `seen` of each cell, from its hour counters (the pass counts only those). */
function totals(r: CensusResult): void {
  for (let c = 0; c < r.nCells; c++) {
    let imp = 0
    let clk = 0
    for (let h = c * 24; h < c * 24 + 24; h++) (imp += r.impHour[h]!), (clk += r.clkHour[h]!)
    r.imp[c] = imp
    r.clk[c] = clk
    r.seen[c] = imp + clk > 0 ? 1 : 0
  }
}

/**
 * One kind's counters (impressions, or clicks) and what the pass remembers of the identity run it
 * is in (one identity's events), per cell: the last run that counted the cell (unique counts over
 * the window and on the report day) and, for the daily averages, which of the cell's days the run
 * has counted.
 *
 * The days: while a run's events come in day order (the usual case: an identity's events are kept
 * in arrival order), a cell's new day is one that differs from the last day the run counted
 * there, so one number per cell is enough. A run whose days go back (events imported out of
 * order) continues with a set of the (cell, day) pairs it has counted, seeded by reading its
 * earlier events again. Stamps per cell and day (15 MiB at 64,395 cells and 30 days, read at
 * random) cost about a tenth of a cold spot x level2 answer at 10 million events.
 */
interface Kind {
  hour: Uint32Array
  day: Uint32Array
  u: Uint32Array
  uDay: Uint32Array
  uDays: Uint32Array
  /** The last run that counted each cell, over the window and on the report day. */
  acc: Int32Array
  dayRun: Int32Array
  /** The last day (offset in the window) the run counted in each cell; valid where `acc` is the run. */
  last: Int32Array
  /** The (cell, day) pairs counted by a run whose days went back. */
  set: StampSet
}

function kind(r: CensusResult, click: boolean, stamps: number, days: number): Kind {
  const stamp = (n: number) => new Int32Array(n).fill(-1)
  return {
    hour: click ? r.clkHour : r.impHour, day: click ? r.clkDay : r.impDay, u: click ? r.ucl : r.uim, uDay: click ? r.uclDay : r.uimDay, uDays: click ? r.uclDays : r.uimDays,
    acc: stamp(stamps), dayRun: stamp(stamps), last: stamp(days), set: new StampSet(),
  }
}

/** Where the pass is in the current identity run. */
class Run {
  /** Whether the run's days have only grown so far. */
  ordered = true
  /** The day of the run's last event. */
  lastDay = -1

  constructor(readonly span: number, readonly averages: boolean, private readonly kinds: readonly Kind[]) {}

  /** A new identity run. */
  next(): void {
    this.ordered = true
    this.lastDay = -1
  }

  /** The run's days went back: from now on its (cell, day) pairs are sets (the caller adds those counted so far). */
  unorder(): void {
    this.ordered = false
    for (const k of this.kinds) k.set.clear()
  }
}

/** Counts one event of kind `k` in one cell. */
function count(k: Kind, st: Run | null, cell: number, onDay: boolean, hour: number, dayOff: number, run: number): void {
  k.hour[cell * 24 + hour]!++
  if (onDay) k.day[cell]!++
  if (!st) return
  const fresh = k.acc[cell] !== run
  if (fresh) (k.acc[cell] = run), k.u[cell]!++
  if (onDay && k.dayRun[cell] !== run) (k.dayRun[cell] = run), k.uDay[cell]!++
  if (!st.averages) return
  if (!st.ordered) {
    if (k.set.add(cell * st.span + dayOff)) k.uDays[cell]!++
  } else if (fresh || k.last[cell] !== dayOff) {
    k.last[cell] = dayOff
    k.uDays[cell]!++
  }
}

/** The first cell of position `pos` for an event of day `d`. */
const baseOf = (s: CensusSpec, pos: number, d: number): number => (s.byDay ? (d - s.sel.from) * s.nPos + pos : pos) * s.nRegions

export function census(s: CensusSpec): CensusResult {
  const nCells = s.nPos * s.nRegions * (s.byDay ? Math.max(0, s.sel.to - s.sel.from + 1) : 1)
  const r = alloc(nCells)
  const p = s.part
  const stamps = s.uniques ? nCells : 0
  const days = s.uniques && s.averages ? nCells : 0
  const imp = kind(r, false, stamps, days)
  const clk = kind(r, true, stamps, days)
  const st = s.uniques ? new Run(s.sel.to - s.sel.from + 1, s.averages, [imp, clk]) : null
  let run = 0
  const sel = s.sel
  // Where the pass is in the sorted prefix and in the tail, and where the current run started.
  let a = 0
  let b = 0
  let runA = 0
  let runB = 0
  let tail: Uint32Array = new Uint32Array(0)
  /** The (cell, day) pairs event j counted in, into the run's sets. */
  const seed = (st: Run, j: number): void => {
    const pos = positionOf(sel, p, j)
    if (pos < 0) return
    const set = (p.kind[j] === sel.clkKind ? clk : imp).set
    const dayOff = p.day[j]! - sel.from
    const base = baseOf(s, pos, p.day[j]!)
    for (const c of [s.regionFirst[p.region[j]!]!, s.regionSecond[p.region[j]!]!]) if (c >= 0) set.add((base + c) * st.span + dayOff)
  }
  // The run's days went back at the event being counted (the prefix's a - 1, or the tail's b - 1):
  // its events before that one go into the sets.
  const unorder = (st: Run): void => {
    st.unorder()
    const inTail = b > runB
    for (let j = runA; j < (inTail ? a : a - 1); j++) seed(st, j)
    if (inTail) for (let k = runB; k < b - 1; k++) seed(st, tail[k]!)
  }
  const one = (i: number): void => {
    const pos = positionOf(sel, p, i)
    if (pos < 0) return
    const region = p.region[i]!
    const k = p.kind[i] === sel.clkKind ? clk : imp
    const d = p.day[i]!
    if (st) {
      if (d < st.lastDay && st.ordered && st.averages) unorder(st)
      st.lastDay = d
    }
    const base = baseOf(s, pos, d)
    const first = s.regionFirst[region]!
    const second = s.regionSecond[region]!
    if (first >= 0) count(k, st, base + first, d === s.day, p.hour[i]!, d - sel.from, run)
    if (second >= 0) count(k, st, base + second, d === s.day, p.hour[i]!, d - sel.from, run)
  }
  if (!st) {
    for (let i = 0; i < p.n; i++) one(i)
    totals(r)
    return r
  }
  // Identity by identity: the sorted prefix and the sorted tail, merged by identity.
  const order = p.identityOrder(s.identities)
  const sorted = order.sorted
  tail = order.tail
  const ident = p.identity
  while (a < sorted || b < tail.length) {
    const ia = a < sorted ? ident[a]! : 0xffffffff
    const ib = b < tail.length ? ident[tail[b]!]! : 0xffffffff
    const id = ia < ib ? ia : ib
    run++
    st.next()
    runA = a
    runB = b
    while (a < sorted && ident[a] === id) one(a++)
    while (b < tail.length && ident[tail[b]!] === id) one(tail[b++]!)
  }
  totals(r)
  return r
}

/**
 * Counts the events `[from, part.n)` into `r`, a census of the same spec over the events before
 * `from` (census-cache.ts), to the counts a census of them all gives. Whether an added event is
 * new to its cell over the window, on the report day and on its own day is decided by its
 * identity's other events before it (read through Partition.eventsOf), not by stamps of a pass.
 */
export function censusAdd(s: CensusSpec, r: CensusResult, from: number): void {
  const p = s.part
  const sel = s.sel
  const added: number[] = []
  const ids = new Set<number>()
  for (let i = from; i < p.n; i++) {
    if (positionOf(sel, p, i) < 0) continue
    added.push(i)
    ids.add(p.identity[i]!)
  }
  const others = s.uniques ? p.eventsOf(ids) : null
  const cellOf = (pos: number, region: number, second: boolean, day: number) => {
    const c = second ? s.regionSecond[region]! : s.regionFirst[region]!
    return c < 0 ? -1 : baseOf(s, pos, day) + c
  }
  for (const i of added) {
    const click = p.kind[i] === sel.clkKind
    const pos = positionOf(sel, p, i)
    const d = p.day[i]!
    for (const second of [false, true]) {
      const cell = cellOf(pos, p.region[i]!, second, d)
      if (cell < 0) continue
      ;(click ? r.clkHour : r.impHour)[cell * 24 + p.hour[i]!]!++
      ;(click ? r.clk : r.imp)[cell]!++
      if (d === s.day) (click ? r.clkDay : r.impDay)[cell]!++
      if (r.seen[cell] === 0) (r.seen[cell] = 1), r.newCells++
      r.rev[cell]!++
      r.changes++
      if (!others) continue
      // the identity's earlier counted events of the same kind in this cell: any, and on day d
      let inCell = false
      let onDay = false
      for (const j of others.get(p.identity[i]!)!) {
        if (j >= i) break
        const q = positionOf(sel, p, j)
        if (q < 0 || (p.kind[j] === sel.clkKind) !== click) continue
        if (cellOf(q, p.region[j]!, false, p.day[j]!) !== cell && cellOf(q, p.region[j]!, true, p.day[j]!) !== cell) continue
        inCell = true
        if (p.day[j] === d) (onDay = true)
        if (onDay) break
      }
      if (!inCell) (click ? r.ucl : r.uim)[cell]!++
      if (onDay) continue
      if (d === s.day) (click ? r.uclDay : r.uimDay)[cell]!++
      if (s.averages) (click ? r.uclDays : r.uimDays)[cell]!++
    }
  }
}
