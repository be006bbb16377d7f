/**
 * The measure bench's tables (one per part, PASS/MISS per target) and the check that the engine's
 * report figures equal DuckDB's, item by item.
 */
import type { EventFileInfo } from './measure-events'
import type { HotFunction, LoadResult } from './protocol'
import { int, MiB, pad, passMiss, printGroup } from './report'
import { median, type StartupRun } from './startup'

export const MEASURE_TARGETS = { ingestRatio: 0.5, importPerS: 500_000, reportP95Ms: 100, vsDuck: 10, maxRssGiB: 1.5, startupMs: 3_000 }

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

export function printIngest(f: IngestPrint): { ratio: number; pass: boolean; coreRatio?: number } {
  console.log(`\n1. INGEST OVER HTTP: GET /x/ tracking hits (impression codes of list_spots, code_type=mma, IDFA and ns= filled, ${int(f.paths)} distinct URLs, ` +
    `an app's User-Agent); each engine hit is written to the event log and fsynced (group commit) before its answer`)
  const [v] = printGroup({ title: '/x/ impression pixel', bodyBytes: f.gifBytes, bare: f.bare, engine: [{ label: 'engine /x/ (fsync per group)', result: f.engine }], maxP99Ms: null })
  const ratio = v!.ratio
  console.log(`  target: engine hits/s / bare >= ${MEASURE_TARGETS.ingestRatio}: ${passMiss(ratio >= MEASURE_TARGETS.ingestRatio)} (${ratio.toFixed(2)})` +
    `${v!.coreRatio !== undefined ? `; per server core ${v!.coreRatio.toFixed(2)}` : ''}`)
  console.log(`  events the engine recorded on the ingest campaign: ${int(f.recorded)} (the load generator completed ${int(f.engine.requestsStarted)} in warm-up + measured run, ` +
    'plus drain and probe requests; any difference is requests answered after the generator stopped counting)')
  printHot('engine hot functions during the row', f.hot)
  return { ratio, pass: ratio >= MEASURE_TARGETS.ingestRatio, ...(v!.coreRatio !== undefined ? { coreRatio: v!.coreRatio } : {}) }
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
}

export function printImport(f: ImportFigures, info: EventFileInfo, bytes: number): { perS: number; pass: boolean } {
  const perS = f.imported / f.seconds
  const wallPerS = f.imported / f.wallS
  console.log(`\n2. BATCH IMPORT: node --import tsx bin/admonitor.ts import FILE --data-dir DIR (the path docs/import.md gives for a big file), ` +
    `NDJSON ${MiB(bytes)}, ${int(info.lines)} lines`)
  console.log(`  ${pad('path', 34, true)}${pad('events', 12)}${pad('rejected', 10)}${pad('seconds', 9)}${pad('events/s', 11)}${pad('target', 10)}${pad('ratio', 7)}${pad('peak RSS', 11)}  verdict`)
  console.log(`  ${pad('admonitor import (import loop)', 34, true)}${pad(int(f.imported), 12)}${pad(int(f.rejected), 10)}${pad(f.seconds.toFixed(1), 9)}${pad(int(perS), 11)}` +
    `${pad(int(MEASURE_TARGETS.importPerS), 10)}${pad((perS / MEASURE_TARGETS.importPerS).toFixed(2), 7)}${pad(MiB(f.peakRss), 11)}  ${passMiss(perS >= MEASURE_TARGETS.importPerS)}`)
  console.log(`  ${pad('  spawn to exit (open + close too)', 34, true)}${pad('', 12)}${pad('', 10)}${pad(f.wallS.toFixed(1), 9)}${pad(int(wallPerS), 11)}` +
    `${pad('', 10)}${pad((wallPerS / MEASURE_TARGETS.importPerS).toFixed(2), 7)}`)
  if (f.mainBusyPct !== undefined) {
    console.log(`  main thread busy ${f.mainBusyPct}% of the import loop (waiting for parsed pieces the rest): about ${int(perS / (f.mainBusyPct / 100))} events/s ` +
      'if parsing kept up (more cores for worker threads), an estimate')
  }
  console.log(`  ${other(f.otherPct)} during the import`)
  if (f.rejected > 0) console.log(`  REJECTED lines (the file should have none): ${f.errors.join(' | ')}`)
  console.log(`  file: ${int(info.identities)} identities (${int(info.panelIdentities)} panel devices, ${int(info.botIdentities)} bots), ${int(info.clicks)} clicks, ` +
    `${int(info.bursts)} bursts (${int(info.burstLines)} lines), ${int(info.botLines)} bot lines, ${int(info.dcLines)} data-centre lines, ` +
    `${int(info.outsideWindow)} lines outside the campaign dates`)
  printHot('import hot functions (self time)', f.hot)
  return { perS, pass: perS >= MEASURE_TARGETS.importPerS }
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
  duckMs: number[]
  check: Check
}

