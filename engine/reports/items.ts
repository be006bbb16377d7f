/** Report rows to items: the with_null rule, order_asc / order_desc, and paging of rows. */
import { badRequest } from '../contract/errors'
import type { ReportAttributes, ReportBase, ReportItem } from '../contract/models-reports'
import { JsonBytes } from '../json-bytes'
import { JsonParts } from '../answers'
import type { CellBytes } from './kept-bytes'

/**
 * A row's metrics computed when the answer is serialized (toJSON) or its rows are ordered (get),
 * not held: each of the 64,395 rows of a spot x level2 answer would otherwise hold an object of
 * 60 keys (about 3 KiB a row, 200 MiB before the answer's text exists). Serialized, it is the
 * record of `names` in order, as a built one would be.
 */
export class LazyMetrics {
  constructor(
    private readonly names: readonly string[],
    private readonly at: (k: number) => number | null,
  ) {}

  get(name: string): number | null {
    const k = this.names.indexOf(name)
    return k < 0 ? null : this.at(k)
  }

  toJSON(): Record<string, number | null> {
    return recordOf(this.names, this.at)
  }

  /** Writes the JSON text toJSON's record serializes to. */
  write(w: JsonBytes): void {
    const keys = keyBytes(this.names)
    if (keys.length === 0) w.char(OPEN_BRACE)
    for (let k = 0; k < keys.length; k++) {
      w.bytes(keys[k]!)
      w.number(this.at(k))
    }
    w.char(CLOSE_BRACE)
  }
}

/**
 * What the rows of census cells are made from (basic/show): their attributes and metrics, built
 * only when read, and the store of their items' text (kept-bytes.ts), whose key covers everything
 * the text depends on but the cell's counts.
 */
export interface CellRows {
  attributes(i: number, c: number): ReportAttributes
  metrics(cell: number): LazyMetrics
  kept: CellBytes
  /** The most bytes an item's text may take to be kept (itemRoom). */
  room: number
}

/**
 * The row of census cell `cell` (position i, region cell c) with counted data: one small object
 * whose attributes and metrics are made only when read (to order the rows, or to write the item
 * of a cell that changed); otherwise its item is the kept text. A 64,395-row answer made five
 * objects a row, and collecting them took a good part of an answer whose text was kept.
 */
export class CellRow implements Row {
  readonly hasData = true

  constructor(
    private readonly rows: CellRows,
    private readonly i: number,
    private readonly c: number,
    readonly cell: number,
  ) {}

  get attributes(): ReportAttributes {
    return this.rows.attributes(this.i, this.c)
  }

  get metrics(): LazyMetrics {
    return this.rows.metrics(this.cell)
  }

  toJSON(): { attributes: ReportAttributes; metrics: LazyMetrics } {
    return { attributes: this.attributes, metrics: this.metrics }
  }

  /**
   * Puts its item in `w` (after a comma when `comma`) from the kept text, written and kept first
   * when the cell changed since; false when the text is not kept (the caller writes the item).
   */
  share(w: JsonBytes, comma: boolean): boolean {
    const kept = this.rows.kept
    if (kept.has(this.cell)) {
      kept.put(w, this.cell, comma)
      return true
    }
    return kept.write(w, this.cell, comma, this.rows.room, (to) => writeItem(to, this))
  }
}

/** An item's attributes take a few hundred bytes: with longer ones its text is not kept. */
const ATTRIBUTES_ROOM = 2048
const ROOM = new WeakMap<readonly string[], number>()
/** The most bytes an item of metrics `names` (integers) takes: the names, 17 digits each, attributes. */
export function itemRoom(names: readonly string[]): number {
  let n = ROOM.get(names)
  if (n === undefined) ROOM.set(names, (n = keyBytes(names).reduce((s, k) => s + k.length + 17, ITEM_START.length + ITEM_METRICS.length + 2 + ATTRIBUTES_ROOM)))
  return n
}

