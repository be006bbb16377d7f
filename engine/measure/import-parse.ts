/**
 * Import lines parsed into hits (docs/import.md): what one step of an import hands to the ingest.
 * An import worker sends its hits back as columns (typed arrays move without a copy; a few tens of
 * thousands of Hit objects would be cloned one by one).
 */
import { LineError, lineToHit, type ImportContext, type ImportLine } from './import'
import type { ImportLookup } from './lookup'
import { KIND, type Hit, type IvtClass, type Kind, type PlatformCode, type SdkCode } from './types'

export interface ParsedLines {
  /** Lines read, good and bad. */
  lines: number
  /** The good lines' hits, in line order. */
  hits: Hit[]
  /** The bad lines, by their line numbers in the text parsed. */
  errors: { line: number; error: string }[]
}

/** The hits of parsed lines as columns, to send them to another thread. */
export interface HitColumns {
  lines: number
  errors: { line: number; error: string }[]
  kind: Uint8Array
  ts: Float64Array
  campaign: Uint32Array
  spot: Uint32Array
  keyword: Uint32Array
  region: Uint16Array
  platform: Uint8Array
  sdk: Uint8Array
  ivt: Uint8Array
  minisite: Uint32Array
  event: Uint32Array
  /** 1: a minisite event credited at ingest to the identity's latest touch on a linked campaign. */
  credit: Uint8Array
  identity: string[]
}

/** The numbered lines of a text, as `lines()` of import-run.ts yields them. */
export type LineSource = Iterator<{ line: number; value: ImportLine | LineError }>

/**
 * Parses up to `max` lines of `source` (all when `max` is Infinity); null when it has none left.
 * A LineError rejects its line; any other error ends the import.
 */
export function parseLines(source: LineSource, c: ImportContext, max: number): ParsedLines | null {
  const p: ParsedLines = { lines: 0, hits: [], errors: [] }
  for (let r = source.next(); !r.done; r = p.lines < max ? source.next() : { done: true, value: undefined }) {
    const { line, value } = r.value
    p.lines++
    try {
      if (value instanceof LineError) throw value
      p.hits.push(lineToHit(value, c))
    } catch (err) {
      if (!(err instanceof LineError)) throw err
      p.errors.push({ line, error: err.message })
    }
  }
  return p.lines === 0 ? null : p
}

/** Parsed lines as columns. */
export function toColumns(p: ParsedLines): HitColumns {
  const n = p.hits.length
  const c: HitColumns = {
    lines: p.lines, errors: p.errors, kind: new Uint8Array(n), ts: new Float64Array(n), campaign: new Uint32Array(n), spot: new Uint32Array(n),
    keyword: new Uint32Array(n), region: new Uint16Array(n), platform: new Uint8Array(n), sdk: new Uint8Array(n), ivt: new Uint8Array(n),
    minisite: new Uint32Array(n), event: new Uint32Array(n), credit: new Uint8Array(n), identity: new Array<string>(n),
  }
  for (let i = 0; i < n; i++) {
    const hit = p.hits[i]!
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
    c.credit[i] = hit.credit ? 1 : 0
    c.identity[i] = hit.identity
  }
  return c
}

/** The typed arrays of columns (to transfer them to another thread). */
export const buffersOf = (c: HitColumns): ArrayBuffer[] =>
  [c.kind, c.ts, c.campaign, c.spot, c.keyword, c.region, c.platform, c.sdk, c.ivt, c.minisite, c.event, c.credit].map((a) => a.buffer as ArrayBuffer)

/** Columns back to parsed lines; a credited event's linked campaigns come from `lookup`. */
export function fromColumns(c: HitColumns, lookup: ImportLookup): ParsedLines {
  const hits = new Array<Hit>(c.identity.length)
  for (let i = 0; i < hits.length; i++) {
    const hit: Hit = {
      kind: c.kind[i] as Kind, ts: c.ts[i]!, campaign: c.campaign[i]!, spot: c.spot[i]!, keyword: c.keyword[i]!, identity: c.identity[i]!,
      platform: c.platform[i] as PlatformCode, sdk: c.sdk[i] as SdkCode, region: c.region[i]!, ivt: c.ivt[i] as IvtClass,
    }
    if (hit.kind === KIND.minisite) {
      hit.minisite = c.minisite[i]!
      hit.event = c.event[i]!
      if (c.credit[i]) hit.credit = { linked: lookup.minisite(hit.minisite)?.campaigns ?? new Set(), k: 0 }
    }
    hits[i] = hit
  }
  return { lines: c.lines, hits, errors: c.errors }
}
