/**
 * `npm run bench -- measure`: the measurement engine at 10 million events, against
 * baselines measured in the same run (bench/README.md, "measure"):
 *   1. ingest over HTTP: /x/ tracking hits at 50 connections, engine vs a bare node:http server
 *      answering the same GIF bytes and headers;
 *   2. batch import: the CLI `admonitor import` of a generated 10M-event NDJSON file;
 *   3. reports: basic, reach and audience over HTTP, cold and cached, against DuckDB computing
 *      the same figures from the same raw events, with a check that the numbers are identical;
 *   4. memory (peak RSS) and startup (spawn to the first report answer).
 * Exits 0 whether targets pass or miss: it is a measurement.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHash, randomUUID } from 'node:crypto'
import { isbot } from 'isbot'
import { Attributor } from '../engine/measure/attribute'
import { isDataCentreIsp } from '../engine/measure/attribute/ivt'
import { regionTable } from '../engine/reference/region-table'
import { HAS_TASKSET, startChild, type Child } from './children'
import { cpuMsOf, OtherCpu, waitForQuiet } from './cpu'
import { GLOBAL_REGION, audienceSql, basicSql, loadDuck, reachSql, timeQuery, type Duck, type DuckInputs, type Window } from './measure-duck'
import { Rng, uuid, writeEventFile, type EventFileInfo, type EventPlan } from './measure-events'
import { Api, call, closeAgent } from './measure-http'
import { compareReport, printImport, printIngest, printMemoryStartup, printReports, type ImportFigures, type IngestPrint, type ReportFigures } from './measure-report'
import { machineLine, machineOf } from './machine'
import { hotFunctions } from './profile'
import type { ClientCommand, ClientGot, HotFunction, ServerReady, ServerStats } from './protocol'
import { readDataDir, timeCat } from './read-files'
import { int, MiB, passMiss } from './report'
import { CONNECTIONS, DURATION_S, env, runLoadRow, WARMUP_S } from './rows'
import { median, startAndAnswer, type StartupRun } from './startup'
import { printVerdictLines } from './targets'
import { HAS_WRK } from './wrk'

const EVENTS = env('BENCH_MEASURE_EVENTS', 10_000_000)
const IDENTITIES = env('BENCH_MEASURE_IDENTITIES', 1_000_000)
const SPOTS = 200
const PUBLISHERS = ['Tencent Video', 'iQIYI', 'Youku', 'Weibo', 'Baidu']
const PERSONS = 20_000
const REPORT_RUNS = env('BENCH_REPORT_RUNS', 20)
const DUCK_THREADS = env('BENCH_DUCKDB_THREADS', cpus().length)
const STARTUP_RUNS = 3
const SEED = 20991
const SERVER_CPU = 0
const LOAD_CPU = 1
const START = '2099-03-01'
const END = '2099-03-30'
const DATE = END
const DAYS = 30
const ZONE_OFFSET_MS = 8 * 3_600_000
const PROFILE = process.env.BENCH_CPU_PROF === '1'
/** Where to keep the run's data directory (campaign, panel, event log, checkpoint) instead of deleting it (read when the run ends: bench/index.ts sets it for the felt part). */
const keepData = (): string | undefined => process.env.BENCH_KEEP_DATA
const RESULTS = fileURLToPath(new URL('results/', import.meta.url))
const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))

/** Cloud addresses (the IP library names a hosting ISP) and ordinary ones, for lines located by `ip`. */
const DC_IPS = ['47.96.1.1', '47.92.10.10', '47.100.3.3', '47.74.1.1', '119.29.29.29', '119.28.1.1', '139.196.1.1', '120.55.1.1', '106.14.1.1', '101.132.1.1', '121.40.1.1', '182.92.1.1', '39.96.1.1', '42.120.1.1', '118.31.1.1']
const PLAIN_IPS = ['114.114.114.114', '52.80.1.1', '54.222.1.1', '1.1.1.1']
const BOT_AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)',
]
/** The agent of the ingest's hits: an in-app web view on an iPhone (a real app's impression). */
const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
const TARGETS = [
  { name: 'men', tag_id: 'male' },
  { name: 'women 25-34', tag_id: 'female&25-29Y,30-34Y' },
  { name: 'first-tier graduates', tag_id: 'tier-1,tier-new1&edu-bachelor,edu-master-plus' },
]

interface Spot {
  spot_id: string
  spot_id_str: string
  publisher_id: string
  dangerous_source_filtration?: number
  tracking_tags: { impression_url: string }
}

interface Setup {
  api: Api
  campaignId: number
  ingestCampaignId: number
  panelId: string
  spots: Spot[]
  ingestSpots: Spot[]
  /** A spot of the measured campaign with the mma tag (the cold report rows' hits). */
  measuredTag: Spot
  targets: { target_id: string; tag_id: string }[]
  regions: { region_id: string; parent_id: string; level: number }[]
  panelTags: string[]
  personsFile: string
  devices: { device: string; platform: 'pc' | 'mb' }[]
  generated: { persons: number; devices: number }
}

