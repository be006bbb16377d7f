/**
 * The JSON text of the items of a kept census's cells as a report last wrote them, reused for the
 * cells censusAdd has not changed since (docs/measurement.md, "Kept answer text"). A basic/show
 * of 64,395 rows writes 3.9 million numbers, most of its time; after a few new hits only the
 * items of the cells they counted in are written again. The others are not even copied: the
 * answer's pieces are views on the kept text, which is only ever appended to, in chunks of
 * 1 MiB (a text written again goes at the end; when such texts outweigh the live ones, the live
 * ones are copied into new chunks, the old ones left as they were for answers still being sent).
 *
 * The text of a cell's item is a function of its counters, the metric names, the window's day
 * count (the averages) and the row's attributes: a store is made for one key (those but the
 * counters); a result keeps the stores of its last four keys. A fresh census pass makes a new
 * result, and so new stores: nothing is carried over a pass.
 */
import { JsonBytes } from '../json-bytes'

/** What a store reads of a census result (census.ts CensusResult): its cells, their revs and the stores kept with it. */
export interface KeptCells {
  readonly nCells: number
  readonly rev: Uint32Array
  written?: CellBytes[]
}

/** The items text of the last answer of a store, and what it is valid for (kept-items.ts). */
export interface KeptItems {
  /** What else the items depend on than the store's key and the counts: with_null and the order. */
  key: string
  /** The census result's `changes` and `newCells` when it was written. */
  changes: number
  newCells: number
  /** The items array's text, `[...]`: views on kept text, which is never written over. */
  pieces: readonly Uint8Array[]
  rows: number
  /** The census cells of the items in order, when every item is a counted cell's in cell order. */
  cells: Int32Array | null
}

/** The first chunk of a store: it grows by doubling up to CHUNK; later chunks are CHUNK each. */
const FIRST_BYTES = 1 << 16
/**
 * A chunk of kept text. Texts are appended into chunks of this size and never moved while the
 * store is valid: a store of 67 MiB of text holds 67 chunks and at most one chunk unused, where
 * one buffer grown by doubling held up to twice the text, and every buffer it outgrew stayed
 * alive while an answer's pieces were views on it (about 278 MB of buffers for 67 MiB of text).
 */
const CHUNK = 1 << 20
/** A cell's place: chunk index times CHUNK plus the offset in the chunk (texts are shorter than CHUNK). */
const chunkOf = (at: number) => Math.floor(at / CHUNK)
const COMMA = 44
/** Stores kept per census result (metrics=acc and day, or all and avg_day, share a census). */
const STORES_PER_RESULT = 4

/** Where an item's text is written before it is kept (reports are written one at a time). */
let scratchWriter: JsonBytes | null = null

export class CellBytes {
  private chunks: Buffer[] = [Buffer.allocUnsafe(FIRST_BYTES)]
  /** Bytes used of the last chunk. */
  private used = 0
  /** Bytes of texts in the chunks (the cells' current texts and those written again since). */
  private written = 0
  /** Bytes of the cells' current texts. */
  private live = 0
  /** Each cell's text: its place (see chunkOf) and length; length -1 when none is kept. */
  private readonly start: Int32Array
  private readonly length: Int32Array
  /** The cell's census rev when its text was written. */
  private readonly rev: Uint32Array
  /** The items text of the last answer written from this store (kept-items.ts). */
  items: KeptItems | null = null

  constructor(
    private readonly r: KeptCells,
    readonly key: string,
  ) {
    this.start = new Int32Array(r.nCells)
    this.length = new Int32Array(r.nCells).fill(-1)
    this.rev = new Uint32Array(r.nCells)
  }

  /** Memory held. */
  get bytes(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0) + this.start.byteLength * 3 + (this.items?.cells?.byteLength ?? 0)
  }

  /** Whether the kept text of `cell` is that of its current counts. */
  has(cell: number): boolean {
    return this.length[cell]! >= 0 && this.rev[cell] === this.r.rev[cell]
  }

  /** Puts the kept text of `cell` in `w` (has(cell) must be true), after a comma when `comma`. */
  put(w: JsonBytes, cell: number, comma: boolean): void {
    const place = this.start[cell]!
    const at = place % CHUNK
    w.share(this.chunks[chunkOf(place)]!, comma ? at : at + 1, at + this.length[cell]!)
  }

  /**
   * Writes the item of `cell` by `write` (without the comma), keeps it and puts it in `w` as
   * put() does; false, with nothing kept or put, when it took more than `room` bytes and went on
   * in another piece, or more than a chunk (the caller writes the item).
   */
  write(w: JsonBytes, cell: number, comma: boolean, room: number, write: (to: JsonBytes) => void): boolean {
    const scratch = (scratchWriter ??= new JsonBytes())
    const text = scratch.block(room + 1, () => {
      scratch.char(COMMA)
      write(scratch)
    })
    const kept = text !== null && text.length <= CHUNK
    if (kept) this.keep(cell, text)
    scratch.discard()
    if (!kept) return false
    this.put(w, cell, comma)
    return true
  }

  /** Keeps `text` as the text of `cell` at its current census rev. */
  private keep(cell: number, text: Uint8Array): void {
    const old = this.length[cell]!
    if (old >= 0) this.live -= old
    this.length[cell] = -1
    this.start[cell] = this.append(text)
    this.length[cell] = text.length
    this.rev[cell] = this.r.rev[cell]!
    this.live += text.length
  }

  /** Appends `text` to the last chunk (or a new one) and gives its place. */
  private append(text: Uint8Array): number {
    const n = text.length
    let last = this.chunks.length - 1
    let buf = this.chunks[last]!
    if (this.used + n > buf.length) {
      if (last === 0 && buf.length < CHUNK) {
        // (the first chunk grows in place of a new one: a small answer keeps a small buffer)
        const next = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(2 * buf.length, this.used + n)))
        buf.copy(next, 0, 0, this.used)
        this.chunks[0] = buf = next
      } else if (this.written - this.live > this.live) {
        this.compact()
        return this.append(text)
      } else {
        this.chunks.push((buf = Buffer.allocUnsafe(CHUNK)))
        this.used = 0
        last++
      }
    }
    buf.set(text, this.used)
    const place = last * CHUNK + this.used
    this.used += n
    this.written += n
    return place
  }

  /**
   * The live texts copied into new chunks, when texts written again outweigh them: the old
   * chunks are left as they were, for answers still being sent.
   */
  private compact(): void {
    const old = this.chunks
    this.chunks = [Buffer.allocUnsafe(Math.min(CHUNK, Math.max(FIRST_BYTES, this.live)))]
    this.used = 0
    this.written = 0
    for (let c = 0; c < this.length.length; c++) {
      const len = this.length[c]!
      if (len < 0) continue
      const place = this.start[c]!
      const from = place % CHUNK
      this.start[c] = this.append(old[chunkOf(place)]!.subarray(from, from + len))
    }
  }
}

/**
 * The store of `r` for `key` (metric names, day count, attributes): the kept one, or a new one
 * in place of the least recently used when `r` has STORES_PER_RESULT already.
 */
export function cellBytes(r: KeptCells, key: string): CellBytes {
  const stores = (r.written ??= [])
  const k = stores.findIndex((x) => x.key === key)
  const store = k >= 0 ? stores.splice(k, 1)[0]! : new CellBytes(r, key)
  stores.push(store)
  if (stores.length > STORES_PER_RESULT) stores.shift()
  return store
}