const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const COMMA = 44
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93
const ITEM_START = Buffer.from('{"attributes":')
const ITEM_METRICS = Buffer.from(',"metrics":')
const ITEM_BASE = Buffer.from(',"base":')
/** `{"name":` then `,"name":` ... of a list of metric names, as UTF-8 (reports share their lists). */
const KEYS = new WeakMap<readonly string[], Uint8Array[]>()
function keyBytes(names: readonly string[]): Uint8Array[] {
  let keys = KEYS.get(names)
  if (!keys) KEYS.set(names, (keys = names.map((n, i) => Buffer.from(`${i === 0 ? '{' : ','}${JSON.stringify(n)}:`))))
  return keys
}


/** `{"attributes":...,"metrics":...}` of an item. */
function writeItem(to: JsonBytes, it: ReportItem | CellRow): void {
  to.bytes(ITEM_START)
  to.text(JSON.stringify(it.attributes))
  to.bytes(ITEM_METRICS)
  const m = it.metrics as unknown
  if (m instanceof LazyMetrics) m.write(to)
  else to.text(JSON.stringify(m))
  if ('base' in it && it.base) (to.bytes(ITEM_BASE), to.text(JSON.stringify(it.base)))
  to.char(CLOSE_BRACE)
}

/** Puts an item in `w`, after a comma when `comma`: a counted cell's from its kept text where it can. */
function writeRow(w: JsonBytes, it: ReportItem | CellRow, comma: boolean): void {
  if (it instanceof CellRow && it.share(w, comma)) return
  if (comma) w.char(COMMA)
  writeItem(w, it)
}

/** The JSON text of an items array, `[...]`, in UTF-8 pieces (views on kept text where items share it). */
export function itemsText(items: readonly ReportItem[]): Uint8Array[] {
  const w = new JsonBytes()
  writeItems(w, items)
  return w.finish()
}

function writeItems(w: JsonBytes, items: readonly ReportItem[]): void {
  w.char(OPEN_BRACKET)
  items.forEach((it, i) => writeRow(w, it as ReportItem | CellRow, i > 0))
  w.char(CLOSE_BRACKET)
}

/**
 * itemsText of the rows of census cells `cells` (in this order) of region cell count `nR`, with
 * no row object made for a cell whose kept text is that of its counts.
 */
export function cellItemsText(rows: CellRows, cells: Int32Array, nR: number): Uint8Array[] {
  const w = new JsonBytes()
  w.char(OPEN_BRACKET)
  for (let k = 0; k < cells.length; k++) {
    const cell = cells[k]!
    if (rows.kept.has(cell)) rows.kept.put(w, cell, k > 0)
    else writeRow(w, new CellRow(rows, Math.floor(cell / nR), cell % nR, cell), k > 0)
  }
  w.char(CLOSE_BRACKET)
  return w.finish()
}

/**
 * A report written as JSON in UTF-8 pieces, byte for byte what JSON.stringify would give, with
 * each item's lazy metrics written straight into the bytes: a 64,395-row answer otherwise builds
 * an object of 60 keys per row, one 67 MiB string of them all, and its bytes again. `items`, when
 * given, is the text of the items array (itemsText), put in place of `report.items`.
 */
export function reportJson<R extends { items: ReportItem[] }>(report: R, items?: readonly Uint8Array[]): JsonParts<R> {
  const w = new JsonBytes()
  let first = true
  for (const [k, v] of Object.entries(report)) {
    if (v === undefined) continue
    w.text(`${first ? '{' : ','}${JSON.stringify(k)}:`)
    first = false
    if (k !== 'items') w.text(JSON.stringify(v))
    else if (!items) writeItems(w, report.items)
    else for (const piece of items) w.share(piece, 0, piece.length)
  }
  w.text(first ? '{}' : '}')
  return new JsonParts(w.finish())
}