/** Reads `file` once, untimed, so that the import and DuckDB's load both read it from the page cache. */
function intoCache(file: string): void {
  const ms = timeCat([file])
  console.log(`  events file read into the page cache in ${(ms / 1000).toFixed(1)} s (untimed: the import and DuckDB's load both read it from there)`)
}

/** VmHWM (peak) and VmRSS (now) of a Linux process, in bytes. */
function memoryOf(pid: number | undefined): { peak: number; rss: number } | null {
  if (pid === undefined || process.platform !== 'linux') return null
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? 0) * 1024
    return { peak: kb('VmHWM'), rss: kb('VmRSS') }
  } catch {
    return null
  }
}


/** A tracking path of a spot's impression code with the media's macros filled (device id, address, OS). */
function trackingPath(spot: Spot, idfa: string, ip: string): string {
  const url = spot.tracking_tags.impression_url
  return url.slice(url.indexOf('/x/')).replace('__IDFA__', idfa).replace('__IP__', ip).replace('__OS__', '1')
}

async function setUp(api: Api, work: string): Promise<Setup> {
  await api.login()
  const campaign = await api.post<{ campaign_id: string }>('/cms/v1/campaigns/create', { campaign_name: 'bench measure campaign', start_date: START, end_date: END, platform: 'pm' })
  const campaignId = Number(campaign.campaign_id)
  const spotItems = Array.from({ length: SPOTS }, (_, i) => ({
    publisher_name: PUBLISHERS[i % PUBLISHERS.length]!, channel_name: ['news', 'video', 'homepage'][i % 3]!, placement_name: `placement ${String(i).padStart(3, '0')}`,
    landing_page: `https://example.com/landing/${i}`, dangerous_source_filtration: i % 4 === 0 ? 0 : 1,
  }))
  await api.postJson('/cms/v1/campaigns/batch_create_spot_with_plan', { campaign_id: String(campaignId), spots: spotItems })
  // (the ingest campaign runs today, so its hits take the path of counted hits: a hit outside its
  // campaign's dates is recorded and answered 0)
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10)
  const inAMonth = new Date(Date.now() + 8 * 3_600_000 + 29 * 86_400_000).toISOString().slice(0, 10)
  const ingest = await api.post<{ campaign_id: string }>('/cms/v1/campaigns/create', { campaign_name: 'bench ingest campaign', start_date: today, end_date: inAMonth, platform: 'pm' })
  const ingestCampaignId = Number(ingest.campaign_id)
  await api.postJson('/cms/v1/campaigns/batch_create_spot_with_plan', {
    campaign_id: String(ingestCampaignId), spots: Array.from({ length: 20 }, (_, i) => ({ publisher_name: PUBLISHERS[i % PUBLISHERS.length]!, channel_name: 'app', placement_name: `ingest ${i}` })),
  })
  const show = await api.get<{ linked_panels: string[] }>('/cms/v1/campaigns/show', { campaign_id: campaignId })
  const panelId = show.linked_panels[0]!
  const generated = await api.post<{ persons: number; devices: number }>('/local/v1/panels/generate', { panel_id: panelId, persons: PERSONS, seed: SEED })
  for (const t of TARGETS) await api.post('/cms/v1/campaigns/publish_target', { campaign_id: campaignId, target_name: t.name, tag_id: t.tag_id })
  const spots = await api.get<Spot[]>('/cms/v1/campaigns/list_spots', { campaign_id: campaignId, show_filtration_status: 1, limit: '0,500' })
  const ingestSpots = await api.get<Spot[]>('/cms/v1/campaigns/list_spots', { campaign_id: ingestCampaignId, code_type: 'mma', limit: '0,500' })
  const [measuredTag] = await api.get<Spot[]>('/cms/v1/campaigns/list_spots', { campaign_id: campaignId, code_type: 'mma', limit: '0,1' })
  const targets = await api.get<{ target_id: string; tag_id: string }[]>('/cms/v1/campaigns/list_targets', { campaign_id: campaignId, show_tag: 1 })
  const regions = await api.get<{ region_id: string; parent_id: string; level: number }[]>('/cms/v1/regions/list', { limit: '0,500' })
  const panel = await api.get<{ tag_list: { tag_id: string }[] }>('/cms/v1/panels/show', { panel_id: panelId })
  const persons = await api.text('/local/v1/panels/persons/export', { panel_id: panelId, format: 'ndjson' })
  const personsFile = join(work, 'persons.ndjson')
  writeFileSync(personsFile, persons)
  const devices = persons.split('\n').filter((l) => l.trim() !== '').flatMap((l) => (JSON.parse(l) as { devices?: { device: string; platform: 'pc' | 'mb' }[] }).devices ?? [])
  return { api, campaignId, ingestCampaignId, panelId, spots, ingestSpots, measuredTag: measuredTag!, targets, regions, panelTags: panel.tag_list.map((t) => t.tag_id), personsFile, devices, generated }
}

