/**
 * The JSON texts of the rows of the long lists (campaigns/list, list_spots) by id, per kind of
 * row (the endpoint with every option a row's text depends on), kept for one database version: a
 * query never seen before (500 ids of its own, say) whose rows some earlier answer read costs no
 * SQL and no serialization for them, only the ids it asks for looked up. The first read at a new
 * version (after any committed write) forgets them all, so an answer never shows a row as it was
 * before a write. Bounded by size: past the bound every kind is read afresh.
 * docs/decisions.md "Paging from result sets".
 */
import { sortedIds } from './contract/params'
import { PagedRows } from './result-sets'

/** The rows of some ids, each with its id, in any order; an id without a row is left out. */
export type ReadRows = (ids: readonly number[]) => Iterable<readonly [number, unknown]>

/** What an id's entry costs beyond its text (array slot, view object). */
const ENTRY_BYTES = 64

export class RowTexts {
  private version = -1
  /** Per kind, by id: the text, null for an id known to have no row, undefined when not read. */
  private readonly kinds = new Map<string, (Uint8Array | null | undefined)[]>()
  private readonly values = new Map<string, unknown>()
  private bytes = 0

  constructor(private readonly maxBytes = 32 << 20) {}

  /**
   * The texts of `ids` in this order, each after a comma (`,{...}`, as result-sets.ts pages
   * them), null for an id with no row of this kind; those not kept are read with one call of
   * `read` and kept.
   */
  of(version: number, kind: string, ids: readonly number[], read: ReadRows): (Uint8Array | null)[] {
    if (version !== this.version || this.bytes > this.maxBytes) this.clear(version)
    let texts = this.kinds.get(kind)
    if (!texts) this.kinds.set(kind, (texts = []))
    const missing: number[] = []
    for (const id of ids) if (texts[id] === undefined) missing.push(id)
    if (missing.length > 0) {
      for (const id of missing) texts[id] = null
      for (const [id, row] of read(missing)) {
        const text = Buffer.from(`,${JSON.stringify(row)}`, 'utf8')
        texts[id] = text
        this.bytes += text.length
      }
      this.bytes += missing.length * ENTRY_BYTES
    }
    const out = new Array<Uint8Array | null>(ids.length)
    for (let k = 0; k < ids.length; k++) out[k] = texts[ids[k]!]!
    return out
  }

  /** A small value read at this version (the campaign of a list of spots), made by `make` once per version. */
  value<T>(version: number, key: string, make: () => T): T {
    if (version !== this.version || this.bytes > this.maxBytes) this.clear(version)
    if (!this.values.has(key)) {
      this.values.set(key, make())
      this.bytes += ENTRY_BYTES
    }
    return this.values.get(key) as T
  }

  private clear(version: number): void {
    this.kinds.clear()
    this.values.clear()
    this.bytes = 0
    this.version = version
  }
}

const byDb = new WeakMap<object, RowTexts>()

/** The row texts kept for this database (the Db whose version they follow). */
export function rowTextsOf(db: object): RowTexts {
  let texts = byDb.get(db)
  if (!texts) byDb.set(db, (texts = new RowTexts()))
  return texts
}

/**
 * The paged rows of a list asked for by id alone (no other filter, ordered by id): each id once,
 * ascending (descending when `desc`), those with a row, with their texts (`texts`: null for an
 * id without a row).
 */
export function askedRows<Row>(asked: readonly string[], desc: boolean, texts: (ids: readonly number[]) => readonly (Uint8Array | null)[]): PagedRows<Row> {
  const sorted = sortedIds(asked)
  const ids: number[] = []
  for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) ids.push(sorted[k]!)
  if (desc) ids.reverse()
  const have = texts(ids)
  if (!have.includes(null)) return new PagedRows<Row>(ids, { texts: (from, to) => textsIn(have as readonly Uint8Array[], from, to) }, true)
  const found: number[] = []
  const made: Uint8Array[] = []
  for (let k = 0; k < ids.length; k++) {
    const t = have[k]
    if (t) (found.push(ids[k]!), made.push(t))
  }
  return new PagedRows<Row>(found, { texts: (from, to) => textsIn(made, from, to) }, true)
}

/** The texts [from, to) of `all`: `all` itself for all of them (a page of every asked id, the usual one). */
const textsIn = (all: readonly Uint8Array[], from: number, to: number) => (from === 0 && to === all.length ? all : all.slice(from, to))

/** The paged rows of ids read by a query, their texts through `texts` (every id has a row: both are read at one version). */
export function queriedRows<Row>(ids: readonly number[], texts: (ids: readonly number[]) => readonly (Uint8Array | null)[]): PagedRows<Row> {
  return new PagedRows<Row>(ids, {
    texts: (from, to) => {
      const some = ids.slice(from, to)
      return texts(some).map((t, k) => t ?? vanished(some[k]!))
    },
  })
}

function vanished(id: number): never {
  throw new Error(`row ${id} vanished between reading its id and its row`)
}
