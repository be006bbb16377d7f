/** The data commands of the command line: import, simulate, rebuild, demo. */
import { stat } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { Engine } from '../engine/index'
import type { Job } from '../engine/measure/jobs'
import { availableParallelism, constants as osConstants } from 'node:os'
import { ingestParsed, runImport } from '../engine/measure/import-run'
import { ImportProgress } from './import-progress'
import { ImportWorkers, type Parsed } from './import-workers'
import { ndjsonBytes, pieces } from './pieces'
import { SERVE_URL, fail, openEngine } from './open'

const common = { 'data-dir': { type: 'string' }, 'time-zone': { type: 'string' } } as const

/** Files larger than this are parsed by worker threads. */
const WORKERS_FROM_BYTES = 64 << 20
/**
 * The pieces handed to workers: smaller than a one-thread piece, as each is held by two threads
 * (a 10M-event import's peak RSS: 1,768 MiB with 32 MiB pieces, 1,352 with 8, 1,147-1,289 with 4, at
 * the same speed).
 */
export const WORKER_PIECE_BYTES = 4 << 20
/**
 * Pieces parsed or being parsed ahead of the one being ingested, across the workers: enough for
 * the workers to go on parsing while the main thread saves a checkpoint (it stops ingesting for
 * 0.5-1.2 s of a 10M-event import, 10-25 pieces of parsing), about 100 MiB of pieces and their
 * parsed lines. With one piece ahead the worker waited out every checkpoint (a 10M-event import on
 * 2 cores: 23.9-25.0 s with 1, 23.3 with 8, 22.6-23.1 with 12, 22.1-22.3 with 24, 21.5-22.0 with
 * 48 at 130 MiB more peak RSS).
 */
const PIECES_AHEAD = 24

/** Ends an import's loop after the piece under way when Ctrl-C (or a TERM) asks it to stop. */
class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(signal)
  }
}

/** Why a file cannot be read, as a shell says it. */
function unreadable(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') return 'no such file'
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied'
  return err.message
}

/** The summary's list of rejected lines: the first 20 of them. */
function listRejected(job: Job): void {
  for (const e of job.errors.slice(0, 20)) console.error(`  line ${e.line}: ${e.error}`)
  if (job.errors.length > 20) console.error(`  ... and ${job.rejected - 20} more`)
}

/**
 * `import FILE`: exit code 0 when every line was imported, 1 when a line was rejected (the others
 * are imported), 2 when the command did not run, and 128 + the signal's number when Ctrl-C or a
 * TERM stopped it: the piece under way is finished and kept, the engine closed (its lock released),
 * and the last line read is named, so that the lines after it can be imported alone.
 */
