/**
 * Running an event import (docs/import.md): lines to hits, chunk by chunk through the ingest, bad
 * lines reported in the job. Shared by the HTTP endpoint and the command line.
 */
import { badParam } from '../contract/errors'
import { zoneOffset } from '../runtime'
import { IMPORT_COLUMNS, LineError, csvRows, lineToHit, type ImportContext, type ImportLine } from './import'
import type { Job } from './jobs'
import type { Measurement } from './service'
import type { Hit } from './types'

const CHUNK = 20_000
const MAX_LINES = 20_000_000

/** Lets other requests run between chunks. */
export const pause = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve))

function importContext(m: Measurement, timeZone: string): ImportContext {
  return { lookup: m.lookup(), attributor: () => m.attributor(), identities: m.identities, zoneOffsetAt: (ms) => zoneOffset(timeZone, ms) }
}

/** Lines of the body as column -> text records, with their line numbers. */
export function* lines(text: string, format: 'ndjson' | 'csv'): Generator<{ line: number; value: ImportLine | LineError }> {
  if (format === 'csv') {
    const rows = csvRows(text)
    const head = rows.next()
    if (head.done) return
    const header = head.value.cells.map((c) => c.trim())
    const unknown = header.filter((h) => !(IMPORT_COLUMNS as readonly string[]).includes(h))
    if (unknown.length > 0) throw badParam('body', `has unknown CSV columns ${unknown.join(', ')}; columns: ${IMPORT_COLUMNS.join(', ')}`)
    for (const r of rows) {
      yield { line: r.line, value: r.cells.length !== header.length ? new LineError(`has ${r.cells.length} fields, the header ${header.length}`) : Object.fromEntries(header.map((h, i) => [h, r.cells[i]!])) }
    }
    return
  }
  let line = 0
  for (const raw of text.split('\n')) {
    line++
    if (raw.trim() === '') continue
    try {
      const obj: unknown = JSON.parse(raw)
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error('not an object')
      // the values as parsed: lineToHit reads numbers as numbers, null as absent
      yield { line, value: obj as ImportLine }
    } catch (err) {
      yield { line, value: new LineError(`is not a JSON object (${(err as Error).message})`) }
    }
  }
}

/** Imports chunk by chunk: every good line of a chunk is durable before the next one starts. */
export async function runImport(measure: Measurement, timeZone: string, job: Job, text: string, format: 'ndjson' | 'csv'): Promise<void> {
  const c = importContext(measure, timeZone)
  let hits: Hit[] = []
  const flush = async () => {
    await measure.ingest.add(hits)
    job.imported += hits.length
    hits = []
    await pause()
  }
  for (const { line, value } of lines(text, format)) {
    if (job.processed >= MAX_LINES) throw badParam('body', `has more than ${MAX_LINES} lines; split the file`)
    job.processed++
    try {
      if (value instanceof LineError) throw value
      hits.push(lineToHit(value, c))
    } catch (err) {
      if (!(err instanceof LineError)) throw err
      measure.jobs.reject(job, line, err.message)
    }
    if (hits.length >= CHUNK) await flush()
  }
  await flush()
}

