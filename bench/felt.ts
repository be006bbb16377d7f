/**
 * `npm run bench -- felt`: what the user feels, on the measure part's data directory (its
 * 10M-event campaign) and events file (bench/README.md, "What the user feels"):
 *   1. the first report after a start: `npm run serve` spawned, then the requests the Reports
 *      screen makes when it opens, to the first report's answer (median of 3 starts);
 *   2. the Reports screen's tabs in headless Chromium, each from its click to its figures shown,
 *      cold (first visit after a start) and warm (second visit), with each tab's requests;
 *   3. the campaign list's search during a 10M-event import through the API, against the same
 *      searches with nothing else running.
 * Inputs: BENCH_FELT_DATA (default BENCH_KEEP_DATA: a measure run's kept data directory) and
 * BENCH_FELT_EVENTS (default the events file in BENCH_EVENTS_DIR). The data directory is copied
 * first: nothing is written into it. Exits 0 whether targets pass or miss: it is a measurement.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cannotRun } from '../test/e2e/harness'
import { buildApp } from '../test/helpers/build'
import { HAS_TASKSET } from './children'
import { waitForQuiet } from './cpu'
import { firstReport, type FirstReportRun } from './felt-first'
import { dayAfter, feltVerdicts, type TabTime } from './felt-logic'
import { searchDuringImport, type SearchRun } from './felt-search'
import { serveOn } from './felt-serve'
import { reportTabs, type TabsRun } from './felt-tabs'
import { machineLine, machineOf } from './machine'
import { Api } from './measure-http'
import { int, MiB } from './report'
import { median } from './startup'
import { printVerdictLines } from './targets'

const STARTS = 3
const SERVER_CPU = 0
const RESULTS = fileURLToPath(new URL('results/', import.meta.url))

/** The data directory and events file of a measure run, or why they are missing. */
export function feltInputs(): { dataDir: string | null; eventsFile: string | null } {
  const dataDir = process.env.BENCH_FELT_DATA ?? process.env.BENCH_KEEP_DATA ?? null
  let eventsFile = process.env.BENCH_FELT_EVENTS ?? null
  const dir = process.env.BENCH_EVENTS_DIR
  if (!eventsFile && dir && existsSync(dir)) {
    const files = readdirSync(dir).filter((f) => /^events-[0-9a-f]+\.ndjson$/.test(f)).map((f) => join(dir, f))
    eventsFile = files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0] ?? null
  }
  return { dataDir: dataDir && existsSync(dataDir) ? dataDir : null, eventsFile: eventsFile && existsSync(eventsFile) ? eventsFile : null }
}

/** The campaign with the most events, its token and the day the screens are shown on (untimed start). */
async function campaignOf(dataDir: string): Promise<{ campaignId: string; name: string; events: number; token: string; today: string }> {
  const s = await serveOn(dataDir, { cpu: SERVER_CPU })
  try {
    const api = new Api(s.url)
    const token = await api.login()
    const status = await api.get<{ campaigns: { campaign_id: string; events: number }[] }>('/local/v1/measurement/status')
    const top = [...status.campaigns].sort((a, b) => b.events - a.events)[0]
    if (!top) throw new Error(`no campaign of ${dataDir} has events`)
    const c = await api.get<{ campaign_name: string; end_date: string }>('/cms/v1/campaigns/show', { campaign_id: top.campaign_id })
    return { campaignId: top.campaign_id, name: c.campaign_name, events: top.events, token, today: dayAfter(c.end_date) }
  } finally {
    await s.stop()
  }
}

/** A row's figures, or null when it failed (said by `say`): the other rows are still measured and printed. */
async function failed<T>(row: Promise<T>, say: (error: string) => void): Promise<T | null> {
  try {
    return await row
  } catch (e) {
    say(`failed: ${(e as Error).message.split('\n')[0]!.slice(0, 300)}`)
    console.error(e)
    return null
  }
}

const ms = (x: number) => `${int(x)} ms`
const pct = (x: number | undefined) => (x === undefined ? '?' : `${Math.round(x)}%`)

function printTabs(title: string, tabs: TabTime[]): void {
  console.log(`  ${title}`)
  for (const t of tabs) {
    const reqs = t.requests.map((r) => `${r.path.replace(/^\/(admonitor\/v1|local\/v1)\/reports\//, '')} ${ms(r.ms)} (first byte ${ms(r.waitMs)})`).join('; ')
    const cpu = t.serverCpuMs === undefined ? '' : `server CPU ${ms(t.serverCpuMs)}; `
    console.log(`    ${t.view.padEnd(9)} ${ms(t.ms).padStart(9)}  ${t.state.padEnd(7)} ${cpu}${reqs || 'no request'}`)
  }
}