export interface ReportVerdict {
  report: string
  variant: string
  p50: number
  p95: number
  speedup: number
  p95Pass: boolean
  speedPass: boolean
  numbers: boolean
}

export function printReports(reports: ReportFigures[], o: { runs: number; duckThreads: number; duckLoadS: number; engineOtherPct?: number | undefined; duckOtherPct?: number | undefined }): ReportVerdict[] {
  console.log(`\n3. REPORTS over HTTP via the door (one keep-alive connection, request start to last body byte), ${o.runs} requests per variant; ` +
    `DuckDB: the same figures from the same raw events in SQL (${o.duckThreads} threads; file loaded and attributed once in ${o.duckLoadS.toFixed(0)} s, not timed), ` +
    `${o.runs} timed runs after one untimed`)
  console.log(`  ${pad('report', 42, true)}${pad('variant', 8, true)}${pad('n', 3)}${pad('p50 ms', 9)}${pad('p95 ms', 9)}${pad('DuckDB p50', 11)}${pad('p95 ms', 9)}` +
    `${pad('x faster', 9)}${pad('body', 10)}  p95<${MEASURE_TARGETS.reportP95Ms}ms  >=${MEASURE_TARGETS.vsDuck}x   numbers`)
  const verdicts: ReportVerdict[] = []
  for (const r of reports) {
    const d50 = median(r.duckMs)
    const d95 = pct(r.duckMs, 95)
    const rows: [string, number[]][] = [['first', [r.engine.first]], ['cold', r.engine.cold], ...(r.engine.coldPanel ? [['panel', r.engine.coldPanel] as [string, number[]]] : []), ['cached', r.engine.cached]]
    rows.forEach(([variant, xs], i) => {
      const p50 = median(xs)
      const p95 = pct(xs, 95)
      const speedup = p50 > 0 ? d50 / p50 : 0
      const numbers = r.check.match ? `MATCH (${int(r.check.engineRows)} items, ${int(r.check.values)} values)` : `DIFFERENT (${int(r.check.differences)})`
      const judged = variant !== 'first'
      if (judged) verdicts.push({ report: r.name, variant, p50, p95, speedup, p95Pass: p95 < MEASURE_TARGETS.reportP95Ms, speedPass: speedup >= MEASURE_TARGETS.vsDuck, numbers: r.check.match })
      console.log(`  ${pad(i === 0 ? r.title : '', 42, true)}${pad(variant, 8, true)}${pad(String(xs.length), 3)}${pad(ms(p50), 9)}${pad(ms(p95), 9)}` +
        `${pad(i === 0 ? '' : ms(d50), 11)}${pad(i === 0 ? '' : ms(d95), 9)}${pad(i === 0 ? '' : `${speedup.toFixed(speedup >= 10 ? 0 : 2)}x`, 9)}` +
        `${pad(i === 0 ? MiB(r.engine.bytes) : '', 10)}  ${pad(judged ? passMiss(p95 < MEASURE_TARGETS.reportP95Ms) : '', 9, true)}  ${pad(judged ? passMiss(speedup >= MEASURE_TARGETS.vsDuck) : '', 5, true)}  ${i === 0 ? numbers : ''}`)
    })
    if (!r.check.match) for (const f of r.check.first) console.log(`      first differences: ${f}`)
    if (r.engine.sizes > 1) console.log(`      NOTE: the engine's answers to this URL had ${r.engine.sizes} different sizes over the run`)
    printHot(`engine hot functions, ${r.name} cold`, r.engine.hot)
  }
  const all = (f: (v: ReportVerdict) => boolean) => verdicts.every(f)
  console.log(`  targets: p95 < ${MEASURE_TARGETS.reportP95Ms} ms ${passMiss(all((v) => v.p95Pass))}; >= ${MEASURE_TARGETS.vsDuck}x faster than DuckDB (p50 vs p50) ${passMiss(all((v) => v.speedPass))}; ` +
    `identical numbers ${passMiss(all((v) => v.numbers))}`)
  console.log(`  ${other(o.engineOtherPct)} during the engine's requests; ${other(o.duckOtherPct).replace('other processes', 'other processes (DuckDB runs in the driver)')} during DuckDB's queries`)
  console.log(`  first: the first request of the URL after startup (a pass over every event); cold: the same URL after one tracking hit on the measured ` +
    `campaign (dated today, outside its window) changed the measurement version (engine/dispatch.ts keys its answer cache on it), so the report is ` +
    `computed again over the grown partition (basic/show: its kept census brought up to date, the kept text of unchanged cells reused; reach and audience: ` +
    `the panel counts kept while no panel person's event came reused); panel: the same after a hit of a panel person's device instead, which makes ` +
    `the panel counts count afresh; cached: the same URL again.`)
  return verdicts
}

