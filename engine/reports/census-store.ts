/**
 * Kept censuses on disk (docs/measurement.md, "Kept censuses at a start"): the census results of
 * census-cache.ts saved beside the checkpoint (`events/census.bin`) with each checkpoint and at
 * close, so that the first report of a spec asked before a start reads its counters instead of a
 * pass over every event of the campaign. The file is tied to the checkpoint it was written with
 * (the log extent it records, CheckpointBase); an entry is used only when it counts exactly the
 * partition's first events it says, and the events added since are counted by censusAdd.
 *
 * Layout: `AMCENSUS`, version u32, index length u32, index CRC-32 u32, 0 u32; the index (JSON:
 * the extent, and per entry its partition, spec key, the partition's events in the checkpoint,
 * the events it counts and a hash of those past the checkpoint, its cells, offset and CRC-32);
 * then the entries' counters, each the ten per-cell u32 arrays, the two per-cell-hour u32 arrays
 * and `seen`.
 */
import { crc32 } from 'node:zlib'
import type { Logger } from '../logger'
import type { Partition } from '../measure/columns'
import type { EventLog } from '../measure/event-log'
import type { CheckpointBase, PartitionOf } from '../measure/ingest'
import type { LogExtent } from '../measure/log-extent'
import { fileBesideLog, type KeptFile } from '../measure/kept-file'
export type { KeptFile } from '../measure/kept-file'
import type { CensusResult } from './census'

const MAGIC = Buffer.from('AMCENSUS')
const VERSION = 1
const HEADER = 24
/**
 * Most bytes of counters the file holds (the results used last first): the bench's reports keep
 * 16.6 MB; a start reads only the entries it is asked for.
 */
export const MAX_FILE_BYTES = 64 * 2 ** 20
/** The per-cell arrays, then the per-cell-hour ones, in file order. */
const CELLS = ['imp', 'clk', 'impDay', 'clkDay', 'uim', 'ucl', 'uimDay', 'uclDay', 'uimDays', 'uclDays'] as const
const HOURS = ['impHour', 'clkHour'] as const
const bytesOf = (nCells: number): number => nCells * (4 * CELLS.length + 4 * 24 * HOURS.length + 1)

/** A kept census as census-cache.ts hands it over: counters of the partition's first `n` events. */
export interface KeptCensus {
  /** The partition: a campaign's id, a minisite's as its negative (Ingest.partitions). */
  part: number
  key: string
  n: number
  result: CensusResult
}

interface IndexEntry {
  part: number
  key: string
  /** The partition's events in the checkpoint, and those the counters count (the later ones checked by `hash`). */
  base: number
  n: number
  hash: number
  nCells: number
  at: number
  crc: number
}

/** An extent as one string, to compare (whatever order its objects' keys were made in). */
const extentKey = (e: LogExtent): string => e.segments.map((s) => `${s.id}:${s.bytes}:${s.tailAt}:${s.tailCrc}`).join(',')

interface Index {
  /** The extent of the checkpoint the file goes with (extentKey). */
  extent: string
  entries: IndexEntry[]
  /** Where the counters start (an entry's `at` is from there). */
  bodyAt: number
}

/** The census file of an event log: `census.bin` in its directory, or beside an in-memory log. */
export const keptFileOf = (log: EventLog): KeptFile => fileBesideLog(log, 'census.bin')

/**
 * An order-dependent hash of the events [from, to) of a partition (the events a kept census
 * counts past its checkpoint: a start replays them from the log, and they must be the same).
 */
export function rangeHash(p: Partition, from: number, to: number): number {
  let h = 0x811c9dc5 ^ (to - from)
  const mix = (v: number) => (h = Math.imul(h ^ v, 0x01000193) ^ (h >>> 15))
  for (let i = from; i < to; i++) {
    mix(p.day[i]! | (p.hour[i]! << 16) | (p.kind[i]! << 24))
    mix(p.flags[i]! | (p.region[i]! << 8))
    mix(p.spot[i]!)
    mix(p.keyword[i]!)
    mix(p.identity[i]!)
    if (p.minisite) (mix(p.campaign[i]!), mix(p.event[i]!))
  }
  return h >>> 0
}

/** A census taken for a write: its counters as the file holds them (copied, or read from the file at the write; null: unreadable). */
interface Taken {
  part: number
  key: string
  n: number
  nCells: number
  body(): Uint8Array | null
}

