/**
 * The measure bench's tables (one per part, with the figures of the engine and of its baselines),
 * its verdicts (the targets of bench/targets.ts) and the check that the engine's report figures
 * equal DuckDB's, item by item.
 */
import { availableParallelism } from 'node:os'
import type { EventFileInfo } from './measure-events'
import type { HotFunction, LoadResult } from './protocol'
import type { ReadFigures } from './read-files'
import { bareVerdict, int, MiB, pad, printGroup } from './report'
import { median, type StartupRun } from './startup'
import { formatRatio, judge, type Verdict } from './targets'

/** Other processes' CPU during a part, and the [contended] mark at >= 10% of a core (as in the http part). */
const other = (p: number | undefined) => (p === undefined ? 'other processes: unknown' : `other processes used ${Math.round(p)}% of a core${p >= 10 ? ' [contended]' : ''}`)
const ms = (n: number) => (n >= 100 ? int(n) : n >= 10 ? n.toFixed(1) : n.toFixed(2))
/** The p-th percentile (nearest rank) of `xs`. */
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}

function printHot(title: string, hot: HotFunction[] | undefined): void {
  if (!hot?.length) return
  console.log(`  ${title}: ${hot.slice(0, 8).map((h) => `${h.selfPct.toFixed(1)}% ${h.name} (${h.where})`).join('; ')}`)
}

// ---------------------------------------------------------------------------------------------

export interface IngestPrint {
  bare: LoadResult
  engine: LoadResult
  gifBytes: number
  paths: number
  recorded: number
  hot?: HotFunction[]
}

/** Prints the ingest rows; returns the verdict of the hits against the bare server, per server core. */
export function printIngest(f: IngestPrint): Verdict {
  console.log(`\n1. INGEST OVER HTTP: GET /x/ tracking hits (impression codes of list_spots, code_type=mma, IDFA and ns= filled, ${int(f.paths)} distinct URLs, ` +
    `an app's User-Agent); each engine hit is written to the event log and fsynced (group commit) before its answer`)
  printGroup({ title: '/x/ impression pixel', bodyBytes: f.gifBytes, bare: f.bare, engine: [{ label: 'engine /x/ (fsync per group)', result: f.engine }] })
  console.log(`  events the engine recorded on the ingest campaign: ${int(f.recorded)} (the load generator completed ${int(f.engine.requestsStarted)} in warm-up + measured run, ` +
    'plus drain and probe requests; any difference is requests answered after the generator stopped counting)')
  printHot('engine hot functions during the row', f.hot)
  return bareVerdict('hits', f.engine, f.bare)
}

// ---------------------------------------------------------------------------------------------

export interface ImportFigures {
  imported: number
  rejected: number
  /** The CLI's own timer: the import loop, without opening and closing the engine. */
  seconds: number
  /** Spawn to exit. */
  wallS: number
  /** With worker threads: % of the import loop the main thread worked (it waits for parsed pieces the rest). */
  mainBusyPct?: number
  peakRss: number
  errors: string[]
  hot?: HotFunction[]
  /** Other processes' CPU during the import, % of one core. */
  otherPct?: number
  /** CPU time of the import process, every thread, spawn to its last sample (within 100 ms of its exit; Linux /proc). */
  cpuMs?: number
}

