/**
 * The census kernel: one pass over a partition's events, identity by identity, filling per-cell
 * counts (impressions, clicks, by day and hour) and exact unique counts (each identity counted
 * once per cell, with per-cell stamps). Cells are position x region (metrics.md).
 */
import type { Partition } from '../measure/columns'
import { KIND, flagIvt, flagPlatform, flagSdk, flagStable } from '../measure/types'

export interface CensusSpec {
  part: Partition
  /** Size of the identity dictionary. */
  identities: number
  /** Day numbers: the accumulation window [from, to], and the day of `_day` metrics. */
  from: number
  to: number
  day: number
  nPos: number
  /** Position cell of an event, or -1 to leave it out (spot slot / keyword / campaign). */
  posOf: (event: number) => number
  /** 1 when an event of (spot slot, ivt class) counts: accept[slot * 4 + ivt]. */
  accept: Uint8Array
  slotOf: (event: number) => number
  /** 1: pc, 2: mobile, 3: both. */
  platforms: number
  /** 0 any, else only this SDK. */
  sdk: number
  stableOnly: boolean
  /** Region cells of each region index (-1 none), and how many cells. */
  regionFirst: Int32Array
  regionSecond: Int32Array
  nRegions: number
  /** Whether unique counts are needed at all, and per-day averages. */
  uniques: boolean
  averages: boolean
  /** A minisite partition: its events are counted in the impression slots (evt, uev). */
  minisite?: boolean
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

/** Whether event i passes the filters that do not depend on the cell. */
function counted(s: CensusSpec, i: number): boolean {
  const p = s.part
  const d = p.day[i]!
  if (d < s.from || d > s.to) return false
  const k = p.kind[i]!
  if (s.minisite ? k !== KIND.minisite : k !== KIND.impression && k !== KIND.click) return false
  const f = p.flags[i]!
  if ((s.platforms & (1 << flagPlatform(f))) === 0) return false
  if (s.sdk !== 0 && flagSdk(f) !== s.sdk) return false
  if (s.stableOnly && !flagStable(f)) return false
  const slot = s.slotOf(i)
  return slot >= 0 && s.accept[slot * 4 + flagIvt(f)] === 1
}

export function census(s: CensusSpec): CensusResult {
  const nCells = s.nPos * s.nRegions
  const r = alloc(nCells)
  const p = s.part
  const span = s.to - s.from + 1
  // Stamps: the last identity run that counted a cell (or a cell-day, for averages).
  const accI = new Int32Array(nCells).fill(-1)
  const accC = new Int32Array(nCells).fill(-1)
  const dayI = new Int32Array(nCells).fill(-1)
  const dayC = new Int32Array(nCells).fill(-1)
  // Distinct cell-days per identity: stamps when they fit in memory, else a set per identity.
  const dense = s.averages && span > 0 && nCells * span <= 32_000_000
  const cdI = dense ? new Int32Array(nCells * span).fill(-1) : null
  const cdC = dense ? new Int32Array(nCells * span).fill(-1) : null
  const sparse = s.averages && !dense ? { imp: new Set<number>(), clk: new Set<number>() } : null
  let run = 0
  const add = (cell: number, click: boolean, onDay: boolean, hour: number, dayOff: number) => {
    r.seen[cell] = 1
    if (click) {
      r.clk[cell]!++
      r.clkHour[cell * 24 + hour]!++
      if (onDay) r.clkDay[cell]!++
      if (!s.uniques) return
      if (accC[cell] !== run) (accC[cell] = run), r.ucl[cell]!++
      if (onDay && dayC[cell] !== run) (dayC[cell] = run), r.uclDay[cell]!++
      if (cdC && cdC[cell * span + dayOff] !== run) (cdC[cell * span + dayOff] = run), r.uclDays[cell]!++
      else if (sparse && !sparse.clk.has(cell * span + dayOff)) sparse.clk.add(cell * span + dayOff), r.uclDays[cell]!++
    } else {
      r.imp[cell]!++
      r.impHour[cell * 24 + hour]!++
      if (onDay) r.impDay[cell]!++
      if (!s.uniques) return
      if (accI[cell] !== run) (accI[cell] = run), r.uim[cell]!++
      if (onDay && dayI[cell] !== run) (dayI[cell] = run), r.uimDay[cell]!++
      if (cdI && cdI[cell * span + dayOff] !== run) (cdI[cell * span + dayOff] = run), r.uimDays[cell]!++
      else if (sparse && !sparse.imp.has(cell * span + dayOff)) sparse.imp.add(cell * span + dayOff), r.uimDays[cell]!++
    }
  }
  const one = (i: number) => {
    if (!counted(s, i)) return
    const pos = s.posOf(i)
    if (pos < 0) return
    const region = p.region[i]!
    const click = p.kind[i] === KIND.click
    const d = p.day[i]!
    const base = pos * s.nRegions
    const a = s.regionFirst[region]!
    const b = s.regionSecond[region]!
    if (a >= 0) add(base + a, click, d === s.day, p.hour[i]!, d - s.from)
    if (b >= 0) add(base + b, click, d === s.day, p.hour[i]!, d - s.from)
  }
  if (s.uniques) {
    p.visitByIdentity(s.identities, (events, count) => {
      run++
      if (sparse) sparse.imp.clear(), sparse.clk.clear()
      for (let k = 0; k < count; k++) one(events[k]!)
    })
  } else {
    for (let i = 0; i < p.n; i++) one(i)
  }
  return r
}
