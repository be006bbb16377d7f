/**
 * Answers of the long lists (campaigns/list, list_spots) served page by page from their whole
 * result set. The first request of a query (its filters and order, whatever the `limit`) reads
 * the ids of every matching row, in answer order, with one query; the JSON of the rows is then
 * built in chunks of CHUNK rows, when a page first needs them. Any later page of the same query
 * (`limit=M,N` for any M, N) is cut out of those chunks: the query and the serialization do not
 * run again until the next committed write (the database version changes) or the next day
 * (campaign status depends on today). docs/decisions.md "Paging from result sets".
 *
 * Bounded by total size, least recently used first out, like the response cache.
 */
import type { Limit } from './contract/params'
import { VersionedLru } from './versioned-lru'

/**
 * How a paged handler makes its rows: the wire rows of some ids, or the JSON texts of the rows
 * [from, to) of the answer, each after a comma (row-texts.ts keeps them made).
 */
export type RowsOf<Row> = ((ids: readonly number[]) => Row[]) | { texts: (from: number, to: number) => readonly Uint8Array[] }

/** What a paged handler answers: every id of the answer in order, and how to build rows of any of them. */
export class PagedRows<Row> {
  constructor(
    /** Ids of every matching row, in answer order (filters and order applied, no limit). */
    readonly ids: readonly number[],
    /** The wire rows of these ids, in this order (the ids are always some of `ids`), or the texts of a range. */
    private readonly rows: RowsOf<Row>,
    /**
     * Its rows cost no query to make again (their texts are kept per version, row-texts.ts): its
     * result set is kept from the second ask of its query on, so that queries asked once (a new
     * list of ids each time) do not fill the bound with pages no one asks for again.
     */
    readonly keptOnRepeat = false,
  ) {}

  /**
   * The JSON texts in UTF-8 of the rows [from, to) of the answer, each after a comma (`,{...}`):
   * the rows of a page are the texts one after another, the first without its comma.
   */
  texts(from: number, to: number): readonly Uint8Array[] {
    if (typeof this.rows !== 'function') return this.rows.texts(from, to)
    return this.rows(this.ids.slice(from, to)).map((r) => Buffer.from(`,${JSON.stringify(r)}`, 'utf8'))
  }
}

/** Rows per chunk: a page of 500 built once costs at most two chunks more than its own rows. */
export const CHUNK = 128

interface Chunk {
  /** The rows' JSON texts, each after a comma, UTF-8. */
  bytes: Buffer
  /** Where row i's comma is in `bytes`; entry n is one past the end of the last row. */
  byteStart: Uint32Array
}

export class ResultSet {
  readonly chunks: (Chunk | undefined)[]
  /** Bytes held (ids, encoded rows, offsets), as counted against the bound. */
  size: number

  /** `once`: the set answers one page and is not kept, so the page is sent as its rows' texts themselves, no chunks. */
  constructor(
    readonly paged: PagedRows<unknown>,
    private readonly once = false,
  ) {
    this.chunks = new Array<Chunk | undefined>(Math.ceil(paged.ids.length / CHUNK))
    this.size = 64 + paged.ids.length * 8
  }

  chunk(k: number): Chunk {
    const have = this.chunks[k]
    if (have) return have
    const from = k * CHUNK
    const to = Math.min(from + CHUNK, this.paged.ids.length)
    const texts = this.paged.texts(from, to)
    if (texts.length !== to - from) throw new Error(`paged rows: ${texts.length} rows for ${to - from} ids`)
    const byteStart = new Uint32Array(texts.length + 1)
    for (let i = 0; i < texts.length; i++) byteStart[i + 1] = byteStart[i]! + texts[i]!.length
    const made: Chunk = { bytes: Buffer.concat(texts, byteStart[texts.length]!), byteStart }
    this.chunks[k] = made
    this.size += made.bytes.length + 4 * (texts.length + 1)
    return made
  }