/** Prints the import against DuckDB's load of the same file (`duckLoadMs`); returns the verdict of the import. */
export function printImport(f: ImportFigures, info: EventFileInfo, bytes: number, duckLoadMs: number, duckCpuMs?: number): Verdict {
  const perS = f.imported / f.seconds
  const duckS = duckLoadMs / 1000
  console.log(`\n2. BATCH IMPORT: node --import tsx bin/admonitor.ts import FILE --data-dir DIR (the path docs/import.md gives for a big file), ` +
    `NDJSON ${MiB(bytes)}, ${int(info.lines)} lines; baseline: DuckDB reading and attributing the same file (read_ndjson, the identity dictionary, the classes, regions, panel tables)`)
  console.log(`  ${pad('path', 44, true)}${pad('events', 12)}${pad('rejected', 10)}${pad('seconds', 9)}${pad('events/s', 11)}${pad('vs DuckDB', 10)}${pad('peak RSS', 11)}`)
  const row = (label: string, events: string, rejected: string, s: number, rss: string) =>
    console.log(`  ${pad(label, 44, true)}${pad(events, 12)}${pad(rejected, 10)}${pad(s.toFixed(1), 9)}${pad(int(f.imported / s), 11)}${pad(`${formatRatio(duckS / s)}x`, 10)}${pad(rss, 11)}`)
  row('admonitor import (import loop)', int(f.imported), int(f.rejected), f.seconds, MiB(f.peakRss))
  row('  spawn to exit (open + close too)', '', '', f.wallS, '')
  row('DuckDB: load and attribute (driver, baseline)', '', '', duckS, '')
  if (f.mainBusyPct !== undefined) {
    console.log(`  main thread busy ${f.mainBusyPct}% of the import loop (waiting for parsed pieces the rest): about ${int(perS / (f.mainBusyPct / 100))} events/s ` +
      'if parsing kept up (more cores for worker threads), an estimate')
  }
  const work = importWork(f, duckCpuMs)
  if (work) console.log(`  ${work}`)
  console.log(`  ${other(f.otherPct)} during the import`)
  if (f.rejected > 0) console.log(`  REJECTED lines (the file should have none): ${f.errors.join(' | ')}`)
  console.log(`  file: ${int(info.identities)} identities (${int(info.panelIdentities)} panel devices, ${int(info.botIdentities)} bots), ${int(info.clicks)} clicks, ` +
    `${int(info.bursts)} bursts (${int(info.burstLines)} lines), ${int(info.botLines)} bot lines, ${int(info.dcLines)} data-centre lines, ` +
    `${int(info.outsideWindow)} lines outside the campaign dates`)
  printHot('import hot functions (self time)', f.hot)
  return importVerdict(f, duckLoadMs, duckCpuMs)
}

/**
 * What bounds the import, when both CPU figures are known: the CPU time each side spent on the
 * file (every thread), and the shortest time the engine's work could take on this machine's
 * cores. When the engine's CPU over the cores exceeds DuckDB's wall time, no overlap of its
 * threads can reach 1.0x: the work per event is what must shrink.
 */
export function importWork(f: Pick<ImportFigures, 'cpuMs' | 'wallS'>, duckCpuMs: number | undefined, cores = availableParallelism()): string | null {
  if (!f.cpuMs || !duckCpuMs) return null
  return `CPU: engine ${(f.cpuMs / 1000).toFixed(1)} s (spawn to exit, every thread), DuckDB ${(duckCpuMs / 1000).toFixed(1)} s: ` +
    `${formatRatio(f.cpuMs / duckCpuMs)}x DuckDB's work; on ${cores} cores the engine's work takes at least ${(f.cpuMs / 1000 / cores).toFixed(1)} s`
}

/** The import's verdict: the CLI's own timer against DuckDB's load of the same file, with the CPU each spent beside it. */
export function importVerdict(f: Pick<ImportFigures, 'imported' | 'seconds' | 'wallS' | 'cpuMs'>, duckLoadMs: number, duckCpuMs?: number, cores?: number): Verdict {
  const work = importWork(f, duckCpuMs, cores)
  return judge('import', f.seconds * 1000, duckLoadMs,
    `engine ${f.seconds.toFixed(1)} s, ${int(f.imported / f.seconds)} events/s (spawn to exit ${f.wallS.toFixed(1)} s); DuckDB ${(duckLoadMs / 1000).toFixed(1)} s${work ? `; ${work}` : ''}`)
}

// ---------------------------------------------------------------------------------------------

export interface Check {
  match: boolean
  engineRows: number
  duckRows: number
  values: number
  differences: number
  first: string[]
}

interface Spec {
  keys: string[]
  attributes: string[]
}

type Item = { attributes: Record<string, unknown>; metrics: Record<string, unknown> }

const norm = (v: unknown): string => (v === null || v === undefined ? 'null' : typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? String(v) : String(v))

