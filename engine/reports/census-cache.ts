/**
 * Census results kept between reports and brought up to date with the events added since, instead
 * of a pass over every event of the campaign for each request (docs/measurement.md, "Kept
 * censuses"): a report after new hits counts only those hits. A result is kept per partition and
 * per spec (window, positions, flag rules, region cells, report day, which counts, cells per day), and is counted
 * afresh when the partition has renumbered its events (compaction) or too many were added. The
 * results are also kept on disk for the first reports after a start (census-store.ts).
 */
import type { Partition } from '../measure/columns'
import { census, censusAdd, type CensusResult, type CensusSpec } from './census'
import type { KeptCensus } from './census-store'
import { selectorKey } from './selector'

/** Over this many added events (or an eighth of the partition), a fresh pass is cheaper. */
const ADD_MAX = 65_536
/**
 * Memory of kept results with their answer text; the newest is kept whatever its size. A
 * basic/show of 200 spots x 322 regions with every metric holds about 15 MiB of counters and up
 * to twice its 55 MiB of metric text.
 */
const LIMIT_BYTES = 256 * 2 ** 20

/** Results kept on disk (census-store.ts): the one of a spec when it counts the partition's first `n` events. */
export interface KeptResults {
  restore(part: Partition, key: string): { result: CensusResult; n: number } | null
  /** A campaign's id, a minisite's as its negative, of a partition held now. */
  keyOf(part: Partition): number | undefined
}

interface Entry {
  part: Partition
  spec: CensusSpec
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

  constructor(private readonly limit = LIMIT_BYTES, private readonly kept: KeptResults | null = null) {}

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
    // a result kept in memory, else one kept on disk at the last checkpoint or close
    const kept = k >= 0 ? this.entries.splice(k, 1)[0]! : this.restored(s, key)
    if (kept) kept.spec = s
    if (kept && this.bringUp(kept)) {
      this.entries.push(kept)
      this.evict()
      return kept.result
    }
    const result = census(s)
    // after the pass: it may have compacted the partition (a new generation)
    this.entries.push({ part, spec: s, key, generation: part.generation, n: part.n, result })
    this.evict()
    return result
  }

  /**
   * The results that count every event of their partition, most recently used first, each
   * brought up to date first (census-store.ts saves them): called while no hit is recorded.
   */
  current(): KeptCensus[] {
    const out: KeptCensus[] = []
    for (const e of [...this.entries].reverse()) {
      const part = this.kept?.keyOf(e.part)
      if (part !== undefined && this.bringUp(e)) out.push({ part, key: e.key, n: e.n, result: e.result })
    }
    return out
  }

  /** Counts into `e` the events added since it was counted; false when it cannot be (renumbered, relabelled, or too many added). */
  private bringUp(e: Entry): boolean {
    const part = e.part
    const added = part.n - e.n
    if (e.generation !== part.generation || part.relabelPending || added < 0 || added > Math.max(ADD_MAX, part.n >> 3)) return false
    if (added > 0) censusAdd(e.spec, e.result, e.n)
    e.n = part.n
    return true
  }

  /** The result of `s` kept on disk, as an entry counting the partition's first events. */
  private restored(s: CensusSpec, key: string): Entry | null {
    const r = this.kept?.restore(s.part, key)
    return r ? { part: s.part, spec: s, key, generation: s.part.generation, n: r.n, result: r.result } : null
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
