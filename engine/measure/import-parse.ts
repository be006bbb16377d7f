/**
 * Import lines parsed into hits (docs/import.md): what one step of an import hands to the ingest.
 * Hits are kept as columns (HitColumns, types.ts), never as an object each: tens of thousands of
 * hit objects held until they are counted outlived the young generation, and the garbage collector
 * copied each of them (a fifth of a worker's parse); columns also move between threads without a
 * copy.
 */
import type { Problem } from '../contract/problems'
import { LineError, lineToHit, type ImportContext, type ImportLine } from './import'
import { ensure } from './grow'
import { KIND, type Hit, type HitColumns } from './types'

export interface ParsedLines {
  /** Lines read, good and bad. */
  lines: number
  /** The good lines' hits, in line order. */
  hits: HitColumns
  /** The bad lines, by their line numbers in the text parsed. */
  errors: { line: number; error: string; error_problem?: Problem }[]
}

/** The numbered lines of a text (`lines()` of import-run.ts): after next() answers true, `line` and `value` are the next line's. */
export interface LineCursor {
  line: number
  value: ImportLine | LineError
  next(): boolean
}

/** Lines parsed between two looks at the clock (parseLines' `until`). */
const LINES_A_LOOK = 64

/**
 * Parses up to `max` lines of `source` (all when `max` is Infinity), and stops earlier once
 * `performance.now()` passes `until`; null when it has none left. A LineError rejects its line;
 * any other error ends the import.
 */
export function parseLines(source: LineCursor, c: ImportContext, max: number, until = Infinity): ParsedLines | null {
  const hits = new ColumnWriter()
  const errors: ParsedLines['errors'] = []
  let lines = 0
  while (lines < max && (lines % LINES_A_LOOK !== 0 || lines === 0 || performance.now() < until) && source.next()) {
    const { line, value } = source
    lines++
    try {
      if (value instanceof LineError) throw value
      hits.push(lineToHit(value, c))
    } catch (err) {
      if (!(err instanceof LineError)) throw err
      errors.push({ line, error: err.message, ...(err.problem ? { error_problem: err.problem } : {}) })
    }
  }
  return lines === 0 ? null : { lines, hits: hits.columns, errors }
}

/** The typed arrays of columns (to transfer them to another thread). */
export const buffersOf = (h: HitColumns): ArrayBuffer[] =>
  [h.kind, h.ts, h.campaign, h.spot, h.keyword, h.region, h.platform, h.sdk, h.ivt, h.minisite, h.event, h.credit].map((a) => a.buffer)

/** Appends hits to growing columns; `columns` views the rows written so far. */
class ColumnWriter {
  columns: HitColumns = {
    n: 0, kind: new Uint8Array(1024), ts: new Float64Array(1024), campaign: new Uint32Array(1024), spot: new Uint32Array(1024), keyword: new Uint32Array(1024),
    region: new Uint16Array(1024), platform: new Uint8Array(1024), sdk: new Uint8Array(1024), ivt: new Uint8Array(1024), minisite: new Uint32Array(1024),
    event: new Uint32Array(1024), credit: new Uint8Array(1024), identity: [],
  }

  push(hit: Hit): void {
    const i = this.columns.n++
    if (i === this.columns.kind.length) this.grow(i + 1)
    const c = this.columns
    c.kind[i] = hit.kind
    c.ts[i] = hit.ts
    c.campaign[i] = hit.campaign
    c.spot[i] = hit.spot
    c.keyword[i] = hit.keyword
    c.region[i] = hit.region
    c.platform[i] = hit.platform
    c.sdk[i] = hit.sdk
    c.ivt[i] = hit.ivt
    c.minisite[i] = hit.minisite ?? 0
    c.event[i] = hit.event ?? 0
    c.credit[i] = hit.kind === KIND.minisite && hit.credit ? 1 : 0
    c.identity.push(hit.identity)
    if (hit.request) (c.request ??= [])[i] = hit.request
    if (hit.links) (c.links ??= [])[i] = hit.links
    if (hit.legacy !== undefined) (c.legacy ??= [])[i] = hit.legacy
  }

  private grow(n: number): void {
    const c = this.columns
    this.columns = {
      n: c.n, kind: ensure(c.kind, n), ts: ensure(c.ts, n), campaign: ensure(c.campaign, n), spot: ensure(c.spot, n), keyword: ensure(c.keyword, n),
      region: ensure(c.region, n), platform: ensure(c.platform, n), sdk: ensure(c.sdk, n), ivt: ensure(c.ivt, n), minisite: ensure(c.minisite, n),
      event: ensure(c.event, n), credit: ensure(c.credit, n), identity: c.identity, ...(c.request ? { request: c.request } : {}),
      ...(c.links ? { links: c.links } : {}), ...(c.legacy ? { legacy: c.legacy } : {}),
    }
  }
}