/** Every engine item against the DuckDB row of the same key: the listed attributes and every metric; rows only one side has. */
export function compareReport(spec: Spec, engine: { items: Item[] }, duck: Record<string, unknown>[]): Check {
  const keyOf = (get: (k: string) => unknown) => spec.keys.map((k) => norm(get(k))).join('|')
  const rows = new Map(duck.map((r) => [keyOf((k) => r[k]), r]))
  const first: string[] = []
  let differences = 0
  let values = 0
  const seen = new Set<string>()
  const note = (s: string) => {
    differences++
    if (first.length < 5) first.push(s)
  }
  for (const it of engine.items) {
    const key = keyOf((k) => it.attributes[k])
    seen.add(key)
    const row = rows.get(key)
    if (!row) {
      note(`${key}: engine item, no DuckDB row`)
      continue
    }
    for (const [name, v] of [...spec.attributes.map((a) => [a, it.attributes[a]] as const), ...Object.entries(it.metrics)]) {
      values++
      if (!(name in row)) note(`${key} ${name}: DuckDB has no such column`)
      else if (norm(v) !== norm(row[name])) note(`${key} ${name}: engine ${norm(v)}, DuckDB ${norm(row[name])}`)
    }
  }
  for (const key of rows.keys()) if (!seen.has(key)) note(`${key}: DuckDB row, no engine item`)
  return { match: differences === 0 && engine.items.length > 0, engineRows: engine.items.length, duckRows: duck.length, values, differences, first }
}

export interface ReportFigures {
  name: string
  title: string
  engine: { first: number; cold: number[]; coldPanel?: number[]; cached: number[]; bytes: number; sizes: number; hot?: HotFunction[] }
  /**
   * A bare node:http server sending the engine's answer bytes over the same kind of connection,
   * timed as the engine's answers are: what sending the answer alone takes, which a server of any
   * speed pays too (the engine, sending its pieces with writev, can come in a little under it).
   */
  bareMs?: number[]
  duckMs: number[]
  check: Check
}

/** The reports judged by a target against DuckDB (bench/targets.ts): their cold answers, p50 against DuckDB's p50. */
const JUDGED = ['basic', 'reach', 'audience'] as const

/** The verdict of a report's cold answers against DuckDB (null for a report no target judges). */
export function reportVerdict(r: Pick<ReportFigures, 'name' | 'engine' | 'duckMs' | 'bareMs'>): Verdict | null {
  const judged = JUDGED.find((n) => n === r.name)
  if (!judged) return null
  const d50 = median(r.duckMs)
  const panel = r.engine.coldPanel ? `; after a panel person's hit p50 ${ms(median(r.engine.coldPanel))} ms, ${formatRatio(d50 / median(r.engine.coldPanel))}x` : ''
  const info = `engine cold p50 ${ms(median(r.engine.cold))} ms, p95 ${ms(pct(r.engine.cold, 95))} ms; DuckDB p50 ${ms(d50)} ms${panel}${sendingFloor(r, d50)}`
  return judge(judged, median(r.engine.cold), d50, info)
}

/**
 * What sending the answer alone takes (a bare server, the same bytes), with its ratio to DuckDB:
 * where an answer is large, the time of sending it is what a server of any speed pays too.
 */
export function sendingFloor(r: Pick<ReportFigures, 'engine' | 'bareMs'>, d50: number): string {
  if (!r.bareMs?.length) return ''
  const b50 = median(r.bareMs)
  return `; a bare node:http server sending the same ${MiB(r.engine.bytes)}: p50 ${ms(b50)} ms, ${formatRatio(d50 / b50)}x DuckDB's`
}

/**
 * Prints every report's variants against DuckDB; returns the verdicts of the cold answers (the
 * other variants' ratios are information) and whether every report's numbers equal DuckDB's.
 */
