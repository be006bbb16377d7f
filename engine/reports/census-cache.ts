/**
 * Census results kept between reports and brought up to date with the events added since, instead
 * of a pass over every event of the campaign for each request (docs/measurement.md, "Kept
 * censuses"): a report after new hits counts only those hits. A result is kept per partition and
 * per spec (window, positions, flag rules, region cells, report day, which counts, cells per day), and is counted
 * afresh when the partition has renumbered its events (compaction) or too many were added.
 */
import type { Partition } from '../measure/columns'
import { census, censusAdd, type CensusResult, type CensusSpec } from './census'
import { selectorKey } from './selector'

/** Over this many added events (or an eighth of the partition), a fresh pass is cheaper. */
const ADD_MAX = 65_536
/**
 * Memory of kept results with their answer text; the newest is kept whatever its size. A
 * basic/show of 200 spots x 322 regions with every metric holds about 15 MiB of counters and up
 * to twice its 55 MiB of metric text.
 */
const LIMIT_BYTES = 256 * 2 ** 20

interface Entry {
  part: Partition
  key: string
  /** The partition's generation and event count the result covers. */
  generation: number
  n: number
  result: CensusResult
}

/** Everything of a spec but its partition and identity count, as a string (a few kB). */
function keyOf(s: CensusSpec): string {
  return [selectorKey(s.sel), s.day, s.nPos, s.nRegions, s.uniques, s.averages, s.byDay === true, s.regionFirst.join(','), s.regionSecond.join(',')].join('|')
}

/** Memory of a result: its counters, and the answer text kept with it (kept-bytes.ts). */
const bytesOf = (r: CensusResult) =>
  Object.values(r).reduce<number>((n, v) => n + (ArrayBuffer.isView(v) ? v.byteLength : 0), (r.written ?? []).reduce((n, w) => n + w.bytes, 0))

export class CensusCache {
  /** Least recently used first. */
  private entries: Entry[] = []

  constructor(private readonly limit = LIMIT_BYTES) {}

  /**
   * The census of `s`. The result is shared with later calls, which update it in place: read it
   * before the next call, and never change it. Specs with per-event positions (minisites) are
   * counted afresh each time.
   */
  get(s: CensusSpec): CensusResult {
    if (s.sel.eventPos) return census(s)
    const part = s.part
    const key = keyOf(s)
    const k = this.entries.findIndex((e) => e.part === part && e.key === key)
    if (k >= 0) {
      const e = this.entries.splice(k, 1)[0]!
      const added = part.n - e.n
      if (e.generation === part.generation && added >= 0 && added <= Math.max(ADD_MAX, part.n >> 3)) {
        if (added > 0) censusAdd(s, e.result, e.n)
        e.n = part.n
        this.entries.push(e)
        this.evict()
        return e.result
      }
    }
    const result = census(s)
    // after the pass: it may have compacted the partition (a new generation)
    this.entries.push({ part, key, generation: part.generation, n: part.n, result })
    this.evict()
    return result
  }

  /** Forgets every result (the partitions are being replaced). */
  clear(): void {
    this.entries = []
  }

  /**
   * Drops the least recently used results over the limit, sizes taken now: the answer text kept
   * with a result grows after it is handed out.
   */
  private evict(): void {
    let bytes = this.entries.reduce((n, e) => n + bytesOf(e.result), 0)
    while (bytes > this.limit && this.entries.length > 1) bytes -= bytesOf(this.entries.shift()!.result)
  }
}
