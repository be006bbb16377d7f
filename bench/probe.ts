/**
 * In-process probes of the engine (no HTTP, no baseline): where the README gives a figure measured
 * inside one process, this is the command that printed it. Run pinned to one core, as the bench
 * servers are:
 *
 *   taskset -c 0 npx tsx bench/probe.ts reports DIR
 *     answers of basic/show (three breakdowns) and reach/show on a data directory kept by
 *     `BENCH_KEEP_DATA=DIR npm run bench -- measure` (its measured campaign): the first (a pass
 *     over every event), then cold ones: before each, one tracking hit on the campaign (dated
 *     today, outside its window) changes the measurement version, as the bench's cold rows do;
 *     reach/show then again after hits of a panel person's device (the bench's panel rows).
 *     Last, basic/show after each of five imports of 1,000 events inside the window (a kept
 *     census brought up to date with counted events). The hits and events are written to DIR.
 *   taskset -c 0 npx tsx bench/probe.ts panel DIR
 *     the panel reports alone (reach/show, audience/show), cold after a hit from outside the
 *     panel, after a panel person's hit (dated today, outside the window) and after a panel
 *     person's impression inside the window (imported: counts, census and calibration change).
 *   taskset -c 0 npx tsx bench/probe.ts hits
 *     microseconds per tracking hit through engine.handle (an engine in memory; 50 hits at a time;
 *     PROBE_HITS=N timed hits, 20,000 unless told).
 *
 * `PROBE_ONLY=TEXT` keeps the answers whose name contains TEXT. `PROBE_PROFILE=FILE` also writes a CPU profile of the timed part and prints its top functions.
 */
import { join } from 'node:path'
import { createEngine, type Engine } from '../engine/index'
import { FileEventLog } from '../engine/measure/event-log'
import { fileStorage } from '../engine/storage/adapters/file'
import { memory } from '../engine/storage/adapters/memory'
import type { EngineResponse } from '../engine/contract/envelope'
import { hotFunctions, startProfile, stopProfile } from './profile'
import { BENCH_ACCOUNT } from './seed'

/** A China Mobile address: valid traffic (not a data centre's), so hits take the counted path. */
const ADDRESS = '223.104.3.8'
const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
const quiet = { error: (m: string, c: unknown) => console.error(m, c), info: () => undefined }

async function tokenOf(engine: Engine): Promise<string> {
  const r = await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'password', ...BENCH_ACCOUNT }).toString() })
  return (JSON.parse(r.body) as { access_token: string }).access_token
}

