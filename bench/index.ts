/**
 * `npm run bench`: three parts, one after the other (bench/README.md):
 *   http     campaigns/list over 10,000 campaigns and list_spots over 3,000 spots, served by the
 *            engine's HTTP door, against a bare node:http server sending the same bytes;
 *   measure  the measurement engine at 10 million events: ingest, import, reports against DuckDB,
 *            memory and startup (bench/measure.ts).
 *   felt     what the user feels, on the measure part's data directory and events file: the first
 *            report after a start, the Reports screen's tabs in headless Chromium, the campaign
 *            list's search during a 10M import (bench/felt.ts).
 * `npm run bench -- http` (or measure, or felt; or BENCH_PARTS=http|measure|felt) runs one; felt
 * alone runs on a kept data directory (BENCH_FELT_DATA or BENCH_KEEP_DATA) and events file.
 * `npm run bench -- contention` (never run by default): tracking hits during an import, a
 *            simulation, a rebuild and a sync pull, against the same hits on an idle server
 *            (bench/contention.ts).
 * Server, baseline and load generator are separate processes. Exits 0 whether targets pass or
 * miss: it is a measurement.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HAS_TASKSET, startChild, type Child } from './children'
import { machineOf } from './machine'
import type { SeedInfo, ServerReady, ServerStats } from './protocol'
import { int, kb, listVerdicts, MiB, printGroup, printLegend, type Group } from './report'
import { printVerdictLines, type Verdict } from './targets'
import { HAS_WRK } from './wrk'
import { benchUrls, CONNECTIONS, DURATION_S, runRows, SLOW_DURATION_S, WARMUP_S, type Rows } from './rows'
import { measureStartup, median, printStartup, type StartupRun } from './startup'
import { runMeasureBench } from './measure'
import { runContentionBench } from './contention'
import { runFeltBench } from './felt'

const STARTUP_RUNS = 3
const SERVER_CPU = 0
const LOAD_CPU = 1
const RESULTS = fileURLToPath(new URL('results/', import.meta.url))
const PROFILE = process.env.BENCH_CPU_PROF === '1'

interface Fetched {
  body: Buffer
  headers: Record<string, string>
}

/** One answer of the engine, checked: status 200 and an array of `n` items. */
async function fetchBody(url: string, n: number): Promise<Fetched> {
  const res = await fetch(url)
  const body = Buffer.from(await res.arrayBuffer())
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.toString('utf8', 0, 300)}`)
  const json: unknown = JSON.parse(body.toString('utf8'))
  if (!Array.isArray(json) || json.length !== n) throw new Error(`${url}: expected an array of ${n}, got ${Array.isArray(json) ? json.length : typeof json}`)
  const headers: Record<string, string> = {}
  for (const name of ['content-type', 'x-content-type-options']) {
    const v = res.headers.get(name)
    if (v !== null) headers[name] = v
  }
  return { body, headers }
}

/** Every campaign id and every spot id of the spot campaign (for the new-query rows). */
async function benchIds(engineUrl: string, token: string, spotCampaignId: string): Promise<{ campaigns: string[]; spots: string[] }> {
  const read = async (path: string): Promise<string[]> => {
    const res = await fetch(`${engineUrl}${path}&access_token=${encodeURIComponent(token)}`)
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
    return ((await res.json()) as { campaign_id?: string; spot_id?: string }[]).map((x) => (x.spot_id ?? x.campaign_id)!)
  }
  return { campaigns: await read('/cms/v1/campaigns/list?limit=0,100000'), spots: await read(`/cms/v1/campaigns/list_spots?campaign_id=${spotCampaignId}&limit=0,100000`) }
}

async function stats(child: Child): Promise<ServerStats> {
  child.send({ type: 'stats' })
  return child.next<ServerStats>('stats')
}

/** The bare baseline, serving the exact bytes and content headers the engine answered. */
async function startBare(work: string, list: Fetched, spots: Fetched): Promise<{ bare: Child; url: string }> {
  writeFileSync(join(work, 'list.json'), list.body)
  writeFileSync(join(work, 'spots.json'), spots.body)
  const manifest = {
    '/cms/v1/campaigns/list_spots': { file: join(work, 'spots.json'), headers: spots.headers },
    '/cms/v1/campaigns/list': { file: join(work, 'list.json'), headers: list.headers },
  }
  writeFileSync(join(work, 'bodies.json'), JSON.stringify(manifest))
  const bare = startChild('server-bare.ts', [join(work, 'bodies.json')], { cpu: SERVER_CPU })
  return { bare, url: `http://127.0.0.1:${(await bare.next<ServerReady>('ready')).port}` }
}