/** What a checkpoint's save writes: the kept censuses as they were when its state was taken. */
export interface TakenCensuses {
  /** Removes the file before the checkpoint is replaced (a file never outlives its checkpoint). */
  drop(): Promise<void>
  /** Writes the file for the state `base` (the checkpoint saved, or the one the state stands on at close). */
  write(base: CheckpointBase, parts: PartitionOf): Promise<void>
}

export class CensusStore {
  /** The file's index, read at the first report that looks for a kept census (undefined: not read yet). */
  private index: Index | null | undefined
  private warned = false

  constructor(private readonly file: KeptFile, private readonly log: Logger | null = null) {}

  /**
   * The kept census of spec `key` of partition `part` (its key `partKey`), with the events it
   * counts, when it counts exactly the partition's first events: the file is of the checkpoint the
   * state stands on (`base`), the partition has neither been renumbered nor relabelled since, and
   * the events it counts past the checkpoint are the ones there now. Else null.
   */
  restore(base: CheckpointBase | null, partKey: number | undefined, part: Partition, key: string): { result: CensusResult; n: number } | null {
    if (!base || partKey === undefined) return null
    const index = this.readIndex()
    const e = index?.entries.find((x) => x.part === partKey && x.key === key)
    const body = index && e && this.usable(index, e, base, part) ? this.counters(index, e) : null
    return body && e ? { result: decode(body, e.nCells), n: e.n } : null
  }

  /** Whether entry `e` of `index` counts exactly the first events of `part`, in the state on `base`. */
  private usable(index: Index, e: IndexEntry, base: CheckpointBase, part: Partition): boolean {
    const b = base.parts.get(e.part)
    return index.extent === extentKey(base.extent) && b !== undefined && b.n === e.base && b.generation === part.generation && !part.relabelPending &&
      part.n >= e.n && rangeHash(part, e.base, e.n) === e.hash
  }

  /** The counters of entry `e` when they match their CRC, else null (reported once). */
  private counters(index: Index, e: IndexEntry): Uint8Array | null {
    const body = this.file.read(index.bodyAt + e.at, bytesOf(e.nCells))
    if (body && crc32(body) === e.crc) return body
    this.warn('its counters do not match their CRC')
    return null
  }

  /**
   * Copies `kept` (most recently used first) and the file's censuses not among them that still
   * count the first events of their partition in the state on `current` (the checkpoint it stands
   * on; `parts`: its partitions), cut at MAX_FILE_BYTES, for a later write: called while no hit is
   * recorded, the counters then being of the partitions' first `n` events. A census the file holds
   * as it is (read at this start, no event added since) is read from the file when written, not
   * copied.
   */
  take(kept: readonly KeptCensus[], current: CheckpointBase | null, parts: PartitionOf): TakenCensuses {
    const taken: Taken[] = []
    let bytes = 0
    // (one that does not fit is left out, and those after it that do are kept)
    const room = (nCells: number) => {
      if (bytes + bytesOf(nCells) > MAX_FILE_BYTES) return false
      bytes += bytesOf(nCells)
      return true
    }
    const index = current ? this.readIndex() : null
    const filed = (part: number, key: string): IndexEntry | undefined => {
      const p = parts(part)
      return index?.entries.find((f) => f.part === part && f.key === key && p !== undefined && this.usable(index, f, current!, p))
    }
    const fromFile = (f: IndexEntry): Taken => {
      let body: Uint8Array | null | undefined
      return { part: f.part, key: f.key, n: f.n, nCells: f.nCells, body: () => (body === undefined ? (body = this.counters(index!, f)) : body) }
    }
    for (const e of kept) {
      if (!room(e.result.nCells)) continue
      const f = filed(e.part, e.key)
      if (f?.n === e.n) taken.push(fromFile(f))
      else {
        const body = encode(e.result)
        taken.push({ part: e.part, key: e.key, n: e.n, nCells: e.result.nCells, body: () => body })
      }
    }
    // (a start that asked for other reports keeps those of the starts before)
    for (const e of index?.entries ?? []) {
      if (taken.some((t) => t.part === e.part && t.key === e.key) || filed(e.part, e.key) !== e || !room(e.nCells)) continue
      taken.push(fromFile(e))
    }
    return {
      drop: async () => {
        // (the counters read from the file: before it is removed)
        for (const t of taken) t.body()
        this.index = null
        await this.file.remove().catch((err: unknown) => this.warn('it could not be removed', err))
      },
      write: (base, parts) => this.write(base, parts, taken),
    }
  }

