/**
 * Import lines parsed into hits held as columns (docs/import.md): what one step of an import hands
 * to the ingest, and what an import worker sends back to the main thread (typed arrays move
 * without a copy; a few hundred thousand Hit objects would be cloned one by one).
 */
import { LineError, lineToHit, type ImportContext, type ImportLine } from './import'
import type { ImportLookup } from './lookup'
import { KIND, type Hit, type IvtClass, type Kind, type PlatformCode, type SdkCode } from './types'

export interface ParsedLines {
  /** Lines read, good and bad. */
  lines: number
  /** Hits (good lines), in line order. */
  n: number
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
  /** The bad lines, by their line numbers in the text parsed. */
  errors: { line: number; error: string }[]
}

/** The numbered lines of a text, as `lines()` of import-run.ts yields them. */
export type LineSource = Iterator<{ line: number; value: ImportLine | LineError }>

/**
 * Parses up to `max` lines of `source` (all when `max` is Infinity); null when it has none left.
 * A LineError rejects its line; any other error ends the import.
 */
export function parseLines(source: LineSource, c: ImportContext, max: number): ParsedLines | null {
  let size = Number.isFinite(max) ? max : 4096
  let p = empty(size)
  for (let r = source.next(); !r.done; r = p.lines < max ? source.next() : { done: true, value: undefined }) {
    const { line, value } = r.value
    p.lines++
    let hit: Hit
    try {
      if (value instanceof LineError) throw value
      hit = lineToHit(value, c)
    } catch (err) {
      if (!(err instanceof LineError)) throw err
      p.errors.push({ line, error: err.message })
      continue
    }
    if (p.n === size) p = grown(p, (size *= 2))
    const i = p.n++
    p.kind[i] = hit.kind
    p.ts[i] = hit.ts
    p.campaign[i] = hit.campaign
    p.spot[i] = hit.spot
    p.keyword[i] = hit.keyword
    p.region[i] = hit.region
    p.platform[i] = hit.platform
    p.sdk[i] = hit.sdk
    p.ivt[i] = hit.ivt
    p.minisite[i] = hit.minisite ?? 0
    p.event[i] = hit.event ?? 0
    p.credit[i] = hit.credit ? 1 : 0
    p.identity.push(hit.identity)
  }
  return p.lines === 0 ? null : p
}

/** Hit `i` of parsed lines, for the ingest; a credited event's linked campaigns come from `lookup`. */
export function hitAt(p: ParsedLines, i: number, lookup: ImportLookup): Hit {
  const hit: Hit = {
    kind: p.kind[i] as Kind, ts: p.ts[i]!, campaign: p.campaign[i]!, spot: p.spot[i]!, keyword: p.keyword[i]!, identity: p.identity[i]!,
    platform: p.platform[i] as PlatformCode, sdk: p.sdk[i] as SdkCode, region: p.region[i]!, ivt: p.ivt[i] as IvtClass,
  }
  if (hit.kind === KIND.minisite) {
    hit.minisite = p.minisite[i]!
    hit.event = p.event[i]!
    if (p.credit[i]) hit.credit = { linked: lookup.minisite(hit.minisite)?.campaigns ?? new Set(), k: 0 }
  }
  return hit
}

/** The typed arrays of parsed lines (to transfer them to another thread). */
export const columnsOf = (p: ParsedLines): ArrayBuffer[] =>
  [p.kind, p.ts, p.campaign, p.spot, p.keyword, p.region, p.platform, p.sdk, p.ivt, p.minisite, p.event, p.credit].map((a) => a.buffer as ArrayBuffer)

function empty(size: number): ParsedLines {
  return {
    lines: 0, n: 0, kind: new Uint8Array(size), ts: new Float64Array(size), campaign: new Uint32Array(size), spot: new Uint32Array(size),
    keyword: new Uint32Array(size), region: new Uint16Array(size), platform: new Uint8Array(size), sdk: new Uint8Array(size),
    ivt: new Uint8Array(size), minisite: new Uint32Array(size), event: new Uint32Array(size), credit: new Uint8Array(size), identity: [], errors: [],
  }
}

function grown(p: ParsedLines, size: number): ParsedLines {
  const q = empty(size)
  for (const k of ['kind', 'ts', 'campaign', 'spot', 'keyword', 'region', 'platform', 'sdk', 'ivt', 'minisite', 'event', 'credit'] as const) (q[k] as Uint8Array).set(p[k] as Uint8Array)
  return { ...q, lines: p.lines, n: p.n, identity: p.identity, errors: p.errors }
}