function ok(r: EngineResponse, what: string): EngineResponse {
  if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${r.body.slice(0, 300)}`)
  return r
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const bodyBytes = (r: EngineResponse) => (r.parts ? r.parts.reduce((n, p) => n + p.length, 0) : (r.bytes ?? Buffer.from(r.body)).length)

async function profiled<T>(work: () => Promise<T>): Promise<T> {
  const file = process.env.PROBE_PROFILE
  if (file) await startProfile()
  const out = await work()
  if (file) for (const h of hotFunctions(await stopProfile(file), 15)) console.log(`  ${h.selfPct.toFixed(1).padStart(5)}%  ${h.name}  ${h.where}`)
  return out
}

async function reports(dir: string, only?: 'panel'): Promise<void> {
  const engine = await createEngine({ storage: fileStorage(dir), eventLog: new FileEventLog(join(dir, 'events')), account: BENCH_ACCOUNT, log: quiet })
  const token = await tokenOf(engine)
  const get = (path: string, query: Record<string, string>) => engine.handle({ method: 'GET', path, query: { access_token: token, ...query }, headers: {} })
  const campaigns = JSON.parse(ok(await get('/cms/v1/campaigns/list', {}), 'campaigns/list').body) as { campaign_id: string; campaign_name: string; end_date: string }[]
  const named = (name: string) => campaigns.find((c) => c.campaign_name === name) ?? (() => { throw new Error(`${dir} has no campaign '${name}': keep one with BENCH_KEEP_DATA=DIR npm run bench -- measure`) })()
  const measured = named('bench measure campaign')
  const spots = JSON.parse(ok(await get('/cms/v1/campaigns/list_spots', { campaign_id: measured.campaign_id, code_type: 'mma', limit: '0,1' }), 'list_spots').body) as { spot_id: string; tracking_tags: { impression_url: string } }[]
  const tag = spots[0]!.tracking_tags.impression_url
  const hitOf = (idfa: string) => async () => {
    const path = tag.slice(tag.indexOf('/x/')).replace('__IDFA__', idfa).replace('__IP__', ADDRESS).replace('__OS__', '1')
    return ok(await engine.handle({ method: 'GET', path, query: {}, headers: { 'user-agent': APP_AGENT }, remoteAddress: ADDRESS }), 'tracking hit')
  }
  const bust = hitOf('6D92078A-8246-4BA4-AE5B-76104861E7DC')
  // a device of a panel person of the campaign: its hit makes the kept panel counts be brought up to date
  const { linked_panels: panels } = JSON.parse(ok(await get('/cms/v1/campaigns/show', { campaign_id: measured.campaign_id }), 'campaigns/show').body) as { linked_panels: string[] }
  const panelDevice = [...(engine.measure.panel(panels[0] ?? '')?.personOfDevice.keys() ?? [])].find((d) => d.startsWith('idfa:'))
  if (!panelDevice) throw new Error(`${dir}: the measured campaign's panel has no IDFA device`)
  const panelBust = hitOf(panelDevice.slice(5).toUpperCase())
  const common = { campaign_id: measured.campaign_id, date: measured.end_date }
  // the same device's impression inside the window (imported, dated the last day): the panel
  // counts change, and so does the census, so calibrated figures are computed again
  let inWindow = 0
  const panelInWindow = async () => {
    const line = JSON.stringify({ type: 'impression', ts: `${measured.end_date}T12:${String(inWindow++ % 60).padStart(2, '0')}:00+08:00`, campaign_id: measured.campaign_id, spot_id: spots[0]!.spot_id, identity: panelDevice })
    const r = ok(await engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: token }, headers: { 'content-type': 'application/x-ndjson' }, body: line }), 'import')
    if ((JSON.parse(r.body) as { imported: number }).imported !== 1) throw new Error(`import: ${r.body}`)
    // (the import's job record settles on disk first: a read waits for writes in flight)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const reach = { by_audience: 'target', by_position: 'publisher', by_region: 'level1', metrics: 'all', platform: 'pm' }
  const all: [string, string, Record<string, string>, number, () => Promise<unknown>][] = [
    ['basic/show spot x level2, all', '/admonitor/v1/reports/basic/show', { by_position: 'spot', by_region: 'level2', metrics: 'all', platform: 'pm' }, 5, bust],
    ['basic/show campaign x level0, all', '/admonitor/v1/reports/basic/show', { by_position: 'campaign', by_region: 'level0', metrics: 'all', platform: 'pm' }, 5, bust],
    ['basic/show spot x level1, acc', '/admonitor/v1/reports/basic/show', { by_position: 'spot', by_region: 'level1', metrics: 'acc', platform: 'pm' }, 5, bust],
    ['reach/show target, publisher x level1', '/admonitor/v1/reports/reach/show', reach, 40, bust],
    ['reach/show target, publisher x level1, after a panel person\'s hit', '/admonitor/v1/reports/reach/show', reach, 40, panelBust],
    ['reach/show target, publisher x level1, after a panel person\'s impression inside the window', '/admonitor/v1/reports/reach/show', reach, 40, panelInWindow],
    ['audience/show publisher', '/admonitor/v1/reports/audience/show', { by_position: 'publisher', metrics: 'all' }, 40, bust],
    ['audience/show publisher, after a panel person\'s hit', '/admonitor/v1/reports/audience/show', { by_position: 'publisher', metrics: 'all' }, 40, panelBust],
    ['audience/show publisher, after a panel person\'s impression inside the window', '/admonitor/v1/reports/audience/show', { by_position: 'publisher', metrics: 'all' }, 40, panelInWindow],
  ]
  const cases = all.filter(([name]) => (only !== 'panel' || !name.startsWith('basic')) && name.includes(process.env.PROBE_ONLY ?? ''))
  // (panel: the first answers, a pass over every event, before the profile starts)
  const firsts = new Map<string, number>()
  if (only === 'panel') for (const [name, path, query] of cases) {
    const t = performance.now()
    ok(await get(path, { ...common, ...query }), name)
    firsts.set(name, performance.now() - t)
  }
  await profiled(async () => {
    for (const [name, path, query, runs, hit] of cases) {
      const ms: number[] = []
      const cpuMs: number[] = []
      let bytes = 0
      let first = 0
      for (let i = 0; i <= runs; i++) {
        await hit()
        const t = performance.now()
        const cpu = process.cpuUsage()
        const r = ok(await get(path, { ...common, ...query }), name)
        const used = process.cpuUsage(cpu)
        if (i > 0) (ms.push(performance.now() - t), cpuMs.push((used.user + used.system) / 1000))
        else first = firsts.get(name) ?? performance.now() - t
        bytes = bodyBytes(r)
      }
      console.log(`${name}: first ${first.toFixed(1)} ms, cold median ${median(ms).toFixed(1)} ms (CPU ${median(cpuMs).toFixed(1)} ms) over ${runs} answers (${(bytes / 1048576).toFixed(1)} MiB)`)
    }
    if (only === 'panel') return
    const [name, path, query] = cases[0]!
    const ms: number[] = []
    for (let round = 0; round < 5; round++) {
      const lines = Array.from({ length: 1000 }, (_, k) => JSON.stringify({
        type: k % 10 === 0 ? 'click' : 'impression', ts: `${measured.end_date}T${String(k % 24).padStart(2, '0')}:30:00+08:00`, campaign_id: measured.campaign_id,
        spot_id: spots[0]!.spot_id, identity: `idfa:probe-${round}-${k % 400}`, ip: ADDRESS, user_agent: APP_AGENT,
      }))
      const job = JSON.parse(ok(await engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: token }, headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('\n') }), 'import').body) as { imported: number }
      if (job.imported !== 1000) throw new Error(`import: ${JSON.stringify(job)}`)
      const t = performance.now()
      ok(await get(path, { ...common, ...query }), name)
      ms.push(performance.now() - t)
    }
    console.log(`${name} after 1,000 events imported inside the window: median ${median(ms).toFixed(1)} ms over 5 answers`)
  })
  await engine.close()
}

