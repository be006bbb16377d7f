/**
 * `npm run bench -- contention`: how long a tracking hit takes while the engine does long work
 * (bench/README.md, "contention"). One engine server with its event log; a prober sends /x/ hits
 * one after the other (a fresh device id each, GAP_MS apart) and times each answer, first on the
 * idle server, then while each of these runs through the API:
 *   import    POST /local/v1/events/import of a 64 MiB NDJSON body (the largest the API takes);
 *   simulate  POST /local/v1/simulate/run of SIM_HITS hits;
 *   rebuild   POST /local/v1/measurement/rebuild of everything counted by then;
 *   pull      POST /local/v1/sync/pull/start from a second engine server holding PULL_CAMPAIGNS
 *             campaigns of PULL_SPOTS spots each (the remote service's API, served by this engine).
 * Prints max, p99 and p50 per phase, the ratio of each phase's max and p99 to the idle ones, and
 * checks the counts: every acknowledged hit is counted, and the import imported every line.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { MAX_BODY_BYTES } from '../engine/request'
import { startChild, type Child } from './children'
import { OtherCpu, waitForQuiet } from './cpu'
import { Rng } from './measure-events'
import { Api } from './measure-http'
import type { ServerReady } from './protocol'
import { int, MiB } from './report'
import { env } from './rows'

const SERVER_CPU = 0
const REMOTE_CPU = 1
const GAP_MS = env('BENCH_CONTENTION_GAP_MS', 10)
const IDLE_S = env('BENCH_CONTENTION_IDLE_S', 8)
const SIM_HITS = env('BENCH_CONTENTION_SIM_HITS', 500_000)
const PULL_CAMPAIGNS = env('BENCH_CONTENTION_PULL_CAMPAIGNS', 40)
const PULL_SPOTS = env('BENCH_CONTENTION_PULL_SPOTS', 100)
/** The agent of the probe hits: an in-app web view (a device id, so no cookie check). */
const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
const AGENTS = [APP_AGENT, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36']

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  ms: number
}

/** One request on `agent` (the probe's own keep-alive connection, or a fresh one for the long calls). */
function send(url: string, agent: Agent | false, method = 'GET', body?: Buffer | string, type?: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const extra = body === undefined ? {} : { 'content-type': type ?? 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) }
    const req = request(url, { method, agent, headers: { ...headers, ...extra } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0 }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

const form = (params: Record<string, string | number>) => new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))).toString()

/** Latencies of the hits of one phase. */
interface Phase {
  name: string
  what: string
  hits: number[]
  /** How long the work took (the idle phase: its duration). */
  workMs: number
  /** Other processes' CPU meanwhile, in % of one core (undefined off Linux). */
  otherPct: number | undefined
}

/**
 * Sends hits one after the other until `work` settles (or IDLE_S without work); every answer must
 * say the hit was counted. Returns the latencies and how many hits were acknowledged.
 */
async function probe(tag: string, name: string, what: string, work: (() => Promise<string>) | null, pids: () => (number | undefined)[]): Promise<Phase> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const other = new OtherCpu(pids)
  const hits: number[] = []
  let done = false
  const t0 = performance.now()
  let said = what
  const running = work ? work().then((s) => (said = s)).finally(() => (done = true)) : new Promise<void>((r) => setTimeout(r, IDLE_S * 1000)).then(() => (done = true))
  try {
    while (!done) {
      const r = await send(tag.replace('__IDFA__', randomUUID().toUpperCase()), agent, 'GET', undefined, undefined, { 'user-agent': APP_AGENT })
      if (r.status !== 200 || r.headers['x-admonitor-counted'] !== '1') throw new Error(`a probe hit answered ${r.status}, counted '${String(r.headers['x-admonitor-counted'])}'`)
      hits.push(r.ms)
      await new Promise((r) => setTimeout(r, GAP_MS))
    }
    await running
  } finally {
    agent.destroy()
  }
  return { name, what: said, hits, workMs: performance.now() - t0, otherPct: other.pct() }
}

/**
 * An NDJSON body of at most MAX_BODY_BYTES: lines of the campaign's spots dated today before now,
 * a third with a device id, the rest identified by address and user agent (the attributor's
 * keyed hash, region and bot checks: the heavier lines).
 */
function importBody(campaign: number, spots: number[], now: number): { body: Buffer; lines: number } {
  const rng = new Rng(20991)
  const parts: string[] = []
  let bytes = 0
  const dayStart = now - ((now + 8 * 3_600_000) % 86_400_000)
  for (let i = 0; ; i++) {
    const spot = spots[rng.u32() % spots.length]!
    const ts = dayStart + ((i * 7919) % Math.max(1, now - dayStart))
    const who = i % 3 === 0 ? { identity: `idfa:${uuidOf(rng)}` } : { ip: `${36 + (rng.u32() % 180)}.${rng.u32() % 256}.${rng.u32() % 256}.${1 + (rng.u32() % 254)}`, user_agent: AGENTS[rng.u32() % AGENTS.length]! }
    const line = `${JSON.stringify({ type: rng.u32() % 50 === 0 ? 'click' : 'impression', ts, campaign_id: campaign, spot_id: spot, ...who })}\n`
    if (bytes + line.length > MAX_BODY_BYTES) return { body: Buffer.from(parts.join('')), lines: i }
    parts.push(line)
    bytes += line.length
  }
}

