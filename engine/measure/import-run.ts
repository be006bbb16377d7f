/**
 * Running an event import (docs/import.md): lines to hits, chunk by chunk through the ingest, bad
 * lines reported in the job. Shared by the HTTP endpoint and the command line.
 */
import { badRequest } from '../contract/errors'
import { describeProblem, problem } from '../contract/problems'
import { nextTurn } from '../clock'
import { zoneOffset } from '../time-zone'
import { IMPORT_COLUMNS, LineError, csvRows, lineError, type ImportContext, type ImportLine } from './import'
import { parseLines, type LineCursor, type ParsedLines } from './import-parse'
import { jsonBreak } from './json-break'
import type { ColumnsAdded } from './ingest'
import { recordInTurns, type Job } from './jobs'
import type { Measurement } from './service'

const CHUNK = 20_000
/**
 * How long the API's import parses before it lets other requests run (runImport): 20,000 lines
 * take 170-180 ms to parse on the main thread (two thirds of them identified by address and agent:
 * a keyed hash, a region lookup and the bot rules each), and a tracking hit that comes meanwhile
 * would wait for them and for their recording.
 */
const SLICE_MS = 10
const MAX_LINES = 20_000_000


/** What lineToHit needs, on the main thread. */
function importContext(m: Measurement, timeZone: string): ImportContext {
  return { lookup: m.lookup(), attributor: () => m.attributor(), zoneOffsetAt: (ms) => zoneOffset(timeZone, ms) }
}

/**
 * The lines of a body one at a time, with their line numbers: NDJSON records as parsed, CSV rows
 * as column -> text records, each bad line as a LineError.
 */
export function lines(text: string, format: 'ndjson' | 'csv'): LineCursor {
  return format === 'csv' ? new IteratorCursor(csvLines(text)) : new NdjsonCursor(text)
}

/** The column names of a CSV header row; an unknown one refuses the file (a typo would lose a column). */
function csvHeader(cells: readonly string[]): string[] {
  const names = cells.map((c) => c.trim())
  // (names in any case, as the panel import reads its header)
  const header = names.map((n) => n.toLowerCase())
  const unknown = names.filter((_, i) => !(IMPORT_COLUMNS as readonly string[]).includes(header[i]!))
  if (unknown.length > 0) throw badRequest('import.unknownColumns', { param: 'body', unknown: unknown.join(', '), columns: IMPORT_COLUMNS.join(', ') })
  return header
}

/** Refuses a CSV file whose header names an unknown column, before any line is read (a 400, not a failed job). */
export function checkCsvHeader(text: string): void {
  const head = csvRows(text).next()
  if (!head.done) csvHeader(head.value.cells)
}

function* csvLines(text: string): Generator<{ line: number; value: ImportLine | LineError }> {
  const rows = csvRows(text)
  const head = rows.next()
  if (head.done) return
  const header = csvHeader(head.value.cells)
  for (const r of rows) {
    yield { line: r.line, value: r.cells.length !== header.length ? lineError('line.fieldCount', { n: r.cells.length, header: header.length }) : Object.fromEntries(header.map((h, i) => [h, r.cells[i]!])) }
  }
}

class IteratorCursor implements LineCursor {
  line = 0
  value: ImportLine | LineError = {}

  constructor(private readonly rows: Iterator<{ line: number; value: ImportLine | LineError }>) {}

  next(): boolean {
    const r = this.rows.next()
    if (r.done) return false
    ;({ line: this.line, value: this.value } = r.value)
    return true
  }
}

/**
 * NDJSON lines without a generator and without an object a line besides the record (those cost
 * 3-4% of a worker's parsing, in-process): blank lines are skipped but counted, a leading byte
 * order mark is dropped.
 */
class NdjsonCursor implements LineCursor {
  line = 0
  value: ImportLine | LineError = {}
  private at = 0

  constructor(private readonly text: string) {}

  next(): boolean {
    const t = this.text
    while (this.at <= t.length) {
      const cut = t.indexOf('\n', this.at)
      const end = cut < 0 ? t.length : cut
      // a byte order mark is no part of a record: at the file's start, or a line's (files joined)
      const raw = t.slice(t.charCodeAt(this.at) === 0xfeff ? this.at + 1 : this.at, end)
      this.at = end + 1
      this.line++
      if (raw.trim() === '') continue
      let obj: unknown
      try {
        obj = JSON.parse(raw)
      } catch {
        this.value = notJson(raw)
        return true
      }
      // the values as parsed: lineToHit reads numbers as numbers, null as absent
      this.value = typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? (obj as ImportLine) : lineError('line.notObject', {})
      return true
    }
    return false
  }
}

/** A line JSON.parse refused, said by where its JSON breaks (never by the parser's English message). */
function notJson(raw: string): LineError {
  const at = jsonBreak(raw)
  return at === 'end' || at === null ? lineError('line.jsonEnd', {}) : lineError('line.json', at)
}

/**
 * Imports slice by slice, each parsed for at most SLICE_MS (and CHUNK lines): every good line of a
 * slice is durable before the next slice is recorded, and each slice is parsed while the one
 * before is being written. Between slices the event loop turns, so a tracking hit that comes
 * during an import waits for at most a slice, never for the import (docs/import.md).
 */
export async function runImport(measure: Measurement, timeZone: string, job: Job, text: string, format: 'ndjson' | 'csv'): Promise<void> {
  const c = importContext(measure, timeZone)
  const source = lines(text, format)
  // a CSV header is a line of the file (in `total`) and read first: done ends at processed = total
  if (format === 'csv' && text.length > 0) job.processed = 1
  await recordInTurns(slices(source, c), (p) => ingestParsed(measure, job, p))
}

/** The lines of `source` parsed slice by slice, each for at most SLICE_MS and CHUNK lines. */
function* slices(source: LineCursor, c: ImportContext): Generator<ParsedLines> {
  for (let p = parseLines(source, c, CHUNK, performance.now() + SLICE_MS); p; p = parseLines(source, c, CHUNK, performance.now() + SLICE_MS)) yield p
}

/**
 * Counts parsed lines into the job (bad ones rejected by line number) and ingests their hits,
 * CHUNK at a time, each chunk durable before the next; other requests run in between.
 */
export async function ingestParsed(measure: Measurement, job: Job, p: ParsedLines): Promise<void> {
  if (job.processed + p.lines > MAX_LINES) throw badRequest('import.tooManyLines', { param: 'body', max: MAX_LINES })
  job.processed += p.lines
  for (const e of p.errors) measure.jobs.reject(job, e.line, e.error, e.error_problem)
  const linked = (minisite: number) => measure.lookup().minisite(minisite)?.campaigns ?? NONE
  for (let at = 0; at < p.hits.n; at += CHUNK) {
    const to = Math.min(p.hits.n, at + CHUNK)
    const added = await measure.ingest.addColumns(p.hits, at, to, linked)
    job.imported += to - at - added.repeats - added.full
    job.repeated += added.repeats
    if (added.full > 0) refuseFull(job, added)
    // (other requests run between chunks)
    await nextTurn()
  }
}

const NONE: ReadonlySet<number> = new Set()

/** Rows refused because their campaign or minisite is full: rejected, and said once each in the job's message (they have no line number). */
function refuseFull(job: Job, added: ColumnsAdded): void {
  job.rejected += added.full
  for (const why of added.why) {
    if (job.message.includes(describeProblem(why))) continue
    const before = job.message_problem ?? job.message
    job.message_problem = before === '' ? why : problem('measure.fullAnd', { first: before, next: why })
    job.message = describeProblem(job.message_problem)
  }
}