export function printReports(reports: ReportFigures[], o: { runs: number; duckThreads: number; duckLoadS: number; engineOtherPct?: number | undefined; duckOtherPct?: number | undefined }): { verdicts: Verdict[]; numbers: boolean } {
  console.log(`\n3. REPORTS over HTTP via the door (one keep-alive connection, request start to last body byte), ${o.runs} requests per variant; ` +
    `DuckDB: the same figures from the same raw events in SQL (${o.duckThreads} threads; file loaded and attributed once in ${o.duckLoadS.toFixed(0)} s, not timed), ` +
    `${o.runs} timed runs after one untimed`)
  console.log(`  ${pad('report', 42, true)}${pad('variant', 8, true)}${pad('n', 3)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('DuckDB p50', 11)}${pad('p95 ms', 9)}` +
    `${pad('x faster', 9)}${pad('body', 10)}  numbers`)
  const verdicts: Verdict[] = []
  for (const r of reports) {
    const d50 = median(r.duckMs)
    const d95 = pct(r.duckMs, 95)
    const rows: [string, number[]][] = [['first', [r.engine.first]], ['cold', r.engine.cold], ...(r.engine.coldPanel ? [['panel', r.engine.coldPanel] as [string, number[]]] : []), ['cached', r.engine.cached],
      ...(r.bareMs?.length ? [['bare', r.bareMs] as [string, number[]]] : [])]
    rows.forEach(([variant, xs], i) => {
      const p50 = median(xs)
      const speedup = p50 > 0 ? d50 / p50 : 0
      const numbers = r.check.match ? `MATCH (${int(r.check.engineRows)} items, ${int(r.check.values)} values)` : `DIFFERENT (${int(r.check.differences)})`
      console.log(`  ${pad(i === 0 ? r.title : '', 42, true)}${pad(variant, 8, true)}${pad(String(xs.length), 3)}${pad(ms(p50), 9)}${pad(ms(pct(xs, 95)), 9)}` +
        `${pad(i === 0 ? '' : ms(d50), 11)}${pad(i === 0 ? '' : ms(d95), 9)}${pad(i === 0 ? '' : `${formatRatio(speedup)}x`, 9)}` +
        `${pad(i === 0 ? MiB(r.engine.bytes) : '', 10)}  ${i === 0 ? numbers : ''}`)
    })
    if (!r.check.match) for (const f of r.check.first) console.log(`      first differences: ${f}`)
    if (r.engine.sizes > 1) console.log(`      NOTE: the engine's answers to this URL had ${r.engine.sizes} different sizes over the run`)
    printHot(`engine hot functions, ${r.name} cold`, r.engine.hot)
    const v = reportVerdict(r)
    if (v) verdicts.push(v)
  }
  const numbers = reports.every((r) => r.check.match)
  console.log(`  ${other(o.engineOtherPct)} during the engine's requests; ${other(o.duckOtherPct).replace('other processes', 'other processes (DuckDB runs in the driver)')} during DuckDB's queries`)
  console.log(`  first: the first request of the URL after startup (a pass over every event); cold: the same URL after one tracking hit on the measured ` +
    `campaign (dated today, outside its window) changed the measurement version (engine/dispatch/steps/answer-cache.ts keys its answer cache on it), so the report is ` +
    `computed again over the grown partition (basic/show: its kept census brought up to date and, as the hit changes no cell it shows, the items text kept with the census reused; reach and audience: ` +
    `the panel counts kept while no panel person's event came reused); panel: the same after a hit of a panel person's device instead, which makes ` +
    `the panel counts count afresh; cached: the same URL again; bare: a bare node:http server on the engine's core sending the engine's answer bytes, timed the same way ` +
    `(what sending the answer alone takes, which a server of any speed pays too).`)
  return { verdicts, numbers }
}

// ---------------------------------------------------------------------------------------------

/**
 * Prints memory and startup, with the start's baseline (`cat` of the data directory's files);
 * returns the verdicts of modules loaded, of the rest of the start to the first report against
 * the cold `cat` (the warm one without root), and of the server's peak RSS.
 */
