/**
 * Parameter codecs: pure functions from the raw wire text to a typed value, which throw
 * `invalid_request` naming the parameter when the text is wrong (spec §1, §4).
 * Each codec also carries the JSON Schema the OpenAPI document shows for it.
 */
import { fromBase62 } from './base62'
import { E, badRequest, refuse, type ErrorDef } from './errors'
import type { JsonSchema } from './schema'
import { CODE_TYPE_NAMES, VENDING_MODEL_LEVEL1, type CodeType } from './vocabulary'

export interface Codec<T> {
  readonly decode: (raw: string | undefined, name: string) => T
  readonly schema: JsonSchema
  readonly required: boolean
  readonly description: string
}

type Parse<T> = (raw: string, name: string) => T

/** A parser plus its schema; `.required()`, `.optional()` or `.default()` turn it into a codec. */
export class Field<T> {
  constructor(
    readonly parse: Parse<T>,
    readonly schema: JsonSchema,
    /** Whether an empty value (`name=`) counts as absent. False for free text. */
    readonly emptyIsAbsent = true,
    readonly missingError: ErrorDef = E.invalidRequest,
  ) {}

  private present(raw: string | undefined): raw is string {
    return raw !== undefined && !(this.emptyIsAbsent && raw.trim() === '')
  }

  required(description = ''): Codec<T> {
    return {
      decode: (raw, name) => {
        if (!this.present(raw)) throw refuse(this.missingError, 'param.required', { param: name })
        return this.parse(raw, name)
      },
      schema: this.schema,
      required: true,
      description,
    }
  }

  optional(description = ''): Codec<T | undefined> {
    return { decode: (raw, name) => (this.present(raw) ? this.parse(raw, name) : undefined), schema: this.schema, required: false, description }
  }

  default(value: T, description = ''): Codec<T> {
    return {
      decode: (raw, name) => (this.present(raw) ? this.parse(raw, name) : value),
      schema: { ...this.schema, default: value },
      required: false,
      description,
    }
  }

  /** The same field, but a missing value answers with another catalogue error (spec §7.2). */
  missingAs(error: ErrorDef): Field<T> {
    return new Field(this.parse, this.schema, this.emptyIsAbsent, error)
  }
}

const MAX_LIST = 1000
const ID_RE = /^[0-9]{1,18}$/
/** Ids written as parseId writes them (no space, no leading zero, at most 15 digits), joined by commas. */
const PLAIN_IDS = /^[1-9][0-9]{0,14}(?:,[1-9][0-9]{0,14})*$/
const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$/
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

function splitList(raw: string, name: string, sep = ','): string[] {
  const items = raw.split(sep).map((s) => s.trim())
  if (items.some((s) => s === '')) throw badRequest('param.emptyEntry', { param: name, sep })
  if (items.length > MAX_LIST) throw badRequest('param.tooManyEntries', { param: name, max: MAX_LIST })
  return [...new Set(items)]
}

/**
 * Ids written as parseId writes them (PLAIN_IDS), each once, in the order given: the list split
 * with no other copy, its numbers read from the text in one pass and sorted (plainSorted), which
 * sortedIds hands on to the list's reader; a Set only for a list with duplicates.
 */
function plainIds(raw: string, name: string): string[] {
  const items = raw.split(',')
  if (items.length > MAX_LIST) throw badRequest('param.tooManyEntries', { param: name, max: MAX_LIST })
  const sorted = plainSorted(raw, items.length)
  if (!sorted) return [...new Set(items)]
  sortedOf.set(items, sorted)
  return items
}

/**
 * The numbers of PLAIN_IDS text (`count` of them) ascending, or null when one is there twice:
 * marked in a bit set when they lie close together (under 256 bits per id, a scan of a few
 * thousand words), else sorted as a typed array (no comparator); 32-bit integers when they all
 * are.
 */