/**
 * Whether a hit's answer says it was recorded: counted, or dated outside its campaign's days (the
 * cache-busting hits: dated today, outside the measured campaign's 2099 window, so its figures
 * stay those DuckDB computes, while the measurement's version changes).
 */
const recorded = (counted: unknown): boolean => counted === '1' || (typeof counted === 'string' && counted.startsWith("0; outside the campaign's dates"))

// ---------------------------------------------------------------------------------------------
// 1. Ingest over HTTP

type IngestFigures = IngestPrint

async function ingest(engine: Child, setup: Setup, work: string): Promise<IngestFigures> {
  const rng = new Rng(SEED)
  const r = () => rng.next()
  const devices = Array.from({ length: 20_000 }, () => uuid(rng).toUpperCase())
  const ips = Array.from({ length: 2_000 }, () => `${[36, 58, 59, 60, 61, 101, 106, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 180, 182, 183, 202, 218, 219, 220, 221, 222][Math.floor(r() * 32)]}.${1 + Math.floor(r() * 254)}.${Math.floor(r() * 256)}.${1 + Math.floor(r() * 254)}`)
  const paths = Array.from({ length: 50_000 }, (_, k) => trackingPath(setup.ingestSpots[k % setup.ingestSpots.length]!, devices[(k * 7919) % devices.length]!, ips[(k * 104_729) % ips.length]!))
  const engineUrl = setup.api.base
  const probe = await call(engineUrl + paths[0]!, 'GET', undefined, undefined, { 'user-agent': APP_AGENT })
  if (probe.status !== 200 || probe.headers['x-admonitor-counted'] !== '1') throw new Error(`tracking hit answered ${probe.status}, counted '${String(probe.headers['x-admonitor-counted'])}'`)
  // The bare baseline answers every /x/ request with the exact bytes and content headers the engine sent.
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(probe.headers)) if (typeof v === 'string' && !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v
  writeFileSync(join(work, 'pixel.gif'), probe.body)
  writeFileSync(join(work, 'pixel.json'), JSON.stringify({ '/x/': { file: join(work, 'pixel.gif'), headers } }))
  const bare = startChild('server-bare.ts', [join(work, 'pixel.json')], { cpu: SERVER_CPU })
  const loader = startChild('load.ts', [], { cpu: LOAD_CPU })
  try {
    const bareUrl = `http://127.0.0.1:${(await bare.next<ServerReady>('ready')).port}`
    const common = { paths, drainPath: paths[0]!, headers: { 'user-agent': APP_AGENT } }
    const b = await runLoadRow(loader, { label: 'ingest bare', server: bare, url: bareUrl, ...common })
    const e = await runLoadRow(loader, { label: 'ingest engine', server: engine, url: engineUrl, ...common, ...(PROFILE ? { profileFile: join(RESULTS, 'measure-ingest.cpuprofile') } : {}) })
    const status = await setup.api.get<{ campaigns: { campaign_id: string; events: number }[] }>('/local/v1/measurement/status')
    const recorded = status.campaigns.find((c) => Number(c.campaign_id) === setup.ingestCampaignId)?.events ?? 0
    return { bare: b.result, engine: e.result, gifBytes: probe.body.length, paths: paths.length, recorded, ...(e.profile ? { hot: e.profile.hot } : {}) }
  } finally {
    await Promise.all([bare.stop(), loader.stop()])
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Events file and batch import

function eventPlan(setup: Setup): EventPlan {
  const cities = setup.regions.filter((x) => x.level === 2).map((x) => x.region_id).filter((_, i) => i % 10 !== 3)
  const provinces = setup.regions.filter((x) => x.level === 1).map((x) => x.region_id).slice(0, 5)
  return {
    seed: SEED, events: EVENTS, identities: IDENTITIES, campaignId: setup.campaignId, spotIds: setup.spots.map((s) => Number(s.spot_id)),
    cities, otherRegions: [...provinces, GLOBAL_REGION, '000000000000000000000008'], panelDevices: setup.devices, panelShare: 0.02,
    startDay: START, days: DAYS, zoneOffsetMs: ZONE_OFFSET_MS, dcIps: DC_IPS, plainIps: PLAIN_IPS, botAgents: BOT_AGENTS, botIdentities: 300, bursts: 600,
  }
}

/** The events file: generated into the run's directory, or reused from BENCH_EVENTS_DIR when it is there. */
function eventsFile(plan: EventPlan, work: string): { file: string; info: EventFileInfo; reused: boolean } {
  const keep = process.env.BENCH_EVENTS_DIR
  const key = createHash('sha256').update(JSON.stringify(plan)).digest('hex').slice(0, 16)
  const dir = keep ?? work
  const file = join(dir, `events-${key}.ndjson`)
  const infoFile = `${file}.json`
  if (keep && existsSync(file) && existsSync(infoFile)) return { file, info: JSON.parse(readFileSync(infoFile, 'utf8')) as EventFileInfo, reused: true }
  mkdirSync(dir, { recursive: true })
  const info = writeEventFile(plan, file)
  if (keep) writeFileSync(infoFile, JSON.stringify(info))
  return { file, info, reused: false }
}

/** `admonitor import FILE --data-dir DIR` as a user runs it; its peak RSS sampled from /proc. */
async function runCliImport(file: string, dataDir: string): Promise<ImportFigures> {
  const prof = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', RESULTS, '--cpu-prof-name', 'measure-import.cpuprofile'] : []
  const t0 = performance.now()
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', join(ROOT, 'bin', 'admonitor.ts'), 'import', file, '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  let out = ''
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  let peak = 0
  let childCpu = 0
  const other = new OtherCpu(() => [], () => childCpu)
  const sample = setInterval(() => {
    peak = Math.max(peak, memoryOf(child.pid)?.peak ?? 0)
    childCpu = cpuMsOf(child.pid) ?? childCpu
  }, 100)
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)))
  clearInterval(sample)
  const otherPct = other.pct()
  const wallS = (performance.now() - t0) / 1000
  const summary = /(\d+) events imported, (\d+) rejected(?:, \d+ repeats[^,]*)?, in ([\d.]+) s/.exec(err)
  if (code !== 0 || !summary) throw new Error(`admonitor import exited ${code}: ${err.slice(-2000)}${out.slice(-500)}`)
  const errors = err.split('\n').filter((l) => l.startsWith('  line ')).slice(0, 5)
  const imported = Number(summary[1])
  const seconds = Number(summary[3])
  const hot = PROFILE && existsSync(join(RESULTS, 'measure-import.cpuprofile')) ? hotFunctions(JSON.parse(readFileSync(join(RESULTS, 'measure-import.cpuprofile'), 'utf8')), 12) : undefined
  const busy = /main thread busy (\d+)%/.exec(err)
  return {
    imported, rejected: Number(summary[2]), seconds, wallS, peakRss: peak, errors, ...(busy ? { mainBusyPct: Number(busy[1]) } : {}), ...(childCpu > 0 ? { cpuMs: childCpu } : {}),
    ...(hot ? { hot } : {}), ...(otherPct === undefined ? {} : { otherPct }),
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Reports

interface ReportSpec {
  name: string
  title: string
  path: string
  params: Record<string, string | number>
  sql: string
  keys: string[]
  attributes: string[]
  /** A panel report: also timed after hits of a panel person (the panel counts kept for it made again). */
  panel?: boolean
}

function reportSpecs(setup: Setup, w: Window): ReportSpec[] {
  const c = { campaign_id: setup.campaignId, date: DATE }
  return [
    { name: 'basic', title: 'basic/show spot x level2, all, pm', path: '/admonitor/v1/reports/basic/show',
      params: { ...c, by_position: 'spot', by_region: 'level2', metrics: 'all', platform: 'pm' },
      sql: basicSql(w), keys: ['spot_id', 'region_id'], attributes: ['publisher_id', 'universe'] },
    { name: 'reach', title: 'reach/show target, publisher x level1, pm', path: '/admonitor/v1/reports/reach/show',
      params: { ...c, by_audience: 'target', by_position: 'publisher', by_region: 'level1', metrics: 'all', platform: 'pm' },
      sql: reachSql(w, setup.targets, setup.panelTags), keys: ['target_id', 'publisher_id', 'region_id'], attributes: ['universe'], panel: true },
    { name: 'audience', title: 'audience/show publisher, all tags', path: '/admonitor/v1/reports/audience/show',
      params: { ...c, by_position: 'publisher', metrics: 'all' },
      sql: audienceSql(w), keys: ['publisher_id', 'tag_id'], attributes: [], panel: true },
  ]
}

interface EngineTimes {
  first: number
  cold: number[]
  /** Panel reports: cold answers after a hit of a panel person's device (the kept panel counts count afresh). */
  coldPanel?: number[]
  cached: number[]
  bytes: number
  /** Distinct body lengths seen over the cold and cached answers (1: every answer the same size). */
  sizes: number
  answer: Buffer
  hot?: HotFunction[]
}

/** One answer the report client received (the body itself only when asked for). */
interface Got {
  status: number
  headers: Record<string, string | string[] | undefined>
  ms: number
  bytes: number
  body?: Buffer
  /** The body's first 300 characters of an answer other than 200. */
  start?: string
}

/** The report client (bench/report-client.ts), a process of its own on the load generator's core. */
interface ReportClient {
  child: Child
  get(url: string, headers?: Record<string, string>, keepBody?: boolean): Promise<Got>
}

async function reportClient(work: string): Promise<ReportClient> {
  const child = startChild('report-client.ts', [], { cpu: LOAD_CPU })
  await child.next('ready', 60_000)
  const file = join(work, 'client-answer.bin')
  return {
    async get(url, headers, keepBody = false) {
      child.send({ type: 'get', url, ...(headers ? { headers } : {}), ...(keepBody ? { keep: file } : {}) } satisfies ClientCommand)
      const g = await child.next<ClientGot>('got')
      if (g.status === 0) throw new Error(`report client: ${g.start ?? 'no answer'} (${url.split('?')[0]})`)
      return { status: g.status, headers: g.headers, ms: g.ms, bytes: g.bytes, ...(keepBody && g.status === 200 ? { body: readFileSync(file) } : {}), ...(g.start !== undefined ? { start: g.start } : {}) }
    },
    child,
  }
}

/**
 * Times a bare node:http server, on the engine's core, sending each report's answer bytes as the
 * engine sent them (same content headers), `REPORT_RUNS` times after one untimed, as timeEngine
 * times the engine: what sending the answer alone takes over this connection.
 */
async function timeSending(work: string, client: ReportClient, specs: ReportSpec[], answers: EngineTimes[]): Promise<number[][]> {
  const manifest: Record<string, { file: string; headers: Record<string, string> }> = {}
  specs.forEach((spec, i) => {
    const file = join(work, `answer-${spec.name}.json`)
    writeFileSync(file, answers[i]!.answer)
    manifest[spec.path] = { file, headers: { 'content-type': 'application/json; charset=utf-8' } }
  })
  writeFileSync(join(work, 'answers.json'), JSON.stringify(manifest))
  const bare = startChild('server-bare.ts', [join(work, 'answers.json')], { cpu: SERVER_CPU })
  try {
    const base = `http://127.0.0.1:${(await bare.next<ServerReady>('ready')).port}`
    const out: number[][] = []
    for (const spec of specs) {
      const get = async () => {
        const a = await client.get(base + spec.path)
        if (a.status !== 200) throw new Error(`bare server answered ${a.status} for ${spec.path}`)
        return a.ms
      }
      await get()
      const ms: number[] = []
      for (let i = 0; i < REPORT_RUNS; i++) ms.push(await get())
      out.push(ms)
    }
    return out
  } finally {
    await bare.stop()
  }
}

/**
 * Times one report on the engine: the first answer (after startup: a pass over every event of the
 * campaign), then `runs` cold answers, then `runs` answers of the same URL (the answer cache).
 * Before each cold answer, one tracking hit on the measured campaign adds an event to it and
 * changes the measurement version, so the answer cache (engine/dispatch/steps/answer-cache.ts), keyed by that
 * version, cannot answer: the report is computed again over the grown partition (basic/show from
 * its kept census brought up to date, reports/census-cache.ts; as the hit changes no cell of the
 * answer, its items are the text kept with the census, reports/kept-items.ts, and the first answer
 * is the one that passes over every event; reach and audience from the panel counts kept while no
 * panel person's event came, reports/persons.ts). The hit is dated today, outside the campaign's
 * 2099 window, so the numbers stay those DuckDB computes. Panel reports are then timed `runs`
 * times more after a hit of a panel person's device (`panelBust`), which makes those panel counts
 * count afresh: the cold answer when the hits include panel persons'.
 */
async function timeEngine(server: Child, client: ReportClient, api: Api, spec: ReportSpec, bust: () => string, panelBust: () => string): Promise<EngineTimes> {
  const url = api.url(spec.path, spec.params)
  const get = async (keep = false): Promise<Got> => {
    const a = await client.get(url, undefined, keep)
    if (a.status !== 200) throw new Error(`${spec.path} answered ${a.status}: ${a.start ?? ''}`)
    return a
  }
  const first = await get(true)
  const sizes = new Set<number>([first.bytes])
  const cold: number[] = []
  if (PROFILE) server.send({ type: 'profile-start' })
  for (let i = 0; i < REPORT_RUNS; i++) {
    const hit = await client.get(bust(), { 'user-agent': APP_AGENT })
    if (!recorded(hit.headers['x-admonitor-counted'])) throw new Error(`cache-busting hit not counted: ${String(hit.headers['x-admonitor-counted'])}`)
    const a = await get()
    cold.push(a.ms)
    sizes.add(a.bytes)
  }
  const coldPanel: number[] = []
  for (let i = 0; spec.panel && i < REPORT_RUNS; i++) {
    const hit = await client.get(panelBust(), { 'user-agent': APP_AGENT })
    if (!recorded(hit.headers['x-admonitor-counted'])) throw new Error(`panel cache-busting hit not counted: ${String(hit.headers['x-admonitor-counted'])}`)
    const a = await get()
    coldPanel.push(a.ms)
    sizes.add(a.bytes)
  }
  let hot: HotFunction[] | undefined
  if (PROFILE) {
    server.send({ type: 'profile-stop', file: join(RESULTS, `measure-report-${spec.name}.cpuprofile`) })
    hot = (await server.next<{ type: 'profiled'; hot: HotFunction[] }>('profiled')).hot
  }
  const cached: number[] = []
  for (let i = 0; i < REPORT_RUNS; i++) {
    const a = await get()
    cached.push(a.ms)
    sizes.add(a.bytes)
  }
  return { first: first.ms, cold, ...(spec.panel ? { coldPanel } : {}), cached, bytes: first.bytes, sizes: sizes.size, answer: first.body!, ...(hot ? { hot } : {}) }
}

// ---------------------------------------------------------------------------------------------

export async function runMeasureBench(): Promise<void> {
  const started = performance.now()
  const stamp = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`
  console.log(`\nAdMonitor Desk measure bench  ${new Date().toISOString()}`)
  const m = machineOf()
  console.log(`machine: ${machineLine(m)}; ${int(EVENTS)} events, ${int(IDENTITIES)} identities, ${SPOTS} spots, ${PERSONS} panel persons; ` +
    `load: ${HAS_WRK ? 'wrk' : 'autocannon'}, ${HAS_TASKSET ? `engine pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU}` : 'no taskset'}`)
  const work = mkdtempSync(join(tmpdir(), 'admonitor-measure-'))
  const dataDir = join(work, 'data')
  mkdirSync(RESULTS, { recursive: true })
  const children: Child[] = []
  let duck: Duck | null = null
  try {
    // Set-up over HTTP, and the ingest rows, on one engine server with its event log.
    console.log(`\n[${stamp()}] set-up: campaign, ${SPOTS} spots, panel of ${PERSONS} persons, ${TARGETS.length} targets (over HTTP) ...`)
    const first = startChild('server-engine.ts', [dataDir, 'open', 'events'], { cpu: SERVER_CPU })
    children.push(first)
    const ready = await first.next<ServerReady>('ready', 60_000)
    const setup = await setUp(new Api(`http://127.0.0.1:${ready.port}`), work)
    console.log(`  campaign ${setup.campaignId} (panel ${setup.panelId}: ${int(setup.generated.persons)} persons, ${int(setup.generated.devices)} devices); ingest campaign ${setup.ingestCampaignId}`)
    console.log(`\n[${stamp()}] 1. ingest over HTTP (/x/ hits, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s) ...`)
    await waitForQuiet('the ingest rows')
    const ing = await ingest(first, setup, work)
    await first.stop()
    children.splice(children.indexOf(first), 1)

    console.log(`\n[${stamp()}] generating the events file ...`)
    const plan = eventPlan(setup)
    const ev = eventsFile(plan, work)
    const size = statSync(ev.file).size
    console.log(`  ${ev.reused ? 'reused' : `generated in ${(ev.info.ms / 1000).toFixed(1)} s`}: ${int(ev.info.lines)} lines, ${MiB(size)} (${ev.file})`)

    console.log(`\n[${stamp()}] 2. batch import: admonitor import (CLI) ...`)
    intoCache(ev.file)
    await waitForQuiet('the import')
    const imp = await runCliImport(ev.file, dataDir)
    console.log(`  ${int(imp.imported)} imported, ${int(imp.rejected)} rejected in ${imp.seconds.toFixed(1)} s (CLI's own timer); ${imp.wallS.toFixed(1)} s from spawn to exit`)

    console.log(`\n[${stamp()}] 4. startup on the data directory (${STARTUP_RUNS} runs, spawn -> first report answer) ...`)
    const token = setup.api.token
    const startPath = `/admonitor/v1/reports/basic/show?${new URLSearchParams({ campaign_id: String(setup.campaignId), date: DATE, platform: 'pm', metrics: 'acc', access_token: token }).toString()}`
    console.log(`\n[${stamp()}] 4. the start's baseline: cat of the data directory's files ...`)
    const read = readDataDir(dataDir)
    console.log(`  ${int(read.files)} files, ${MiB(read.bytes)}: ${read.coldMs === null ? `cold not measured (${read.notCold ?? ''})` : `cold ${int(read.coldMs)} ms`}, warm ${int(read.warmMs)} ms`)
    await waitForQuiet('the startup runs')
    const startups: StartupRun[] = []
    const startupOther = new OtherCpu(() => [], () => startups.reduce((a, r) => a + (r.serverCpuMs ?? 0), 0))
    let server: Child | null = null
    let port = 0
    for (let i = 0; i < STARTUP_RUNS; i++) {
      const last = i === STARTUP_RUNS - 1
      const nodeArgs = PROFILE && i === 0 ? ['--cpu-prof', '--cpu-prof-dir', RESULTS, '--cpu-prof-name', 'measure-startup.cpuprofile'] : undefined
      const s = await startAndAnswer(dataDir, startPath, SERVER_CPU, { args: ['events'], keep: last, ...(nodeArgs ? { nodeArgs } : {}) })
      startups.push(s.run)
      console.log(`  run ${i + 1}: ${int(s.run.totalMs)} ms (engine open at ${int(s.run.marks.engineOpen)} ms, first answer took ${int(s.run.firstAnswerMs)} ms)`)
      if (last) ((server = s.child), (port = s.port), children.push(s.child))
    }
    const startupHot = PROFILE && existsSync(join(RESULTS, 'measure-startup.cpuprofile')) ? hotFunctions(JSON.parse(readFileSync(join(RESULTS, 'measure-startup.cpuprofile'), 'utf8')), 12) : undefined
    const startupOtherPct = startupOther.pct()
    const afterStart = memoryOf(server!.proc.pid)

    console.log(`\n[${stamp()}] 3. reports on the engine (first, ${REPORT_RUNS} cold, ${REPORT_RUNS} cached each) ...`)
    const api = new Api(`http://127.0.0.1:${port}`)
    api.token = token
    const w: Window = { campaignId: setup.campaignId, from: Date.parse(`${START}T00:00:00Z`) / 86_400_000, to: Date.parse(`${DATE}T00:00:00Z`) / 86_400_000, day: Date.parse(`${DATE}T00:00:00Z`) / 86_400_000, days: DAYS }
    const specs = reportSpecs(setup, w)
    // each busting hit from a device of its own: one device's would pass its 30 impressions in 10
    // minutes and be abnormal (docs/attribution.md), and the hit must count as any other
    const bust = () => api.base + trackingPath(setup.measuredTag, randomUUID().toUpperCase(), '114.114.114.114')
    // devices of panel persons (IDFAs, as the tag's macro takes), in turn: a hit of one makes the panel counts count afresh
    const panelIdfas = setup.devices.filter((d) => d.device.startsWith('idfa:')).slice(0, 20).map((d) => d.device.slice(5).toUpperCase())
    if (panelIdfas.length === 0) throw new Error('the bench panel has no IDFA device')
    let turn = 0
    const panelBust = () => api.base + trackingPath(setup.measuredTag, panelIdfas[turn++ % panelIdfas.length]!, '114.114.114.114')
    await waitForQuiet('the report requests')
    const engineTimes: EngineTimes[] = []
    const serverPid = server!.proc.pid
    const client = await reportClient(work)
    children.push(client.child)
    const reportsOther = new OtherCpu(() => [serverPid, client.child.proc.pid])
    for (const spec of specs) {
      const t = await timeEngine(server!, client, api, spec, bust, panelBust)
      engineTimes.push(t)
      console.log(`  ${spec.name}: first ${int(t.first)} ms, cold p50 ${int(median(t.cold))} ms${t.coldPanel ? `, after a panel person's hit ${int(median(t.coldPanel))} ms` : ''}, cached p50 ${t.cached.length ? median(t.cached).toFixed(1) : '-'} ms, ${MiB(t.bytes)} body`)
    }
    const reportsOtherPct = reportsOther.pct()
    const afterReports = memoryOf(server!.proc.pid)
    server!.send({ type: 'stats' })
    const held = await server!.next<ServerStats>('stats')
    await server!.stop()
    children.splice(children.indexOf(server!), 1)
    const bareTimes = await timeSending(work, client, specs, engineTimes)
    await client.child.stop()
    children.splice(children.indexOf(client.child), 1)
    closeAgent()

    console.log(`\n[${stamp()}] 3. DuckDB: loading the same events file (${DUCK_THREADS} threads) ...`)
    const locator = new Attributor().locator
    const table = regionTable()
    const addresses = [...DC_IPS, ...PLAIN_IPS].map((ip) => {
      const l = locator.locate(ip)
      return { ip, region_id: table[l.region]!.region_id, dc: isDataCentreIsp(l.isp) }
    })
    const duckInputs: DuckInputs = {
      eventsFile: ev.file, personsFile: setup.personsFile, regions: setup.regions, targets: setup.targets, panelTags: setup.panelTags,
      spots: setup.spots.map((s) => ({ spot_id: Number(s.spot_id), publisher_id: s.publisher_id, dsf: s.dangerous_source_filtration ?? 1 })),
      agents: BOT_AGENTS.map((ua) => ({ ua, bot: isbot(ua) })), addresses, zoneOffsetMs: ZONE_OFFSET_MS, threads: DUCK_THREADS,
    }
    if (process.env.BENCH_EVENTS_DIR) {
      // Kept with the events file, so that the DuckDB side can be rerun on its own.
      const persons = `${ev.file}.persons.ndjson`
      writeFileSync(persons, readFileSync(setup.personsFile))
      writeFileSync(`${ev.file}.duck.json`, JSON.stringify({ ...duckInputs, personsFile: persons, window: w, engineAnswers: engineTimes.map((t) => t.answer.length) }))
    }
    intoCache(ev.file)
    duck = await loadDuck(duckInputs)
    console.log(`  loaded and attributed ${int(duck.events)} events, ${int(duck.identities)} identities in ${(duck.loadMs / 1000).toFixed(1)} s (not timed below)`)
    await waitForQuiet('the DuckDB queries')
    const reports: ReportFigures[] = []
    const duckOther = new OtherCpu(() => [])
    for (const [i, spec] of specs.entries()) {
      const d = await timeQuery(duck.conn, spec.sql, REPORT_RUNS)
      const check = compareReport(spec, JSON.parse(engineTimes[i]!.answer.toString('utf8')) as { items: { attributes: Record<string, unknown>; metrics: Record<string, unknown> }[] }, d.rows)
      const { answer: _a, ...engine } = engineTimes[i]!
      reports.push({ name: spec.name, title: spec.title, engine, bareMs: bareTimes[i]!, duckMs: d.ms, check })
      console.log(`  ${spec.name}: DuckDB p50 ${int(median(d.ms))} ms; ${check.match ? 'MATCH' : 'DIFFERENT'} (${int(check.engineRows)} engine rows, ${int(check.duckRows)} DuckDB rows)`)
    }

    const duckOtherPct = duckOther.pct()
    console.log('\n' + '='.repeat(124))
    console.log(`MEASURE RESULTS  ${machineLine(m)}; ${int(EVENTS)} events; total bench time ${stamp().trim()}`)
    const ingestVerdict = printIngest(ing)
    const importVerdict = printImport(imp, ev.info, size, duck.loadMs, duck.loadCpuMs)
    const reported = printReports(reports, { runs: REPORT_RUNS, duckThreads: DUCK_THREADS, duckLoadS: duck.loadMs / 1000, engineOtherPct: reportsOtherPct, duckOtherPct })
    const memVerdicts = printMemoryStartup({ startups, afterStart, afterReports, held, importPeak: imp.peakRss, read, startupHot, importHot: imp.hot, startupOtherPct })
    const verdicts = [importVerdict, ...reported.verdicts, ingestVerdict, ...memVerdicts]
    printVerdictLines(`TARGETS (ratios to baselines measured in this run; bench/README.md, "Targets"; ${machineLine(m)}, bare node:http ${int(ing.bare.rps)} req/s)`, verdicts)
    console.log(`  ${passMiss(reported.numbers)}  report numbers identical to DuckDB's (every value of the ${reports.length} reports; a check, not a ratio)`)
    const file = join(RESULTS, `measure-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    writeFileSync(file, JSON.stringify({
      machine: { ...m, bareReqPerS: ing.bare.rps, bareRow: '/x/ tracking GIF, bare node:http' }, verdicts, numbersMatch: reported.numbers, events: EVENTS, identities: IDENTITIES, eventsFile: { ...ev.info, bytes: size, reused: ev.reused },
      ingest: { ...ing, verdict: ingestVerdict, connections: CONNECTIONS, warmupS: WARMUP_S, durationS: DURATION_S },
      import: { ...imp, verdict: importVerdict },
      reports, duck: { threads: DUCK_THREADS, loadMs: duck.loadMs, loadCpuMs: duck.loadCpuMs },
      memory: { afterStart, afterReports, heldAfterReports: { heapUsed: held.heapUsed, external: held.external }, importPeak: imp.peakRss }, startup: { medianTotalMs: median(startups.map((s) => s.totalMs)), runs: startups, otherCpuPct: startupOtherPct, read },
      otherCpuPct: { import: imp.otherPct, startup: startupOtherPct, engineReports: reportsOtherPct, duckdbQueries: duckOtherPct },
    }, null, 2))
    console.log(`\nwritten ${file}${PROFILE ? `; CPU profiles (measure-*.cpuprofile) in ${RESULTS}` : ''}`)
  } finally {
    duck?.close()
    await Promise.all(children.map((c) => c.stop(3_000)))
    const KEEP_DATA = keepData()
    if (KEEP_DATA && existsSync(dataDir)) {
      rmSync(KEEP_DATA, { recursive: true, force: true })
      renameSync(dataDir, KEEP_DATA)
      console.log(`data directory kept in ${KEEP_DATA} (the bench account of bench/seed.ts)`)
    }
    rmSync(work, { recursive: true, force: true })
  }
}