async function hits(): Promise<void> {
  const engine = await createEngine({ storage: memory(), account: BENCH_ACCOUNT, log: quiet })
  const token = await tokenOf(engine)
  const post = async (path: string, form: Record<string, string>) => JSON.parse(ok(await engine.handle({ method: 'POST', path, query: {}, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ access_token: token, ...form }).toString() }), path).body) as Record<string, string>
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10)
  const c = await post('/cms/v1/campaigns/create', { campaign_name: 'probe hits', start_date: today, end_date: today })
  await post('/cms/v1/campaigns/create_spot', { campaign_id: c.campaign_id!, publisher_name: 'Sina', channel_name: 'news', placement_name: 'banner' })
  const spots = JSON.parse(ok(await engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list_spots', query: { access_token: token, campaign_id: c.campaign_id!, code_type: 'mma' }, headers: {} }), 'list_spots').body) as { tracking_tags: { impression_url: string } }[]
  const tag = new URL(spots[0]!.tracking_tags.impression_url)
  const paths = Array.from({ length: 5000 }, (_, i) => tag.pathname.replace('__IDFA__', `6D92078A-8246-4BA4-AE5B-${String(76_104_861 + i).padStart(12, '0')}`).replace('__IP__', ADDRESS))
  const hit = (i: number) => engine.handle({ method: 'GET', path: paths[i % paths.length]!, query: {}, headers: { 'user-agent': APP_AGENT, host: '127.0.0.1:8366' }, remoteAddress: '127.0.0.1' })
  for (let i = 0; i < 3000; i++) ok(await hit(i), 'tracking hit') // warm-up
  const n = Number(process.env.PROBE_HITS ?? 20_000)
  await profiled(async () => {
    const t = performance.now()
    const cpu = process.cpuUsage()
    for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: 50 }, (_, k) => hit(i + k)))
    const used = process.cpuUsage(cpu)
    // (CPU time beside the wall time: on a busy machine the wall time counts the others' turns too)
    console.log(`tracking hit through engine.handle: ${(((performance.now() - t) * 1000) / n).toFixed(1)} us per hit (CPU ${((used.user + used.system) / n).toFixed(1)} us) over ${n} hits`)
  })
  await engine.close()
}

const [what, dir] = process.argv.slice(2)
if ((what === 'reports' || what === 'panel') && dir) await reports(dir, what === 'panel' ? 'panel' : undefined)
else if (what === 'hits') await hits()
else {
  console.error('usage: npx tsx bench/probe.ts reports DIR | hits   (see the comment at the top of bench/probe.ts)')
  process.exitCode = 2
}
