/**
 * The census kernel: one pass over a partition's events, identity by identity, filling per-cell
 * counts (impressions, clicks, by day and hour) and exact unique counts (each identity counted
 * once per cell, with per-cell stamps). Cells are position x region (metrics.md).
 */
import type { Partition } from '../measure/columns'
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
  /** Most cell-day stamps kept in arrays (default 32 million); past it, a set per identity run. */
  maxDenseStamps?: number
}

export interface CensusResult {
  nCells: number
  imp: Float64Array
  clk: Float64Array
  impDay: Float64Array
  clkDay: Float64Array
  uim: Float64Array
  ucl: Float64Array
  uimDay: Float64Array
  uclDay: Float64Array
  /** Sum over days of the day's uniques (for the daily average). */
  uimDays: Float64Array
  uclDays: Float64Array
  /** [cell * 24 + hour]. */
  impHour: Float64Array
  clkHour: Float64Array
  /** 1 when the cell has any counted event in the window. */
  seen: Uint8Array
}

function alloc(nCells: number): CensusResult {
  const f = () => new Float64Array(nCells)
  return {
    nCells, imp: f(), clk: f(), impDay: f(), clkDay: f(), uim: f(), ucl: f(), uimDay: f(), uclDay: f(), uimDays: f(), uclDays: f(),
    impHour: new Float64Array(nCells * 24), clkHour: new Float64Array(nCells * 24), seen: new Uint8Array(nCells),
  }
}

/** Per-cell stamps: the last identity run that counted a cell (or a cell-day, for averages). */
class Stamps {
  readonly accI: Int32Array
  readonly accC: Int32Array
  readonly dayI: Int32Array
  readonly dayC: Int32Array
  readonly cdI: Int32Array | null
  readonly cdC: Int32Array | null
  /** When cell-day stamps would not fit in memory: a set per identity. */
  readonly sparse: { imp: StampSet; clk: StampSet } | null

  constructor(nCells: number, readonly span: number, averages: boolean, maxDense: number) {
    const stamp = (n: number) => new Int32Array(n).fill(-1)
    this.accI = stamp(nCells)
    this.accC = stamp(nCells)
    this.dayI = stamp(nCells)
    this.dayC = stamp(nCells)
    const dense = averages && span > 0 && nCells * span <= maxDense
    this.cdI = dense ? stamp(nCells * span) : null
    this.cdC = dense ? stamp(nCells * span) : null
    this.sparse = averages && !dense ? { imp: new StampSet(), clk: new StampSet() } : null
  }
}

/** Counts one event in one cell. */
function count(r: CensusResult, st: Stamps | null, cell: number, click: boolean, onDay: boolean, hour: number, dayOff: number, run: number): void {
  r.seen[cell] = 1
  const cd = cell * (st?.span ?? 0) + dayOff
  if (click) {
    r.clk[cell]!++
    r.clkHour[cell * 24 + hour]!++
    if (onDay) r.clkDay[cell]!++
    if (!st) return
    if (st.accC[cell] !== run) (st.accC[cell] = run), r.ucl[cell]!++
    if (onDay && st.dayC[cell] !== run) (st.dayC[cell] = run), r.uclDay[cell]!++
    if (st.cdC) st.cdC[cd] !== run && ((st.cdC[cd] = run), r.uclDays[cell]!++)
    else if (st.sparse && st.sparse.clk.add(cd)) r.uclDays[cell]!++
  } else {
    r.imp[cell]!++
    r.impHour[cell * 24 + hour]!++
    if (onDay) r.impDay[cell]!++
    if (!st) return
    if (st.accI[cell] !== run) (st.accI[cell] = run), r.uim[cell]!++
    if (onDay && st.dayI[cell] !== run) (st.dayI[cell] = run), r.uimDay[cell]!++
    if (st.cdI) st.cdI[cd] !== run && ((st.cdI[cd] = run), r.uimDays[cell]!++)
    else if (st.sparse && st.sparse.imp.add(cd)) r.uimDays[cell]!++
  }
}

export function census(s: CensusSpec): CensusResult {
  const nCells = s.nPos * s.nRegions
  const r = alloc(nCells)
  const p = s.part
  const st = s.uniques ? new Stamps(nCells, s.sel.to - s.sel.from + 1, s.averages, s.maxDenseStamps ?? 32_000_000) : null
  let run = 0
  const one = (i: number): void => {
    const pos = positionOf(s.sel, p, i)
    if (pos < 0) return
    const region = p.region[i]!
    const click = p.kind[i] === s.sel.clkKind
    const d = p.day[i]!
    const base = pos * s.nRegions
    const a = s.regionFirst[region]!
    const b = s.regionSecond[region]!
    if (a >= 0) count(r, st, base + a, click, d === s.day, p.hour[i]!, d - s.sel.from, run)
    if (b >= 0) count(r, st, base + b, click, d === s.day, p.hour[i]!, d - s.sel.from, run)
  }
  if (!st) {
    for (let i = 0; i < p.n; i++) one(i)
    return r
  }
  // Identity by identity: the sorted prefix and the sorted tail, merged by identity.
  const { sorted, tail } = p.identityOrder(s.identities)
  const ident = p.identity
  let a = 0
  let b = 0
  while (a < sorted || b < tail.length) {
    const ia = a < sorted ? ident[a]! : 0xffffffff
    const ib = b < tail.length ? ident[tail[b]!]! : 0xffffffff
    const id = ia < ib ? ia : ib
    run++
    st.sparse?.imp.clear()
    st.sparse?.clk.clear()
    while (a < sorted && ident[a] === id) one(a++)
    while (b < tail.length && ident[tail[b]!] === id) one(tail[b++]!)
  }
  return r
}
