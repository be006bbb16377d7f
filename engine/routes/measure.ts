// Local namespace: event import (docs/import.md), jobs, measurement status and rebuild
import { badParam } from '../contract/errors'
import { IMPORT_COLUMNS, LineError, csvRows, lineToHit, type ImportContext, type ImportLine } from '../measure/import'
import type { Job } from '../measure/jobs'
import type { Hit } from '../measure/types'
import { zoneOffset, type Ctx, type Handler } from '../runtime'

const CHUNK = 20_000
const MAX_LINES = 20_000_000

const pause = () => new Promise<void>((resolve) => setImmediate(resolve))

function importContext(ctx: Ctx): ImportContext {
  const m = ctx.measure
  return { lookup: m.lookup(), attributor: () => m.attributor(), identities: m.identities, zoneOffsetAt: (ms) => zoneOffset(ctx.settings.timeZone, ms) }
}

/** Lines of the body as column -> text records, with their line numbers. */
function* lines(text: string, format: 'ndjson' | 'csv'): Generator<{ line: number; value: ImportLine | LineError }> {
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
      const rec = obj as Record<string, unknown>
      // numbers (ids, epoch ms) are read as their text; null as absent
      for (const k in rec) if (typeof rec[k] !== 'string') rec[k] = rec[k] === null ? '' : String(rec[k])
      yield { line, value: rec as ImportLine }
    } catch (err) {
      yield { line, value: new LineError(`is not a JSON object (${(err as Error).message})`) }
    }
  }
}

/** Imports chunk by chunk: every good line of a chunk is durable before the next one starts. */
async function runImport(ctx: Ctx, job: Job, text: string, format: 'ndjson' | 'csv'): Promise<void> {
  const c = importContext(ctx)
  let hits: Hit[] = []
  const flush = async () => {
    await ctx.measure.ingest.add(hits)
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
      ctx.measure.jobs.reject(job, line, err.message)
    }
    if (hits.length >= CHUNK) await flush()
  }
  await flush()
}

const importEvents: Handler<'events.import'> = async (ctx, p) => {
  const job = ctx.measure.jobs.start('import', ctx.clock.now())
  job.total = ctx.text.length === 0 ? 0 : (ctx.text.match(/\n/g)?.length ?? 0) + 1
  const done = ctx.measure.jobs.run(job, () => ctx.clock.now(), () => runImport(ctx, job, ctx.text, p.format))
  return p.wait ? await done : job
}

const show: Handler<'jobs.show'> = (ctx, p) => ctx.measure.jobs.get(p.job_id) ?? (() => { throw badParam('job_id', `${p.job_id} is not a job of this run of the engine`) })()

const status: Handler<'measurement.status'> = (ctx) => {
  const m = ctx.measure
  return {
    events: m.columns.events, identities: m.identities.size - 1, log_bytes_written: m.logBytes(),
    campaigns: [...m.columns.campaigns].map(([id, part]) => ({ campaign_id: String(id), events: part.n })),
    minisites: [...m.columns.minisites].map(([id, part]) => ({ minisite_id: String(id), events: part.n })),
  }
}

const rebuild: Handler<'measurement.rebuild'> = async (ctx) => {
  const started = performance.now()
  const events = await ctx.measure.rebuild()
  return { events, ms: Math.round(performance.now() - started) }
}

export const measureRoutes = {
  'events.import': importEvents,
  'jobs.show': show,
  'jobs.list': ((ctx) => ctx.measure.jobs.list()) satisfies Handler<'jobs.list'>,
  'measurement.status': status,
  'measurement.rebuild': rebuild,
}