  private async write(base: CheckpointBase, parts: PartitionOf, taken: readonly Taken[]): Promise<void> {
    const planned: { t: Taken; e: Omit<IndexEntry, 'at' | 'crc'> }[] = []
    for (const t of taken) {
      const b = base.parts.get(t.part)
      const p = parts(t.part)
      // counts past the checkpoint only in the order it holds them (no renumbering since)
      if (!b || !p || b.n > t.n || (b.n < t.n && p.generation !== b.generation)) continue
      planned.push({ t, e: { part: t.part, key: t.key, n: t.n, nCells: t.nCells, base: b.n, hash: rangeHash(p, b.n, t.n) } })
    }
    const extent = extentKey(base.extent)
    const same = (x: Omit<IndexEntry, 'at' | 'crc'>, y: IndexEntry) => x.part === y.part && x.key === y.key && x.base === y.base && x.n === y.n && x.hash === y.hash
    const old = this.readIndex()
    // (the file holds these already: a start that only read reports writes nothing at close)
    if (old && old.extent === extent && old.entries.length === planned.length && planned.every(({ e }) => old.entries.some((y) => same(e, y)))) return
    const entries: IndexEntry[] = []
    const bodies: Uint8Array[] = []
    let at = 0
    for (const { t, e } of planned) {
      const body = t.body()
      if (!body) continue
      entries.push({ ...e, at, crc: crc32(body) })
      bodies.push(body)
      at += body.length
    }
    const json = Buffer.from(JSON.stringify({ extent: base.extent, entries }))
    const index: Index = { extent, entries, bodyAt: HEADER + json.length }
    const head = Buffer.alloc(HEADER)
    MAGIC.copy(head, 0)
    head.writeUInt32LE(VERSION, 8)
    head.writeUInt32LE(json.length, 12)
    head.writeUInt32LE(crc32(json), 16)
    try {
      await this.file.write([head, json, ...bodies])
      this.index = index
    } catch (err) {
      this.index = null
      this.warn('it could not be written', err)
    }
  }

  /** The file's index when the file is whole, of this version; null otherwise (reported once). */
  private readIndex(): Index | null {
    if (this.index !== undefined) return this.index
    this.index = null
    const bytes = this.file.read(0, HEADER)
    if (!bytes) return null
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (!head.subarray(0, 8).equals(MAGIC) || head.readUInt32LE(8) !== VERSION) {
      this.warn('it is of another version')
      return null
    }
    const json = this.file.read(HEADER, head.readUInt32LE(12))
    if (!json || crc32(json) !== head.readUInt32LE(16)) {
      this.warn('its index is cut short or does not match its CRC')
      return null
    }
    try {
      const parsed = JSON.parse(new TextDecoder().decode(json)) as { extent: LogExtent; entries: IndexEntry[] }
      this.index = { extent: extentKey(parsed.extent), entries: parsed.entries, bodyAt: HEADER + json.length }
    } catch (err) {
      this.warn('its index is not JSON', err)
    }
    return this.index
  }

  private warn(why: string, cause?: unknown): void {
    if (this.warned) return
    this.warned = true
    this.log?.error(`The kept censuses (events/census.bin) are not used, as ${why}: reports count their censuses afresh`, cause)
  }
}

function encode(r: CensusResult): Buffer {
  const out = Buffer.allocUnsafe(bytesOf(r.nCells))
  let at = 0
  for (const name of [...CELLS, ...HOURS]) {
    const a = r[name]
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at)
    at += a.byteLength
  }
  out.set(r.seen, at)
  return out
}

/**
 * A result as a pass gives it (no changes since, no kept answer text), its arrays views of `body`
 * (read into an ArrayBuffer of its own: no copy of 15 MiB beside it).
 */
function decode(body: Uint8Array, nCells: number): CensusResult {
  let at = body.byteOffset
  const take = (n: number) => {
    const a = new Uint32Array(body.buffer, at, n)
    at += n * 4
    return a
  }
  const cells = Object.fromEntries(CELLS.map((name) => [name, take(nCells)])) as Record<(typeof CELLS)[number], Uint32Array>
  const hours = Object.fromEntries(HOURS.map((name) => [name, take(nCells * 24)])) as Record<(typeof HOURS)[number], Uint32Array>
  const seen = new Uint8Array(body.buffer, at, nCells)
  return { nCells, ...cells, ...hours, seen, rev: new Uint32Array(nCells), changes: 0, newCells: 0 }
}