function uuidOf(rng: Rng): string {
  const h = Array.from({ length: 4 }, () => rng.u32().toString(16).padStart(8, '0')).join('').toUpperCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const today = (now: number) => new Date(now + 8 * 3_600_000).toISOString().slice(0, 10)
const inDays = (now: number, n: number) => new Date(now + 8 * 3_600_000 + n * 86_400_000).toISOString().slice(0, 10)

/** The remote of the pull phase: a second engine with PULL_CAMPAIGNS campaigns of PULL_SPOTS spots each; its base URL. */
async function startRemote(work: string, children: Child[]): Promise<string> {
  const remote = startChild('server-engine.ts', [join(work, 'remote'), 'open'], { cpu: REMOTE_CPU })
  children.push(remote)
  const api = new Api(`http://127.0.0.1:${(await remote.next<ServerReady>('ready', 60_000)).port}`)
  await api.login()
  const now = Date.now()
  for (let c = 0; c < PULL_CAMPAIGNS; c++) {
    const { campaign_id } = await api.post<{ campaign_id: string }>('/cms/v1/campaigns/create', { campaign_name: `remote ${c}`, start_date: inDays(now, 1), end_date: inDays(now, 30) })
    const spots = Array.from({ length: PULL_SPOTS }, (_, i) => ({ publisher_name: `P${i % 7}`, channel_name: 'news', placement_name: `placement ${i}`, landing_page: `https://example.com/${c}/${i}` }))
    await api.postJson('/cms/v1/campaigns/batch_create_spot_with_plan', { campaign_id, spots })
  }
  return api.base
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
}

function printPhases(phases: Phase[]): void {
  const idle = phases[0]!
  const idleMax = Math.max(...idle.hits)
  const idleP99 = quantile(idle.hits, 0.99)
  const f = (ms: number) => `${ms.toFixed(1)} ms`
  console.log(`\n${'phase'.padEnd(10)}${'hits'.padStart(7)}${'p50'.padStart(11)}${'p99'.padStart(11)}${'max'.padStart(11)}${'max / idle'.padStart(12)}${'p99 / idle'.padStart(12)}${'other CPU'.padStart(11)}   work`)
  for (const p of phases) {
    const max = Math.max(...p.hits)
    const p99 = quantile(p.hits, 0.99)
    console.log(`${p.name.padEnd(10)}${int(p.hits.length).padStart(7)}${f(quantile(p.hits, 0.5)).padStart(11)}${f(p99).padStart(11)}${f(max).padStart(11)}` +
      `${(max / idleMax).toFixed(1).padStart(12)}${(p99 / idleP99).toFixed(1).padStart(12)}${(p.otherPct === undefined ? '-' : `${p.otherPct.toFixed(0)}%`).padStart(11)}   ${(p.workMs / 1000).toFixed(1)} s: ${p.what}`)
  }
  const worst = Math.max(...phases.slice(1).flatMap((p) => p.hits))
  console.log(`\nslowest hit during the work: ${f(worst)} (target: under 500 ms)`)
}

export async function runContentionBench(): Promise<void> {
  console.log(`\nAdMonitor Desk contention bench  ${new Date().toISOString()}`)
  console.log(`machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, node ${process.version}; probe hits one at a time, ${GAP_MS} ms apart`)
  const work = mkdtempSync(join(tmpdir(), 'admonitor-contention-'))
  const children: Child[] = []
  try {
    const server = startChild('server-engine.ts', [join(work, 'data'), 'open', 'events'], { cpu: SERVER_CPU })
    children.push(server)
    const api = new Api(`http://127.0.0.1:${(await server.next<ServerReady>('ready', 60_000)).port}`)
    await api.login()
    const now = Date.now()
    const { campaign_id } = await api.post<{ campaign_id: string }>('/cms/v1/campaigns/create', { campaign_name: 'contention', start_date: today(now), end_date: inDays(now, 29) })
    const spots = Array.from({ length: 5 }, (_, i) => ({ publisher_name: `P${i}`, channel_name: 'app', placement_name: `spot ${i}`, slot_begin: today(now), slot_duration: 1, est_impression: 1_500_000, est_click: 15_000 }))
    await api.postJson('/cms/v1/campaigns/batch_create_spot_with_plan', { campaign_id, spots })
    const listed = await api.get<{ spot_id: string; tracking_tags: { impression_url: string } }[]>('/cms/v1/campaigns/list_spots', { campaign_id, code_type: 'mma', limit: '0,100' })
    const url = listed[0]!.tracking_tags.impression_url
    const tag = api.base + url.slice(url.indexOf('/x/')).replace('__IP__', '123.112.1.1').replace('__OS__', '1')
    // (the bench's own processes: the engine server, the remote, this driver; the rest is other CPU)
    const pids = () => children.map((c) => c.proc.pid)
    const { body, lines } = importBody(Number(campaign_id), listed.map((s) => Number(s.spot_id)), now)
    const remoteUrl = await startRemote(work, children).catch((err: unknown) => `(no remote: ${String(err)})`)
    console.log(`campaign ${campaign_id}: ${listed.length} spots; import body ${MiB(body.length)}, ${int(lines)} lines; remote: ${PULL_CAMPAIGNS} campaigns of ${PULL_SPOTS} spots`)

    // (the first hit of a process loads the IP database: not part of any phase)
    const warm = await send(tag.replace('__IDFA__', randomUUID().toUpperCase()), false, 'GET', undefined, undefined, { 'user-agent': APP_AGENT })
    if (warm.headers['x-admonitor-counted'] !== '1') throw new Error(`the first hit answered ${warm.status}, counted '${String(warm.headers['x-admonitor-counted'])}'`)
    await waitForQuiet('the contention phases')
    const phases: Phase[] = [await probe(tag, 'idle', `${IDLE_S} s, nothing else`, null, pids)]
    phases.push(await probe(tag, 'import', '', async () => {
      const r = await send(`${api.base}/local/v1/events/import?format=ndjson&wait=1&access_token=${api.token}`, false, 'POST', body, 'application/x-ndjson')
      const job = JSON.parse(r.body) as { state: string; imported: number; rejected: number; message: string }
      if (r.status !== 200 || job.state !== 'done' || job.imported !== lines) throw new Error(`the import answered ${r.status}: ${r.body.slice(0, 300)}`)
      return `${int(job.imported)} lines imported (${MiB(body.length)})`
    }, pids))
    phases.push(await probe(tag, 'simulate', '', async () => {
      const r = await send(`${api.base}/local/v1/simulate/run`, false, 'POST', form({ campaign_id, max_hits: SIM_HITS, append: 1, access_token: api.token }))
      const job = JSON.parse(r.body) as { state: string; processed: number; message: string }
      if (r.status !== 200 || job.state !== 'done') throw new Error(`the simulation answered ${r.status}: ${r.body.slice(0, 300)}`)
      return `${int(job.processed)} hits simulated`
    }, pids))
    phases.push(await probe(tag, 'rebuild', '', async () => {
      const r = await send(`${api.base}/local/v1/measurement/rebuild`, false, 'POST', form({ access_token: api.token }))
      if (r.status !== 200) throw new Error(`the rebuild answered ${r.status}: ${r.body.slice(0, 300)}`)
      return `${int((JSON.parse(r.body) as { events: number }).events)} events read again`
    }, pids))
    if (remoteUrl.startsWith('http')) {
      const profile = await api.post<{ profile_id: string }>('/local/v1/sync/profiles/create', { name: 'remote', base_url: remoteUrl, username: 'bench', password: 'bench-password', client_id: 'bench-client', client_secret: 'bench-client-secret' })
      phases.push(await probe(tag, 'pull', '', async () => {
        const r = await send(`${api.base}/local/v1/sync/pull/start`, false, 'POST', form({ profile_id: profile.profile_id, access_token: api.token }))
        if (r.status !== 200 || !r.body.includes('"state":"done"')) throw new Error(`the pull answered ${r.status}: ${r.body.slice(0, 300)}`)
        return `${PULL_CAMPAIGNS} campaigns of ${PULL_SPOTS} spots pulled`
      }, pids))
    } else console.log(`pull phase skipped ${remoteUrl}`)

    // every acknowledged probe hit is counted, besides the imported and simulated events
    const status = await api.get<{ campaigns: { campaign_id: string; events: number }[] }>('/local/v1/measurement/status')
    const events = status.campaigns.find((c) => c.campaign_id === campaign_id)?.events ?? 0
    const probes = phases.reduce((n, p) => n + p.hits.length, 1)
    const simulated = Number(/(\d[\d,]*) hits simulated/.exec(phases[2]!.what)?.[1]?.replace(/,/g, '') ?? 0)
    console.log(`\ncounts: ${int(events)} events in the campaign = ${int(lines)} imported + ${int(simulated)} simulated (some refused or repeated are not) + ${int(probes)} probe hits: ` +
      `${events <= lines + simulated + probes && events >= lines + probes ? 'consistent' : 'INCONSISTENT'}`)
    printPhases(phases)
  } finally {
    await Promise.all(children.map((c) => c.stop(5_000)))
    rmSync(work, { recursive: true, force: true })
  }
}
