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
 * [from, to) of the answer (row-texts.ts keeps them made).
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

  /** The JSON texts in UTF-8 of the rows [from, to) of the answer. */
  texts(from: number, to: number): readonly Uint8Array[] {
    if (typeof this.rows !== 'function') return this.rows.texts(from, to)
    return this.rows(this.ids.slice(from, to)).map((r) => Buffer.from(JSON.stringify(r), 'utf8'))
  }
}

/** Rows per chunk: a page of 500 built once costs at most two chunks more than its own rows. */
export const CHUNK = 128

interface Chunk {
  /** The rows' JSON texts joined by commas, UTF-8. */
  bytes: Buffer
  /** Where row i begins in `bytes`; entry n is one past the end of the last row plus its comma. */
  byteStart: Uint32Array
}

export class ResultSet {
  readonly chunks: (Chunk | undefined)[]
  /** Bytes held (ids, encoded rows, offsets), as counted against the bound. */
  size: number

  constructor(readonly paged: PagedRows<unknown>) {
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
    for (let i = 0; i < texts.length; i++) byteStart[i + 1] = byteStart[i]! + texts[i]!.length + 1
    const made: Chunk = { bytes: joined(texts, byteStart[texts.length]!), byteStart }
    this.chunks[k] = made
    this.size += made.bytes.length + 4 * (texts.length + 1)
    return made
  }

  /** The rows [offset, offset + count) as a JSON array, in UTF-8 pieces (views on the chunks, no copy). */
  page(limit: Limit): Uint8Array[] {
    const from = Math.min(limit.offset, this.paged.ids.length)
    const to = Math.min(from + limit.count, this.paged.ids.length)
    const parts: Uint8Array[] = [OPEN]
    for (let k = Math.floor(from / CHUNK); k * CHUNK < to; k++) {
      const c = this.chunk(k)
      const a = Math.max(from, k * CHUNK) - k * CHUNK
      const b = Math.min(to, (k + 1) * CHUNK) - k * CHUNK
      if (parts.length > 1) parts.push(COMMA)
      parts.push(c.bytes.subarray(c.byteStart[a], c.byteStart[b]! - 1))
    }
    parts.push(CLOSE)
    return parts
  }
}

/** The texts joined by commas, a comma after the last too (`size` bytes in all: a page never reads it). */
function joined(texts: readonly Uint8Array[], size: number): Buffer {
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (const t of texts) {
    out.set(t, at)
    at += t.length
    out[at++] = 44
  }
  return out
}

const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')

export class ResultSets {
  private readonly lru: VersionedLru<ResultSet>
  /** Queries of rows kept on repeat asked once at this version, by key (their size: the key's). */
  private readonly askedOnce: VersionedLru<true>

  constructor(maxBytes = 64 << 20) {
    this.lru = new VersionedLru(maxBytes)
    this.askedOnce = new VersionedLru(maxBytes >> 4)
  }

  /** The result set of a query at this version, if it is still kept. */
  get(key: string, version: number | string): ResultSet | undefined {
    return this.lru.get(key, version)
  }

  /** The result set of `paged`, kept under `key` unless its rows are kept on repeat and this is its query's first ask. */
  set(key: string, version: number | string, paged: PagedRows<unknown>): ResultSet {
    const set = new ResultSet(paged)
    if (paged.keptOnRepeat && this.askedOnce.get(key, version) === undefined) {
      this.askedOnce.set(key, version, true, 2 * key.length)
      return set
    }
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
