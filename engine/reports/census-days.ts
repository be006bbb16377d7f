/**
 * The censuses of the days of a range as basic/show with metrics=day counts each (a window from
 * the campaign's start to the day, the day's `_day` counts), read from censuses with cells per day
 * (census.ts `byDay`): a pass over the events per chunk of days instead of a pass per day
 * (docs/api.md, "Daily figures of a range").
 */
import type { CensusResult, CensusSpec } from './census'
import { selectorKey } from './selector'

/**
 * Most cells of one census with cells per day (about 250 bytes each): a range of more days than
 * that allows over many positions and regions is counted in chunks of days, a pass each.
 */
const MAX_DAY_CELLS = 1 << 18

/** A census with cells per day over days [from, to]. */
interface Chunk {
  from: number
  to: number
  r: CensusResult
}

/** What the days' specs share: everything but the window's end and the report day. */
const scopeKey = (s: CensusSpec): string =>
  [selectorKey({ ...s.sel, to: 0 }), s.nPos, s.nRegions, s.uniques, s.regionFirst.join(','), s.regionSecond.join(',')].join('|')

export class DayCensuses {
  private scope = ''
  private chunk: Chunk | null = null
  /** Per cell: 1 when it has a counted event from the window's start to day `seenTo`. */
  private seen = new Uint8Array(0)
  private seenTo = -1
  private zeros = new Uint32Array(0)

  /**
   * `count`: the census of a spec (ReportEnv.census, which keeps results); `last`: the day number
   * of the range's last day; `maxCells`: most cells of one census (a chunk of days).
   */
  constructor(
    private readonly count: (s: CensusSpec) => CensusResult,
    private readonly last: number,
    private readonly maxCells = MAX_DAY_CELLS,
  ) {}

  /**
   * The census of `s`, one day's spec as basic/show makes it with metrics=day, with only what that
   * reads: `seen` and the `_day` counters (the accumulated, average and hour counters are empty).
   * Days are asked in ascending order; a spec of another scope is counted as it is.
   */
  of(s: CensusSpec): CensusResult {
    if (s.averages || s.byDay || s.sel.eventPos) return this.count(s)
    const n = s.nPos * s.nRegions
    const key = scopeKey(s)
    if (key !== this.scope || s.sel.to < this.seenTo) this.reset(s, key, n)
    const { from, to } = s.sel
    // the window's end is the report day, or the campaign's end when the day is after it
    const end = to < s.day ? to : this.last
    while (this.seenTo < to) {
      const d = ++this.seenTo
      const c = this.chunkFor(s, d, end)
      const at = (d - c.from) * n
      for (let cell = 0; cell < n; cell++) this.seen[cell]! |= c.r.seen[at + cell]!
    }
    const view = this.view(n)
    if (to < from || s.day !== to) return view
    const c = this.chunkFor(s, to, end)
    const at = (to - c.from) * n
    const day = (a: Uint32Array) => a.subarray(at, at + n)
    return { ...view, impDay: day(c.r.imp), clkDay: day(c.r.clk), uimDay: day(c.r.uim), uclDay: day(c.r.ucl) }
  }

  private reset(s: CensusSpec, key: string, n: number): void {
    this.scope = key
    this.chunk = null
    this.seen = new Uint8Array(n)
    this.seenTo = s.sel.from - 1
    this.zeros = new Uint32Array(n)
  }

  /** The chunk that holds day `d`: the kept one, else a census of days from `d` to at most `end`. */
  private chunkFor(s: CensusSpec, d: number, end: number): Chunk {
    const kept = this.chunk
    if (kept && kept.from <= d && d <= kept.to) return kept
    const days = Math.max(1, Math.floor(this.maxCells / Math.max(1, s.nPos * s.nRegions)))
    const to = Math.max(d, Math.min(end, d + days - 1))
    const spec: CensusSpec = { ...s, sel: { ...s.sel, from: d, to }, day: -1, averages: false, byDay: true }
    return (this.chunk = { from: d, to, r: this.count(spec) })
  }

  /** A result with the cells seen so far and no counts. */
  private view(n: number): CensusResult {
    const z = this.zeros
    const none = new Uint32Array(0)
    return {
      nCells: n, imp: none, clk: none, uim: none, ucl: none, uimDays: none, uclDays: none, impHour: none, clkHour: none,
      impDay: z, clkDay: z, uimDay: z, uclDay: z, seen: this.seen.slice(), rev: new Uint32Array(n), changes: 0, newCells: 0,
    }
  }
}