export function printMemoryStartup(o: {
  startups: StartupRun[]
  afterStart: { peak: number; rss: number } | null
  afterReports: { peak: number; rss: number } | null
  /** The server's own account after the report runs (process.memoryUsage): what holds its RSS. */
  held?: { heapUsed: number; external: number }
  importPeak: number
  read: ReadFigures
  startupHot?: HotFunction[] | undefined
  importHot?: HotFunction[] | undefined
  startupOtherPct?: number | undefined
}): Verdict[] {
  const { start, modules, open } = startFigures(o.startups)
  const med = (f: (r: StartupRun) => number) => int(median(o.startups.map(f)))
  const serverPeak = o.afterReports?.peak ?? 0
  const catMs = o.read.coldMs ?? o.read.warmMs
  console.log('\n4. MEMORY AND STARTUP')
  const line = (label: string, value: string) => console.log(`  ${pad(label, 72, true)}${pad(value, 12)}`)
  line('peak RSS, engine server: open + first report + all report runs (VmHWM)', MiB(serverPeak))
  line('  RSS of the engine server after startup and its first report', MiB(o.afterStart?.rss ?? 0))
  line('  RSS of the engine server after the report runs', MiB(o.afterReports?.rss ?? 0))
  if (o.held) {
    line('    of it outside V8\'s heap: columns, identities, kept answer text, sql.js (external)', MiB(o.held.external))
    line('    of it in V8\'s heap, in use', MiB(o.held.heapUsed))
  }
  line('peak RSS, admonitor import process (VmHWM)', MiB(o.importPeak))
  line(`startup: spawn -> first report answer (median of ${o.startups.length})`, `${int(start)} ms`)
  line('  modules loaded (ms after the process started, median)', `${int(modules)} ms`)
  line('  modules loaded -> first report answer sent (median)', `${int(open)} ms`)
  line(`  baseline: cat of the data directory's ${int(o.read.files)} files, ${MiB(o.read.bytes)}, ${o.read.coldMs === null ? 'warm' : 'cold'}`, `${int(catMs)} ms`)
  if (o.read.coldMs !== null) line('    the same cat again, warm (information)', `${int(o.read.warmMs)} ms`)
  console.log(`    runs ${o.startups.map((s) => int(s.totalMs)).join(', ')} ms; in the server (ms after its process started, medians): modules loaded ${med((r) => r.marks.imported)}, ` +
    `engine open (database + event log read into columns) ${med((r) => r.marks.engineOpen)}, listening ${med((r) => r.marks.listening)}, ` +
    `first report answer sent ${med((r) => r.firstAnswerAt)} (that request alone ${med((r) => r.firstAnswerMs)} ms: basic/show by campaign, acc, pm)`)
  console.log(`    ${other(o.startupOtherPct)} during the startup runs`)
  printHot('startup hot functions (first run, whole process)', o.startupHot)
  return startVerdicts(o.startups, o.read, serverPeak, o.importPeak)
}

/**
 * The verdicts of the start (modules loaded; the rest to the first report against `read`'s cold
 * `cat`, else its warm one; none without `read`) and of the server's peak RSS (bytes).
 */
export function startVerdicts(startups: StartupRun[], read: ReadFigures | undefined, serverPeak: number, importPeak: number): Verdict[] {
  const { start, modules, open } = startFigures(startups)
  const catMs = read ? read.coldMs ?? read.warmMs : undefined
  const catWhat = !read ? 'not measured' : `${int(catMs!)} ms (${read.coldMs === null ? `warm: the page cache was not dropped, ${read.notCold ?? ''}` : 'cold: page cache dropped first'}; ${MiB(read.bytes)} in ${int(read.files)} files)`
  return [
    judge('modules', modules / 1000, undefined, `start to first report ${int(start)} ms (median of ${startups.length}), of which modules ${int(modules)} ms`),
    judge('open', open, catMs, `modules loaded -> first report ${int(open)} ms; cat ${catWhat}`),
    judge('serverRss', serverPeak / 2 ** 20, undefined, `import process ${MiB(importPeak)} (information)`),
  ]
}

/** Medians over the startup runs: spawn to first report, modules loaded, and modules loaded to the first report sent (ms). */
function startFigures(startups: StartupRun[]): { start: number; modules: number; open: number } {
  return {
    start: median(startups.map((s) => s.totalMs)),
    modules: median(startups.map((r) => r.marks.imported)),
    open: median(startups.map((r) => r.firstAnswerAt - r.marks.imported)),
  }
}