export async function importCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...common, format: { type: 'string' }, workers: { type: 'string' } } })
  const file = positionals[0] ?? fail('import: name the event file: admonitor import events.ndjson [--format ndjson|csv] [--workers N]')
  if (positionals.length > 1) fail(`import: one file at a time, got ${positionals.length} (${positionals.join(' ')})`)
  const format = values.format ?? (file.endsWith('.csv') ? 'csv' : 'ndjson')
  if (format !== 'ndjson' && format !== 'csv') fail(`import: --format must be ndjson or csv, got ${format}`)
  if (values.workers !== undefined && !/^(0|[1-9][0-9]?)$/.test(values.workers)) fail(`import: --workers must be a number of threads from 0 to 99, got ${values.workers}`)
  const st = await stat(file).catch((err: NodeJS.ErrnoException) => fail(`import: cannot read ${file}: ${unreadable(err)}`))
  if (st.isDirectory()) fail(`import: ${file} is a directory; name an event file`)
  const size = st.size
  const workers = values.workers !== undefined ? Number(values.workers) : size >= WORKERS_FROM_BYTES ? Math.min(4, Math.max(1, availableParallelism() - 1)) : 0
  let stopping: NodeJS.Signals | null = null
  const onSignal = (signal: NodeJS.Signals) => {
    // a second one ends the command at once (the next command takes over the lock it leaves)
    if (stopping) process.exit(128 + osConstants.signals[signal])
    stopping = signal
    process.stderr.write(`\n${signal}: stopping after the part of the file being imported...\n`)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  // the workers start while the engine opens
  const pool = workers > 0 ? new ImportWorkers(workers) : null
  const { engine } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'], firstRunUrl: SERVE_URL })
  const job = engine.measure.jobs.start('import', Date.now())
  let read = 0
  let lastLine = 0
  const started = performance.now()
  const loop = performance.eventLoopUtilization()
  const progress = new ImportProgress()
  const state = (pct: number) => `${pct}%  ${job.imported} imported, ${job.rejected} rejected`
  /**
   * Counts a piece that covers `bytes` of the file, up to its line `end`, into the progress; its
   * errors' lines become file lines. A stop asked for meanwhile ends the import here.
   */
  const counted = (offset: number, bytes: number, before: number, end: number) => {
    for (const e of job.errors.slice(before)) e.line += offset
    read += bytes
    lastLine = end
    progress.update(state(Math.min(100, Math.round((100 * read) / size))))
    if (stopping) throw new Interrupted(stopping)
  }
  try {
    if (stopping) throw new Interrupted(stopping)
    if (workers === 0) {
      for await (const piece of pieces(file, format === 'csv')) {
        const before = job.errors.length
        await runImport(engine.measure, engine.settings.timeZone, job, piece.text, format)
        counted(piece.offset, piece.bytes, before, piece.offset + piece.lines)
      }
    } else await importOnWorkers(engine, job, file, format, pool!, counted)
  } catch (err) {
    // a stop, a refusal of the whole file (CSV columns, too many lines) or a worker's failure;
    // the chunks counted before it are durable
    await engine.close()
    if (!(err instanceof Interrupted)) fail(`import: ${(err as Error).message} (${job.imported} events imported before it)`)
    console.error(`admonitor: import: stopped by ${err.signal} after line ${lastLine} of ${file}: ${job.imported} events imported, ${job.rejected} rejected; the lines after it were not imported (import them alone to complete the file)`)
    listRejected(job)
    process.exit(128 + osConstants.signals[err.signal])
  }
  // the whole file is read: 100% (CSV pieces are counted as their lines without CRLF's \r, a piece's
  // progress falls short of the file's bytes by one a line)
  progress.end(state(100))
  const s = (performance.now() - started) / 1000
  // with workers, how much of the time the main thread worked (the rest it waited for parsed pieces)
  const busy = Math.round(100 * performance.eventLoopUtilization(loop).utilization)
  console.error(`${job.imported} events imported, ${job.rejected} rejected${job.repeated > 0 ? `, ${job.repeated} repeats of a counted media request id left out` : ''}, in ${s.toFixed(1)} s (${Math.round(job.imported / s)} a second${workers ? `, parsed by ${workers} worker thread${workers > 1 ? 's' : ''}, main thread busy ${busy}%` : ''})`)
  if (job.message) console.error(`  ${job.message}`)
  listRejected(job)
  await engine.close()
  process.off('SIGINT', onSignal)
  process.off('SIGTERM', onSignal)
  if (job.rejected > 0) process.exitCode = 1
}

/**
 * Pieces are parsed ahead on the workers (PIECES_AHEAD) and ingested in file order: the import's
 * result is the same as on one thread. NDJSON goes as bytes (ndjsonBytes); its line numbers
 * continue from the lines the worker counted in the pieces before.
 */
async function importOnWorkers(engine: Engine, job: Job, file: string, format: 'ndjson' | 'csv', pool: ImportWorkers, counted: (offset: number, bytes: number, before: number, end: number) => void): Promise<void> {
  pool.start({ snapshot: engine.measure.lookup().snapshot(), timeZone: engine.settings.timeZone, identityKey: engine.measure.identityKey() })
  const ahead: { offset: number | null; bytes: number; lines: number; parsed: Promise<Parsed> }[] = []
  // the file line before the next NDJSON piece
  let next = 0
  const ingestNext = async () => {
    const { offset, bytes, lines: csvLines, parsed } = ahead.shift()!
    const { lines, textLines } = await parsed
    const before = job.errors.length
    if (lines) await ingestParsed(engine.measure, job, lines)
    const at = offset ?? next
    next += textLines
    counted(at, bytes, before, at + (offset === null ? textLines : csvLines))
  }
  /** A piece to parse: NDJSON bytes (`offset` null: it follows the lines counted before), or CSV text of `lines` lines. */
  const send = async (offset: number | null, bytes: number, lines: number, data: string | Uint8Array<ArrayBuffer>) => {
    const parsed = pool.parse(data, format)
    parsed.catch(() => undefined) // awaited in turn below
    ahead.push({ offset, bytes, lines, parsed })
    if (ahead.length > Math.max(PIECES_AHEAD, pool.size)) await ingestNext()
  }
  try {
    // (an NDJSON piece covers the newline it was cut after too)
    if (format === 'ndjson') for await (const b of ndjsonBytes(file, WORKER_PIECE_BYTES)) await send(null, b.length + 1, 0, b)
    else for await (const piece of pieces(file, true, WORKER_PIECE_BYTES)) await send(piece.offset, piece.bytes, piece.lines, piece.text)
    while (ahead.length > 0) await ingestNext()
  } finally {
    await pool.close()
  }
}