function printResults(first: FirstReportRun[], tabs: TabsRun | null, search: SearchRun | null, why: Why): ReturnType<typeof feltVerdicts> {
  const m = machineOf()
  console.log('\n' + '='.repeat(124))
  console.log(`WHAT THE USER FEELS  ${machineLine(m)}; server ${HAS_TASKSET ? `pinned to CPU ${SERVER_CPU}` : 'not pinned'}`)
  const med = (f: (r: FirstReportRun) => number) => ms(median(first.map(f)))
  console.log(`\n1. First report after a start (median of ${first.length}): ${med((r) => r.totalMs)} from spawning npm run serve to the Reports screen's trend answered ` +
    `(runs ${first.map((r) => ms(r.totalMs)).join(', ')}); listening at ${med((r) => r.listeningMs)} (then reading the events took ${med((r) => r.eventsReadMs ?? NaN)}, the server says), ` +
    `the screen's context answered at ${med((r) => r.contextMs)}; server CPU to the first report ${med((r) => r.serverCpuMs ?? NaN)}; ` +
    `${first[0]?.requests.length ?? 0} requests: ${first[0]?.requests.join(', ') ?? ''}`)
  if (tabs) {
    console.log(`\n2. Reports tabs in headless Chromium, click -> figures shown (the screen opened in ${ms(tabs.openMs)}; other processes, Chromium's included, ${pct(tabs.otherPct)} of a core):`)
    printTabs('cold (first visit after the start)', tabs.cold)
    printTabs('warm (second visit)', tabs.warm)
  } else console.log(`\n2. Reports tabs: not measured (${why.tabs ?? ''})`)
  if (search) {
    const l = (x: SearchRun['idle']) => `p50 ${ms(x.p50)}, p95 ${ms(x.p95)}, max ${ms(x.max)} (${x.n} searches)`
    console.log(`\n3. campaigns/list search, ${search.perS}/s over ${int(search.campaigns + 1)}+ campaigns: idle ${l(search.idle)}; during the import ${l(search.importing)}; ` +
      `p95 ${(search.importing.p95 / search.idle.p95).toFixed(1)}x idle${search.failed ? `; ${search.failed} failed: ${search.failure ?? ''}` : ''}; ` +
      `other processes ${pct(search.otherPct.idle)} of a core idle, ${pct(search.otherPct.importing)} during the import`)
    const i = search.import
    console.log(`   the import: ${int(i.imported)} events (${int(i.rejected)} rejected) from ${MiB(i.bytes)} in ${i.pieces} requests, ${i.seconds.toFixed(1)} s (${int(i.imported / i.seconds)} events/s)`)
  } else console.log(`\n3. Search during an import: not measured (${why.search ?? ''})`)
  const verdicts = feltVerdicts({ firstReportMs: first.length ? median(first.map((r) => r.totalMs)) : null, cold: tabs?.cold ?? [], warm: tabs?.warm ?? [], search })
  printVerdictLines(`TARGETS (what the user feels: absolute, bench/README.md "What the user feels"; ${machineLine(m)})`, verdicts)
  return verdicts
}

/** Why a row was not measured. */
type Why = { tabs?: string; search?: string }
type CampaignOf = Awaited<ReturnType<typeof campaignOf>>

/** Row 2, or null with the reason in `why` (no Chromium, a failure). */
async function tabsRow(dataDir: string, c: CampaignOf, why: Why): Promise<TabsRun | null> {
  const cannot = cannotRun()
  if (cannot) {
    why.tabs = cannot
    return null
  }
  console.log('  2. Reports tabs in headless Chromium (building the web interface when its sources changed) ...')
  const run = async () => {
    const ui = join(buildApp(), 'renderer')
    await waitForQuiet('the tabs')
    return reportTabs(dataDir, ui, c.campaignId, c.today, SERVER_CPU)
  }
  return failed(run(), (e) => (why.tabs = e))
}

/** Row 3 on a fresh copy of the data directory, or null with the reason in `why`. */
async function searchRow(inputs: ReturnType<typeof feltInputs>, work: string, why: Why): Promise<SearchRun | null> {
  if (!inputs.eventsFile) {
    why.search = 'no events file: BENCH_FELT_EVENTS, or BENCH_EVENTS_DIR holding the measure run\'s'
    return null
  }
  console.log(`  3. search during the import of ${inputs.eventsFile} (on a fresh copy of the data) ...`)
  const copy = join(work, 'search-data')
  cpSync(inputs.dataDir!, copy, { recursive: true })
  await waitForQuiet('the searches')
  return failed(searchDuringImport(copy, inputs.eventsFile, SERVER_CPU), (e) => (why.search = e))
}

export async function runFeltBench(): Promise<void> {
  console.log(`\nAdMonitor Desk: what the user feels  ${new Date().toISOString()}`)
  const inputs = feltInputs()
  if (!inputs.dataDir) {
    console.log('  skipped: no data directory of a measure run (BENCH_FELT_DATA, or BENCH_KEEP_DATA=DIR npm run bench -- measure first)')
    return
  }
  const work = mkdtempSync(join(tmpdir(), 'admonitor-felt-'))
  mkdirSync(RESULTS, { recursive: true })
  try {
    const dataDir = join(work, 'data')
    cpSync(inputs.dataDir, dataDir, { recursive: true })
    const c = await campaignOf(dataDir)
    console.log(`  data: a copy of ${inputs.dataDir}; campaign ${c.campaignId} (${c.name}), ${int(c.events)} events; the screens are shown as on ${c.today}, the day after its end`)

    console.log(`\n  1. first report after a start (${STARTS} starts) ...`)
    await waitForQuiet('the starts')
    const first: FirstReportRun[] = []
    for (let i = 0; i < STARTS; i++) first.push(await firstReport(dataDir, c.campaignId, c.token, c.today, { cpu: SERVER_CPU }))

    const why: Why = {}
    const tabs = await tabsRow(dataDir, c, why)
    rmSync(dataDir, { recursive: true, force: true })
    const search = await searchRow(inputs, work, why)

    const verdicts = printResults(first, tabs, search, why)
    const file = join(RESULTS, `felt-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    writeFileSync(file, JSON.stringify({ machine: machineOf(), campaign: { ...c, token: undefined }, verdicts, firstReport: { medianMs: median(first.map((r) => r.totalMs)), runs: first }, tabs, search, notMeasured: why }, null, 2))
    console.log(`\nwritten ${file}`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