function plainSorted(raw: string, count: number): Int32Array | Float64Array | null {
  const values = new Float64Array(count)
  let k = 0
  let value = 0
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c !== 44) value = value * 10 + (c - 48)
    else {
      values[k++] = value
      value = 0
    }
  }
  values[k] = value
  let min = values[0]!
  let max = min
  for (const v of values) (min = Math.min(min, v)), (max = Math.max(max, v))
  const out = max <= 0x7fffffff ? new Int32Array(count) : new Float64Array(count)
  if (max - min >= count * 256) {
    out.set(values)
    out.sort()
    for (let j = 1; j < count; j++) if (out[j] === out[j - 1]) return null
    return out
  }
  const bits = new Int32Array(((max - min) >> 5) + 1)
  for (const v of values) {
    const d = v - min
    const bit = 1 << (d & 31)
    if ((bits[d >> 5]! & bit) !== 0) return null
    bits[d >> 5]! |= bit
  }
  k = 0
  for (let w = 0; w < bits.length; w++) {
    for (let x = bits[w]!; x !== 0; ) {
      const low = x & -x
      out[k++] = min + w * 32 + 31 - Math.clz32(low)
      x ^= low
    }
  }
  return out
}

/** The ids of a list made by plainIds, ascending: made there, read by sortedIds. */
const sortedOf = new WeakMap<readonly string[], Int32Array | Float64Array>()

/**
 * The numbers of a list of ids (as idList gives them: plain decimal, up to 15 digits), ascending
 * (duplicates kept): as 32-bit integers when they all are (a sort a third as long).
 */
export function sortedIds(ids: readonly string[]): Int32Array | Float64Array {
  return sortedOf.get(ids) ?? numbersSorted(ids)
}

function numbersSorted(ids: readonly string[]): Int32Array | Float64Array {
  const small = new Int32Array(ids.length)
  for (let k = 0; k < ids.length; k++) {
    const value = Number(ids[k])
    if (value > 0x7fffffff) return Float64Array.from(ids, Number).sort()
    small[k] = value
  }
  return small.sort()
}

function parseId(raw: string, name: string): string {
  const s = raw.trim()
  // (up to 15 digits a double holds exactly: a list of 1,000 ids is read without 2,000 BigInts)
  const value = ID_RE.test(s) ? (s.length <= 15 ? Number(s) : BigInt(s)) : 0
  if (value === 0 || value === 0n) throw badRequest('param.id', { param: name, got: raw })
  return value.toString()
}

function parseKey(raw: string, name: string): string {
  const s = raw.trim()
  if (!KEY_RE.test(s)) throw badRequest('param.key', { param: name, got: raw })
  return s
}