/** Prints the tables and the verdicts; returns each engine row's ratios to its bare row, and the verdicts. */
function printResults(seed: SeedInfo, rows: Rows, list: Fetched, spots: Fetched): { ratios: ReturnType<typeof printGroup>; verdicts: Verdict[] } {
  const r = rows.results
  const groups: Group[] = [
    { title: `campaigns/list  (GET, default limit 0,500 of ${int(seed.campaigns)} campaigns)`, bodyBytes: list.body.length, bare: r.listBare,
      engine: [{ label: 'engine, repeated URL', result: r.listRepeated }, { label: 'engine, rotating URLs', result: r.listRotating }, { label: 'engine, new query each', result: r.listQueries }] },
    { title: `campaigns/list_spots  (GET, default limit 0,500 of a campaign with ${int(seed.spots)} spots, tags and keywords)`, bodyBytes: spots.body.length, bare: r.spotsBare,
      engine: [{ label: 'engine, repeated URL', result: r.spotsRepeated }, { label: 'engine, rotating URLs', result: r.spotsRotating }, { label: 'engine, new query each', result: r.spotsQueries }] },
  ]
  const m = machineOf()
  console.log('\n' + '='.repeat(124))
  console.log(`RESULTS  ${m.cpu}, ${m.cores} cores, node ${m.node}; ${CONNECTIONS} connections; ${WARMUP_S} s warm-up, then ${DURATION_S} s per row ` +
    `(${SLOW_DURATION_S} s for the new-query rows)`)
  const ratios = groups.flatMap(printGroup)
  printLegend([['list rotating', r.listRotating], ['list_spots rotating', r.spotsRotating], ['list new-query', r.listQueries], ['list_spots new-query', r.spotsQueries]])
  const verdicts = listVerdicts(r)
  printVerdictLines('TARGETS (ratios to baselines measured in this run: bench/README.md, "Targets"; p99 latency is information)', verdicts)
  return { ratios, verdicts }
}

const PARTS = ['http', 'measure', 'felt', 'contention'] as const
type Part = (typeof PARTS)[number]
/** The parts run when none is named. */
const DEFAULT_PARTS: readonly Part[] = ['http', 'measure', 'felt']

/** The parts to run: command-line arguments, else BENCH_PARTS (comma-separated), else http, measure and felt. */
function parts(): Part[] {
  const asked = [...process.argv.slice(2), ...(process.argv.length > 2 ? [] : (process.env.BENCH_PARTS ?? '').split(','))].map((x) => x.trim()).filter((x) => x !== '')
  const unknown = asked.filter((x) => !(PARTS as readonly string[]).includes(x))
  if (unknown.length > 0) throw new Error(`unknown bench part ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`)
  return asked.length === 0 ? [...DEFAULT_PARTS] : PARTS.filter((x) => asked.includes(x))
}

async function main(): Promise<void> {
  const chosen = parts()
  if (chosen.includes('http')) await runHttpBench()
  // felt after measure in one run: measure keeps its data directory and events file for it
  // (in a temp folder removed afterwards, unless BENCH_KEEP_DATA / BENCH_EVENTS_DIR name folders to keep)
  const handOver = chosen.includes('measure') && chosen.includes('felt') ? handOverFolders() : []
  try {
    if (chosen.includes('measure')) await runMeasureBench()
    if (chosen.includes('felt')) await runFeltBench()
  } finally {
    for (const dir of handOver) rmSync(dir, { recursive: true, force: true })
  }
  if (chosen.includes('contention')) await runContentionBench()
}

/** Sets BENCH_KEEP_DATA and BENCH_EVENTS_DIR to temp folders where they are unset; returns the folders set. */
function handOverFolders(): string[] {
  const made: string[] = []
  for (const name of ['BENCH_KEEP_DATA', 'BENCH_EVENTS_DIR']) {
    if (process.env[name]) continue
    const dir = mkdtempSync(join(tmpdir(), `admonitor-${name === 'BENCH_KEEP_DATA' ? 'kept-data' : 'events'}-`))
    process.env[name] = name === 'BENCH_KEEP_DATA' ? join(dir, 'data') : dir
    made.push(dir)
  }
  return made
}