// ---------------------------------------------------------------------------------------------

export function printMemoryStartup(o: {
  startups: StartupRun[]
  afterStart: { peak: number; rss: number } | null
  afterReports: { peak: number; rss: number } | null
  importPeak: number
  limit: number
  startupHot?: HotFunction[] | undefined
  importHot?: HotFunction[] | undefined
  reports: ReportFigures[]
  startupOtherPct?: number | undefined
}): { importRss: boolean; serverRss: boolean; startup: boolean; startupMs: number } {
  const start = median(o.startups.map((s) => s.totalMs))
  const med = (f: (r: StartupRun) => number) => int(median(o.startups.map(f)))
  const lim = `< ${MiB(o.limit)}`
  const serverPeak = o.afterReports?.peak ?? 0
  console.log('\n4. MEMORY AND STARTUP')
  console.log(`  ${pad('figure', 64, true)}${pad('value', 12)}${pad('target', 13)}  verdict`)
  const line = (label: string, value: string, target: string, verdict: string) => console.log(`  ${pad(label, 64, true)}${pad(value, 12)}${pad(target, 13)}  ${verdict}`)
  line('peak RSS, admonitor import process (VmHWM)', MiB(o.importPeak), lim, passMiss(o.importPeak > 0 && o.importPeak < o.limit))
  line('peak RSS, engine server: open + first report + all report runs', MiB(serverPeak), lim, passMiss(serverPeak > 0 && serverPeak < o.limit))
  line('  RSS of the engine server after startup and its first report', MiB(o.afterStart?.rss ?? 0), '', '')
  line('  RSS of the engine server after the report runs', MiB(o.afterReports?.rss ?? 0), '', '')
  line(`startup: spawn -> first report answer (median of ${o.startups.length})`, `${int(start)} ms`, `< ${int(MEASURE_TARGETS.startupMs)} ms`, passMiss(start < MEASURE_TARGETS.startupMs))
  console.log(`    runs ${o.startups.map((s) => int(s.totalMs)).join(', ')} ms; in the server (ms after its process started, medians): modules loaded ${med((r) => r.marks.imported)}, ` +
    `engine open (database + event log read into columns) ${med((r) => r.marks.engineOpen)}, listening ${med((r) => r.marks.listening)}, ` +
    `first report answer sent ${med((r) => r.firstAnswerAt)} (that request alone ${med((r) => r.firstAnswerMs)} ms: basic/show by campaign, acc, pm)`)
  console.log(`    ${other(o.startupOtherPct)} during the startup runs`)
  printHot('startup hot functions (first run, whole process)', o.startupHot)
  return { importRss: o.importPeak > 0 && o.importPeak < o.limit, serverRss: serverPeak > 0 && serverPeak < o.limit, startup: start < MEASURE_TARGETS.startupMs, startupMs: start }
}