  /**
   * The rows [offset, offset + count) as a JSON array, in UTF-8 pieces with no copy: views on the
   * chunks, or for a set answered once the rows' texts themselves (the HTTP door writes the
   * pieces in one go; a copy of the page into new memory cost more than the pieces).
   */
  page(limit: Limit): Uint8Array[] {
    const from = Math.min(limit.offset, this.paged.ids.length)
    const to = Math.min(from + limit.count, this.paged.ids.length)
    const parts: Uint8Array[] = [OPEN]
    if (this.once) pieces(this.paged.texts(from, to), parts)
    else
      for (let k = Math.floor(from / CHUNK); k * CHUNK < to; k++) {
        const c = this.chunk(k)
        const a = Math.max(from, k * CHUNK) - k * CHUNK
        const b = Math.min(to, (k + 1) * CHUNK) - k * CHUNK
        parts.push(c.bytes.subarray(c.byteStart[a], c.byteStart[b]))
      }
    if (parts.length > 1) parts[1] = parts[1]!.subarray(1)
    parts.push(CLOSE)
    return parts
  }
}

/** Rows shorter than this on average (a campaign's 400 bytes) are sent copied, longer ones (a spot's 900) as they are. */
const SMALL = 512
/**
 * Copied rows go in buffers of at most this size: below the server's malloc mmap threshold
 * (128 KiB, scripts/server-flags.mjs), a buffer comes from memory the process reuses, where one
 * of a whole page (about 200 KiB for 500 campaigns) would be a mapping of its own, faulted in and
 * given back at each answer (campaigns/list over HTTP, a new 500-id query per core: 3,100-3,400
 * req/s with the page in one buffer under that threshold).
 */
const PIECE = 64 << 10

/**
 * The texts appended to `parts` as pieces to send: copied into a few buffers of at most PIECE
 * bytes when they are small, else each as it is. Each piece costs the HTTP door and the kernel's
 * write a little, about what copying 500 bytes into new memory does (campaigns/list over HTTP, a
 * new 500-id query per core: 4,800-5,000 req/s with each text a piece, 5,700-6,200 with one copy).
 */
function pieces(texts: readonly Uint8Array[], parts: Uint8Array[]): void {
  let size = 0
  for (const t of texts) size += t.length
  if (size >= SMALL * texts.length) {
    for (const t of texts) parts.push(t)
    return
  }
  let from = 0
  while (from < texts.length) {
    let to = from
    let bytes = 0
    while (to < texts.length && (to === from || bytes + texts[to]!.length <= PIECE)) bytes += texts[to++]!.length
    parts.push(Buffer.concat(texts.slice(from, to), bytes))
    from = to
  }
}

const OPEN = Buffer.from('[')
const CLOSE = Buffer.from(']')

export class ResultSets {
  private readonly lru: VersionedLru<ResultSet>
  /** Queries of rows kept on repeat asked once, by key, with the version they were asked at; forgotten all at once past a sixteenth of the bound in key characters. */
  private readonly askedOnce = new Map<string, number | string>()
  private askedChars = 0

  constructor(private readonly maxBytes = 64 << 20) {
    this.lru = new VersionedLru(maxBytes)
  }

  /** The result set of a query at this version, if it is still kept. */
  get(key: string, version: number | string): ResultSet | undefined {
    return this.lru.get(key, version)
  }

  /** The result set of `paged`, kept under `key` unless its rows are kept on repeat and this is its query's first ask. */
  set(key: string, version: number | string, paged: PagedRows<unknown>): ResultSet {
    if (paged.keptOnRepeat && this.askedOnce.get(key) !== version) {
      if (this.askedChars > this.maxBytes >> 4) (this.askedOnce.clear(), (this.askedChars = 0))
      this.askedOnce.set(key, version)
      this.askedChars += key.length
      return new ResultSet(paged, true)
    }
    const set = new ResultSet(paged)
    this.lru.set(key, version, set, set.size)
    return set
  }

  /** A page of the result set kept under `key`; its chunks built for it count against the bound. */
  page(key: string, set: ResultSet, limit: Limit): Uint8Array[] {
    const before = set.size
    const out = set.page(limit)
    if (set.size !== before) this.lru.resize(key, set, set.size)
    return out
  }
}