async function runHttpBench(): Promise<void> {
  const m = machineOf()
  console.log(`AdMonitor Desk HTTP bench  ${new Date().toISOString()}`)
  console.log(`machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}, node ${m.node}`)
  console.log(`load: ${HAS_WRK ? 'wrk (one thread)' : 'autocannon (install Debian\'s wrk for a lighter load generator)'}, ${CONNECTIONS} connections, keep-alive; ` +
    `${HAS_TASKSET ? `servers pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU}` : 'no taskset: processes not pinned'}`)
  const work = mkdtempSync(join(tmpdir(), 'admonitor-bench-'))
  const dataDir = join(work, 'data')
  mkdirSync(RESULTS, { recursive: true })
  const children: Child[] = []
  try {
    console.log('\nseeding (inside the server process, through engine.handle) ...')
    const engine = startChild('server-engine.ts', [dataDir, 'seed'], { cpu: SERVER_CPU })
    children.push(engine)
    const ready = await engine.next<ServerReady>('ready', 600_000)
    const seed = ready.seed!
    const seedStats = await stats(engine)
    console.log(`  ${int(seed.campaigns)} campaigns in ${int(seed.campaignsMs)} ms; ${int(seed.spots)} spots with 30-day plans via ${seed.spotMethod} ` +
      `in ${int(seed.spotsMs)} ms; server RSS after seeding ${MiB(seedStats.rss)}`)
    const engineUrl = `http://127.0.0.1:${ready.port}`
    const ids = await benchIds(engineUrl, seed.token, seed.spotCampaignId)
    const urls = benchUrls(seed.token, seed.spotCampaignId, ids)
    const list = await fetchBody(engineUrl + urls.list, 500)
    const spots = await fetchBody(engineUrl + urls.spots, 500)
    await fetchBody(engineUrl + urls.listRotating.at(-1)!, 500)
    await fetchBody(engineUrl + urls.spotsRotating.at(-1)!, 500)
    const { bare, url: bareUrl } = await startBare(work, list, spots)
    const loader = startChild('load.ts', [], { cpu: LOAD_CPU })
    children.push(bare, loader)

    console.log('\nrunning (one server busy at a time; the other idles) ...')
    const profileFile = (row: string) => join(RESULTS, `${row}.cpuprofile`)
    const rows = await runRows({ engine, engineUrl, bare, bareUrl, loader, profile: PROFILE, profileFile }, urls)
    const after = await stats(engine)
    const bareStats = await stats(bare)
    await Promise.all([engine.stop(), bare.stop(), loader.stop()])

    console.log(`\nstartup on the seeded data directory (${STARTUP_RUNS} runs) ...`)
    const startups: StartupRun[] = []
    for (let i = 0; i < STARTUP_RUNS; i++) startups.push(await measureStartup(dataDir, seed.token, SERVER_CPU))

    const { ratios, verdicts } = printResults(seed, rows, list, spots)
    printStartup(startups)
    console.log(`Server RSS: engine ${MiB(after.rss)} after the run (${MiB(seedStats.rss)} after seeding; JS heap ${MiB(after.heapUsed)}); bare baseline ${MiB(bareStats.rss)}`)
    const rss = rows.rssAfter
    console.log(`  engine RSS after each row: list repeated ${MiB(rss.listRepeated ?? 0)}, rotating ${MiB(rss.listRotating ?? 0)}, new queries ${MiB(rss.listQueries ?? 0)}; ` +
      `list_spots repeated ${MiB(rss.spotsRepeated ?? 0)}, rotating ${MiB(rss.spotsRotating ?? 0)}, new queries ${MiB(rss.spotsQueries ?? 0)}`)
    console.log(`Bodies: list ${kb(list.body.length)}, list_spots ${kb(spots.body.length)}`)
    const file = join(RESULTS, `http-list-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    const { token: _token, ...seedShown } = seed
    writeFileSync(file, JSON.stringify({
      machine: { ...m, bareReqPerS: rows.results.listBare.rps, bareRow: 'campaigns/list, bare node:http' }, connections: CONNECTIONS, warmupS: WARMUP_S, durationS: DURATION_S, slowDurationS: SLOW_DURATION_S, seed: seedShown,
      bodies: { list: list.body.length, spots: spots.body.length }, ...rows, ratios, verdicts,
      startup: { medianTotalMs: median(startups.map((x) => x.totalMs)), runs: startups }, rss: { afterSeed: seedStats, afterRun: after, bare: bareStats },
    }, null, 2))
    console.log(`\nwritten ${file}${PROFILE ? `; CPU profiles of the engine rows (*.cpuprofile) in ${RESULTS}` : ''}`)
  } finally {
    await Promise.all(children.map((c) => c.stop(3_000)))
    rmSync(work, { recursive: true, force: true })
  }
}

main().catch((err: unknown) => {
  console.error('bench failed:', err)
  process.exitCode = 1
})