/** True when `text` is a real calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const m = DATE_RE.exec(text)
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = new Date(Date.UTC(y, mo - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && y >= 1970
}

function parseDate(raw: string, name: string): string {
  const s = raw.trim()
  if (!isDate(s)) throw badRequest('param.date', { param: name, got: raw })
  return s
}

function parseInt10(raw: string, name: string, min: number, max: number): number {
  const s = raw.trim()
  // (a whole number too long to read exactly is out of range, not "not an integer":
  // 99999999999999999 is never told it must be an integer)
  if (/^-?[0-9]{16,}$/.test(s)) throw badRequest('param.between', { param: name, min, max, got: s })
  if (!/^-?[0-9]{1,15}$/.test(s)) throw badRequest('param.integer', { param: name, got: raw })
  const n = Number(s)
  if (n < min || n > max) throw badRequest('param.between', { param: name, min, max, got: n })
  return n
}

function checkText(raw: string, name: string, max: number): string {
  if ([...raw].length > max) throw badRequest('param.tooLong', { param: name, max })
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(raw)) throw badRequest('param.control', { param: name })
  return raw
}

/** A landing page or tracking URL: absolute, http or https. */
export function parseUrl(raw: string, name: string): string {
  const s = raw.trim()
  if (s.length > 2048) throw badRequest('param.tooLong', { param: name, max: 2048 })
  // (a URL parser drops tabs and line breaks and escapes the rest, so the page stored and shown
  // would not be the one a click goes to)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001F\u007F]/.test(s)) throw badRequest('param.urlControl', { param: name })
  let u: URL
  try {
    u = new URL(s)
  } catch {
    throw badRequest('param.url', { param: name, got: raw })
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badRequest('param.urlScheme', { param: name, got: raw })
  return s
}

/** Paging M,N (spec §1.3). In 'offset' lists M is a start row; in 'page' lists M is a page number. */
export interface Limit {
  m: number
  n: number
  /** Rows to skip. */
  offset: number
  /** Rows to return at most. */
  count: number
}

export const MAX_LIMIT_N = 100_000

function parseLimit(kind: 'offset' | 'page'): Parse<Limit> {
  return (raw, name) => {
    const m = /^\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*$/.exec(raw)
    if (!m) throw badRequest('param.limitForm', { param: name, got: raw })
    const [a, b] = [Number(m[1]), Number(m[2])]
    if (b < 1 || b > MAX_LIMIT_N) throw badRequest('param.limitN', { param: name, max: MAX_LIMIT_N, got: b })
    // Page lists: the vendor's default 0,500 and its example 2,100 ("the second page of 100") only
    // agree if pages count from 1 and page 0 means the first page (docs/decisions.md).
    const offset = kind === 'offset' ? a : (Math.max(a, 1) - 1) * b
    return { m: a, n: b, offset, count: b }
  }
}

export interface KeywordInput {
  keyword_name: string
  landing_page: string
}
export interface KeywordUpdate extends KeywordInput {
  keyword_id: string
}

/** The keyword name of a `keyword_name^landing_page` entry, trimmed. */
export function keywordNameOf(entry: string): string {
  const cut = entry.indexOf('^')
  return (cut < 0 ? entry : entry.slice(0, cut)).trim()
}

function parseKeywordEntry(entry: string, name: string): KeywordInput {
  const cut = entry.indexOf('^')
  const kw = keywordNameOf(entry)
  const lp = cut < 0 ? '' : entry.slice(cut + 1).trim()
  if (kw === '') throw badRequest('param.keywordEmpty', { param: name, entry })
  checkText(kw, name, 100)
  return { keyword_name: kw, landing_page: lp === '' ? '' : parseUrl(lp, name) }
}

function noDuplicates<T>(items: T[], key: (x: T) => string, name: string, what: string): T[] {
  const seen = new Set<string>()
  for (const x of items) {
    const k = key(x)
    if (seen.has(k)) throw badRequest('param.twice', { param: name, what, value: k })
    seen.add(k)
  }
  return items
}

const keywordsSchema = { type: 'string', description: 'keyword_name^landing_page entries joined by >' }

/** Every codec the endpoint table uses. */
/**
 * A spot's freq_capping: scope S (each spot) or M (a publisher's spots), the limit, `+` or `-`,
 * and the period D/W/M or none (the codec below; the simulator reads its groups).
 */
export const SPOT_CAP = /^([SM])([0-9]{1,3})([+-])([DWM]?)$/

export const p = {
  /** A positive integer id (campaign, spot, advertiser, ...), sent back as a decimal string. */
  id: () => new Field(parseId, { type: 'string', pattern: '^[0-9]+$' }),
  /** ID1,ID2,... of positive integer ids. */
  idList: () => new Field((raw, name) => (PLAIN_IDS.test(raw) ? plainIds(raw, name) : splitList(raw, name).map((s) => parseId(s, name))), { type: 'string', pattern: '^[0-9]+(,[0-9]+)*$' }),
  /** ID1,ID2,... on an update, where an empty value is a value: the empty list (it unlinks all). */
  idListOrNone: () =>
    new Field((raw, name) => (raw.trim() === '' ? [] : splitList(raw, name).map((s) => parseId(s, name))), { type: 'string', pattern: '^([0-9]+(,[0-9]+)*)?$' }, false),
  /** A non-numeric identifier (panel, region, tag, tag type). */
  key: () => new Field(parseKey, { type: 'string' }),
  /** ID1,ID2,... of non-numeric identifiers. */
  keyList: () => new Field((raw, name) => splitList(raw, name).map((s) => parseKey(s, name)), { type: 'string' }),
  /** Free text; empty is a value (it clears a field on update). */
  text: (max = 1000) => new Field((raw, name) => checkText(raw, name, max), { type: 'string', maxLength: max }, false),
  /** A name: trimmed, non-empty; `error` is the catalogue entry for an empty or overlong one. */
  name: (max = 255, error: ErrorDef = E.invalidRequest) =>
    new Field(
      (raw, name) => {
        const s = raw.trim()
        if (s === '') throw refuse(error, 'param.empty', { param: name })
        if ([...s].length > max) throw refuse(error, 'param.tooLong', { param: name, max })
        return checkText(s, name, max)
      },
      { type: 'string', minLength: 1, maxLength: max },
      false,
      error,
    ),
  /** PATTERN search text (case-insensitive substring, Unicode aware). */
  pattern: () => new Field((raw, name) => checkText(raw, name, 200).trim(), { type: 'string', maxLength: 200 }),
  /** 0 or 1. */
  flag01: () =>
    new Field(
      (raw, name) => {
        const s = raw.trim()
        if (s !== '0' && s !== '1') throw badRequest('param.flag01', { param: name, got: raw })
        return s === '1'
      },
      { type: 'integer', enum: [0, 1] },
    ),
  /** on / off (also 1 / 0), as for show_spot's keyword. */
  onOff: () =>
    new Field(
      (raw, name) => {
        const s = raw.trim().toLowerCase()
        if (s === 'on' || s === '1') return true
        if (s === 'off' || s === '0') return false
        throw badRequest('param.onOff', { param: name, got: raw })
      },
      { type: 'string', enum: ['on', 'off'] },
    ),
  int: (min: number, max: number) => new Field((raw, name) => parseInt10(raw, name, min, max), { type: 'integer', minimum: min, maximum: max }),
  intIn: <const V extends number>(values: readonly V[]) =>
    new Field(
      (raw, name) => {
        const n = parseInt10(raw, name, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
        if (!(values as readonly number[]).includes(n)) throw badRequest('param.oneOf', { param: name, list: values.join(', '), got: raw })
        return n as V
      },
      { type: 'integer', enum: values },
    ),
  /** One of the listed values, matched exactly (the vendor's enumerations are case-exact). */
  oneOf: <const V extends string>(values: readonly V[]) =>
    new Field(
      (raw, name) => {
        const s = raw.trim()
        if (!(values as readonly string[]).includes(s)) throw badRequest('param.oneOf', { param: name, list: values.join(', '), got: raw })
        return s as V
      },
      { type: 'string', enum: values },
    ),
  /**
   * One of the listed values, where a space stands for '+': an unencoded '+' in a query string
   * arrives as a space (impression+click), and we take what the caller meant.
   */
  plusEnum: <const V extends string>(values: readonly V[]) =>
    new Field(
      (raw, name) => {
        const s = raw.trim().replace(/ +/g, '+')
        if (!(values as readonly string[]).includes(s)) throw badRequest('param.oneOf', { param: name, list: values.join(', '), got: raw })
        return s as V
      },
      { type: 'string', enum: values },
    ),
  /** One of the listed values, case-insensitively (the vendor writes `metrics=All`); answered lower-case. */
  oneOfCi: <const V extends string>(values: readonly V[]) =>
    new Field(
      (raw, name) => {
        const s = raw.trim().toLowerCase()
        if (!(values as readonly string[]).includes(s)) throw badRequest('param.oneOf', { param: name, list: values.join(', '), got: raw })
        return s as V
      },
      { type: 'string', enum: values },
    ),
  /** One of the keys of `aliases`, returned as its canonical value (vendor values plus English aliases). */
  mapped: <const C extends string>(aliases: Readonly<Record<string, C>>) =>
    new Field(
      (raw, name) => {
        const v = aliases[raw.trim()]
        if (v === undefined) throw badRequest('param.oneOf', { param: name, list: Object.keys(aliases).join(', '), got: raw })
        return v
      },
      { type: 'string', enum: Object.keys(aliases) },
    ),
  /** A non-negative amount with at most two decimals (budgetInput). */
  amount: () =>
    new Field(
      (raw, name) => {
        const s = raw.trim()
        if (!/^[0-9]{1,13}(\.[0-9]{1,2})?$/.test(s)) throw badRequest('param.amount', { param: name, got: raw })
        return s
      },
      { type: 'string', pattern: '^[0-9]+(\\.[0-9]{1,2})?$' },
    ),
  /** A decimal number in a range (the simulator's scale). */
  decimal: (min: number, max: number) =>
    new Field(
      (raw, name) => {
        const s = raw.trim()
        if (!/^[0-9]{1,9}(\.[0-9]{1,6})?$/.test(s)) throw badRequest('param.decimal', { param: name, got: raw })
        const n = Number(s)
        if (n < min || n > max) throw badRequest('param.between', { param: name, min, max, got: n })
        return n
      },
      { type: 'number', minimum: min, maximum: max },
    ),
  date: () => new Field(parseDate, { type: 'string', format: 'date' }),
  dateList: () =>
    new Field((raw, name) => {
      const parts = raw.split(',').map((s) => s.trim())
      if (parts.some((s) => s === '')) throw badRequest('param.emptyItem', { param: name })
      return noDuplicates(parts.map((s) => parseDate(s, name)), (d) => d, name, 'date')
    }, { type: 'string', description: 'dates YYYY-MM-DD separated by ,' }),
  /** Integers separated by , (estimates matching a date list). */
  intList: (min = 0, max = 2 ** 40) =>
    new Field((raw, name) => raw.split(',').map((s) => parseInt10(s, name, min, max)), { type: 'string', description: 'integers separated by ,' }),
  /** An array of integers, written as JSON `[1,2]` or as `1,2` (linked_tvcaids); empty (`[]`, ``) is the empty array, which clears it on update. */
  intArray: () =>
    new Field((raw, name) => {
      const s = raw.trim().replace(/^\[/, '').replace(/\]$/, '').trim()
      if (s === '') return []
      return noDuplicates(s.split(',').map((x) => parseInt10(x, name, 0, Number.MAX_SAFE_INTEGER)), String, name, 'id')
    }, { type: 'string', description: 'JSON array [123,456] or 123,456' }, false),
  limit: (kind: 'offset' | 'page') => new Field(parseLimit(kind), { type: 'string', pattern: '^[0-9]+,[0-9]+$' }),
  /** An attribute name to sort by; only the listed ones. */
  order: <const V extends string>(fields: readonly V[]) => p.oneOf(fields),
  url: () => new Field(parseUrl, { type: 'string', format: 'uri' }),
  /** A landing page: an absolute http(s) URL, or empty for none. */
  urlOrEmpty: () => new Field((raw, name) => (raw.trim() === '' ? '' : parseUrl(raw, name)), { type: 'string', format: 'uri' }, false),
  /** vending_model: two levels joined by a hyphen, level 1 from the vendor's list; empty clears. */
  vendingModel: () =>
    new Field(
      (raw, name) => {
        const s = checkText(raw, name, 100).trim()
        if (s === '') return ''
        const cut = s.indexOf('-')
        const [l1, l2] = cut < 0 ? [s, ''] : [s.slice(0, cut), s.slice(cut + 1)]
        if (!(VENDING_MODEL_LEVEL1 as readonly string[]).includes(l1) || l2.trim() === '')
          throw badRequest('param.vendingModel', { param: name, list: VENDING_MODEL_LEVEL1.join(', '), got: raw })
        return s
      },
      { type: 'string', description: `level1-level2; level 1: ${VENDING_MODEL_LEVEL1.join(', ')}` },
      false,
    ),
  /**
   * A target's tag expression: tag ids joined by , (any of, within one tag type) in groups
   * joined by & (all of, across types). Returns the groups; the panel check is the route's.
   */
  tagExpression: () =>
    new Field(
      (raw, name) => {
        const groups = raw.split('&').map((g) => g.trim())
        if (groups.some((g) => g === '')) throw badRequest('param.emptyGroup', { param: name, got: raw })
        return groups.map((g) => splitList(g, name).map((t) => parseKey(t, name)))
      },
      { type: 'string', description: 'tag ids joined by , (any of, one type) in groups joined by & (all of)' },
    ),
  /** A URL that must begin with http:// or https:// but may carry macros (other_impr_tracking_tag). */
  tag: () =>
    new Field(
      (raw, name) => {
        const s = checkText(raw, name, 4096).trim()
        if (s !== '' && !/^https?:\/\/\S+$/i.test(s)) throw badRequest('param.urlScheme', { param: name, got: raw })
        return s
      },
      { type: 'string' },
      false,
    ),
  /** spot_id_str: base 62, decoded to the spot id (vendor-notes §7.3). */
  spotIdStr: () =>
    new Field(
      (raw, name) => {
        const id = fromBase62(raw.trim())
        if (id === null || id === '0') throw badRequest('param.spotIdStr', { param: name, got: raw })
        return id
      },
      { type: 'string', pattern: '^[0-9A-Za-z]+$' },
    ),
  /** Spot frequency capping: type S or M, target n+ or n-, optional period D/W/M; S0+ means none. */
  spotFreqCapping: () =>
    new Field(
      (raw, name) => {
        // an unencoded '+' arrives as a space (S3+D as 'S3 D', S0+ as 'S0 '): read as the '+' meant
        const s = raw.replace(/^\s+/, '').replace(/ /g, '+').trim()
        if (!SPOT_CAP.test(s)) throw badRequest('param.spotCap', { param: name, got: raw })
        return s
      },
      { type: 'string', pattern: SPOT_CAP.source },
    ),
  /** code_type: monitoring-code options separated by , (case-insensitive; utm and utm_auto exclude each other). */
  codeTypes: () =>
    new Field(
      (raw, name) => {
        const items = splitList(raw, name).map((s) => s.toLowerCase())
        for (const s of items) {
          if (!(CODE_TYPE_NAMES as string[]).includes(s)) throw badRequest('param.codeOption', { param: name, option: s, list: CODE_TYPE_NAMES.join(', ') })
        }
        if (items.includes('utm') && items.includes('utm_auto')) throw badRequest('param.utmBoth', { param: name })
        return items as CodeType[]
      },
      { type: 'string', description: `options separated by ,: ${CODE_TYPE_NAMES.join(', ')}` },
    ),
  /** Keywords in the text form name^landing_page joined by > (spec §2.3). */
  keywords: () =>
    new Field(
      (raw, name) => {
        const entries = raw.split('>').filter((e) => e.trim() !== '')
        if (entries.length === 0) throw badRequest('param.noKeyword', { param: name })
        if (entries.length > MAX_LIST) throw badRequest('param.tooManyKeywords', { param: name, max: MAX_LIST })
        return noDuplicates(entries.map((e) => parseKeywordEntry(e, name)), (k) => k.keyword_name, name, 'keyword')
      },
      keywordsSchema,
    ),
  /** Keywords in the text form keyword_id^name^landing_page joined by > (update_keyword). */
  keywordUpdates: () =>
    new Field(
      (raw, name) => {
        const entries = raw.split('>').filter((e) => e.trim() !== '')
        if (entries.length === 0) throw badRequest('param.noKeyword', { param: name })
        if (entries.length > MAX_LIST) throw badRequest('param.tooManyKeywords', { param: name, max: MAX_LIST })
        const items = entries.map((e): KeywordUpdate => {
          const cut = e.indexOf('^')
          if (cut < 0) throw badRequest('param.keywordEntry', { param: name, entry: e })
          return { keyword_id: parseId(e.slice(0, cut), name), ...parseKeywordEntry(e.slice(cut + 1), name) }
        })
        return noDuplicates(items, (k) => k.keyword_id, name, 'keyword_id')
      },
      { type: 'string', description: 'keyword_id^keyword_name^landing_page entries joined by >' },
    ),
}

export type ParamsShape = { readonly [name: string]: Codec<unknown> }
/** The decoded parameter object of a parameter table. */
export type ParamsOf<P extends ParamsShape> = { -readonly [K in keyof P]: P[K] extends Codec<infer T> ? T : never }

/**
 * Parameters without those that say what their default says (`platform=pc` where pc is the
 * default, `metrics=ALL` where all is), judged by the codec: what recorded answers and snapshot
 * series are keyed by (engine/sync) and what the report screen matches snapshots by (renderer),
 * so that a request is found however it spells its defaults. A value the codec refuses is kept.
 */
export function withoutDefaults(shape: ParamsShape, params: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(params)) {
    const codec = shape[k]
    try {
      // (decoded values are plain data: strings, numbers, flags, lists, a limit)
      if (codec && JSON.stringify(codec.decode(v, k)) === JSON.stringify(codec.decode(undefined, k))) continue
    } catch {
      // refused, or a required parameter has no default: kept as it is
    }
    out[k] = v
  }
  return out
}