/**
 * A request to the engine in-process; a refusal closes the engine (its lock released) and ends
 * the command with its message. `options`
 * names the command-line option of each parameter, said beside it in the message ("The
 * 'from_date' (--from) must be ..."): the user typed the option, not the parameter. A parameter
 * of `flags` is sent as 1 by an option that takes no value, so its refusal "The 'append' must be
 * 1" says the option is missing: "--append is needed".
 */
export async function local(engine: Engine, method: 'GET' | 'POST', path: string, params: Record<string, string>, options: Readonly<Record<string, string>> = {}, flags: readonly string[] = []): Promise<Record<string, unknown>> {
  const token = await engine.localToken()
  const fields = { ...params, access_token: token }
  const r = await engine.handle(method === 'GET' ? { method, path, query: fields } : { method, path, query: {}, body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  const body = JSON.parse(r.body) as Record<string, unknown>
  if (r.status !== 200) {
    let said = String(body.error_description)
    for (const param of flags) said = said.split(`The '${param}' must be 1 `).join(`${options[param] ?? param} is needed `)
    for (const [param, option] of Object.entries(options)) said = said.split(`'${param}'`).join(`'${param}' (${option})`)
    await engine.close()
    fail(`${String(body.error)}: ${said}`)
  }
  return body
}

/** The options of simulate, by the parameter of simulate.run each fills. */
const SIMULATE_OPTIONS = { campaign_id: '--campaign', from_date: '--from', to_date: '--to', seed: '--seed', scale: '--scale', append: '--append' } as const

export async function simulateCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { ...common, campaign: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, seed: { type: 'string' }, scale: { type: 'string' }, append: { type: 'boolean' } } })
  if (!values.campaign) fail('simulate: name the campaign: admonitor simulate --campaign 12 [--from D --to D --seed N --scale X --append]')
  const { engine } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'], firstRunUrl: SERVE_URL })
  const params: Record<string, string> = { campaign_id: values.campaign }
  for (const [k, v] of [['from_date', values.from], ['to_date', values.to], ['seed', values.seed], ['scale', values.scale]] as const) if (v) params[k] = v
  if (values.append) params.append = '1'
  const job = await local(engine, 'POST', '/local/v1/simulate/run', params, SIMULATE_OPTIONS, ['append'])
  console.log(`${String(job.imported)} hits simulated: ${String(job.message)}`)
  await engine.close()
}

export async function rebuildCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: common })
  const { engine } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'], firstRunUrl: SERVE_URL, existing: 'rebuild' })
  const r = await local(engine, 'POST', '/local/v1/measurement/rebuild', {})
  console.log(`rebuilt from ${String(r.events)} raw events in ${String(r.ms)} ms`)
  await engine.close()
}

/**
 * `account rotate --what password|client_secret|both`: new random secrets for the local account,
 * printed once. Run on the data directory itself (a server holding it must be stopped): the
 * owner's way back in when the password is lost, as the HTTP API asks for it before rotating.
 */
export async function accountCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...common, what: { type: 'string' } } })
  if (positionals.length !== 1 || positionals[0] !== 'rotate') fail(`account: the command is 'account rotate --what password|client_secret|both', got 'account ${positionals.join(' ')}'`)
  if (values.what === undefined) fail('account rotate: name the secret to replace with --what password, client_secret or both')
  const { engine } = await openEngine({
    dataDir: values['data-dir'], timeZone: values['time-zone'], existing: 'account rotate',
    inUse: "Stop it first: the secrets are replaced on the data directory itself (through the API, POST /local/v1/account/rotate asks for the current password).",
  })
  const r = await local(engine, 'POST', '/local/v1/account/rotate', { what: values.what! }, { what: '--what' })
  console.log('New secrets of the local account. Keep them; they are not shown again. Every token issued before is revoked.')
  console.log(`  username:      ${String(r.username)}`)
  if (r.password) console.log(`  password:      ${String(r.password)}`)
  console.log(`  client_id:     ${String(r.client_id)}`)
  if (r.client_secret) console.log(`  client_secret: ${String(r.client_secret)}`)
  await engine.close()
}

export async function demoCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: common })
  const { engine } = await openEngine({ dataDir: values['data-dir'], timeZone: values['time-zone'], firstRunUrl: SERVE_URL })
  console.log('creating the demo campaign, panel and two weeks of traffic...')
  const d = await engine.loadDemo()
  console.log(`demo campaign ${d.campaign_id} with ${d.hits} simulated hits, minisite ${d.minisite_id}: ${d.message}`)
  await engine.close()
}