/** A record of every name of a list, all null; copied for each row (see recordOf). */
const SHAPES = new WeakMap<readonly string[], Readonly<Record<string, null>>>()

/**
 * The record of `names` in order with `value(k)` for the k-th. Each is a copy of one record of
 * the list's names, so the rows of an answer share one object shape from the start: adding 60
 * keys one by one to an empty object cost about a sixth of a 64,395-row answer.
 */
function recordOf(names: readonly string[], value: (k: number) => number | null): Record<string, number | null> {
  let shape = SHAPES.get(names)
  if (!shape) SHAPES.set(names, (shape = Object.fromEntries(names.map((n) => [n, null]))))
  const m: Record<string, number | null> = { ...shape }
  for (let k = 0; k < names.length; k++) m[names[k]!] = value(k)
  return m
}

export interface Row {
  attributes: ReportAttributes
  metrics: Record<string, number | null> | LazyMetrics
  /** Whether the cell has any counted data; rows without are kept only with with_null=1. */
  hasData: boolean
  /** The panel persons the row's figures rest on (audience and target rows). */
  base?: ReportBase
}

export interface Finish {
  withNull?: boolean
  order_asc?: string | undefined
  order_desc?: string | undefined
  /** Metric names the request asks for (to check order fields even when there are no rows). */
  metricNames: readonly string[]
  attributeNames: readonly string[]
  /** Row paging (minisite and audience reports); report paging over spots is done before. */
  rows?: { offset: number; count: number } | undefined
}

/** A row's metrics in the order of `names` (a copy of the list's all-null record: see recordOf); absent ones null. */
export function metricsIn(names: readonly string[], values: Readonly<Record<string, number | null>>): Record<string, number | null> {
  return recordOf(names, (k) => values[names[k]!] ?? null)
}

/** Metrics of a row without data: null. */
export const nullMetrics = (names: readonly string[]): Record<string, number | null> => metricsIn(names, {})

export function finish(rows: Row[], f: Finish): ReportItem[] {
  const field = f.order_asc ?? f.order_desc
  if (field !== undefined && !f.metricNames.includes(field) && !f.attributeNames.includes(field)) {
    // (a metric of the report that this `metrics` does not ask for is named so, not only as "not a
    // metric of this report")
    const metricLike = /^(imp|clk|uim|ucl|evt|uev|rch|grp)_/.test(field)
    throw badRequest(metricLike ? 'report.orderMetric' : 'report.orderField', { param: f.order_asc !== undefined ? 'order_asc' : 'order_desc', value: field, list: [...f.attributeNames, ...f.metricNames].join(', ') })
  }
  let kept = rows.filter((r) => r.hasData || f.withNull)
  if (field !== undefined) {
    const sign = f.order_desc !== undefined ? -1 : 1
    const metric = f.metricNames.includes(field)
    const value = (r: Row): string | number | null =>
      metric ? (r.metrics instanceof LazyMetrics ? r.metrics.get(field) : r.metrics[field] ?? null) : (r.attributes as Record<string, string | number | null | undefined>)[field] ?? null
    // Stable sort; nulls last in both directions; numeric ids compare as numbers. Each key read once.
    kept = kept.map((r, i) => ({ r, i, v: value(r) })).sort((a, b) => {
      const x = a.v
      const y = b.v
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : compareText(String(x), String(y))
      return c !== 0 ? sign * c : a.i - b.i
    }).map((e) => e.r)
  }
  if (f.rows) kept = kept.slice(f.rows.offset, f.rows.offset + f.rows.count)
  // (a LazyMetrics serializes as the record ReportItem declares; a CellRow as the item)
  return kept.map((r) => (r instanceof CellRow ? (r as unknown as ReportItem) : { attributes: r.attributes, metrics: r.metrics as ReportItem['metrics'], ...(r.base ? { base: r.base } : {}) }))
}

function compareText(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length
  return a < b ? -1 : a > b ? 1 : 0
}
