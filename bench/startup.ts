/**
 * Engine startup on the seeded data directory: from spawning the server process to the first
 * answer of GET campaigns/list over HTTP, as the driver sees it and as the server's own clock
 * (ms since its process started) has it.
 *
 * Run alone, the startup row of the measure bench on a data directory it kept (BENCH_KEEP_DATA;
 * a start writes to it, so give it a copy):
 *   npx tsx bench/startup.ts DIR [RUNS]
 * the first request being the row's: basic/show of the bench's measured campaign on its last day.
 */
import { get } from 'node:http'
import { pathToFileURL } from 'node:url'
import { startChild, type Child } from './children'
import { cpuMsOf } from './cpu'
import type { ServerFirstAnswer, ServerReady, StartMarks } from './protocol'
import { int } from './report'
import { BENCH_ACCOUNT } from './seed'

export interface StartupRun {
  /** Spawn to the end of the first answer, as the driver sees it. */
  totalMs: number
  /** Marks in the server, ms since its process started. */
  marks: StartMarks
  /** The server finished sending its first answer, ms since its process started. */
  firstAnswerAt: number
  /** The first request alone, inside the server (cold response cache, cold JIT). */
  firstAnswerMs: number
  /** CPU time of the server process up to its first answer (Linux), ms. */
  serverCpuMs?: number
}

function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    }).on('error', reject)
  })
}

/** A started engine server and its startup figures (startAndAnswer with keep). */
export interface Started {
  run: StartupRun
  child: Child
  port: number
}

/**
 * Spawns the engine server on `dataDir` (extra server arguments `args`, e.g. ['events']), sends
 * `path` as the first request once it listens, and times spawn -> end of that answer. The server
 * is stopped afterwards unless `keep`, in which case it is handed back, still running.
 */
export async function startAndAnswer(dataDir: string, path: string, cpu: number, opts: { args?: string[]; keep?: boolean; nodeArgs?: string[] } = {}): Promise<Started> {
  const t0 = performance.now()
  const child = startChild('server-engine.ts', [dataDir, 'open', ...(opts.args ?? [])], { cpu, ...(opts.nodeArgs ? { nodeArgs: opts.nodeArgs } : {}) })
  let keep = false
  try {
    const ready = await child.next<ServerReady>('ready', 120_000)
    const status = await getStatus(`http://127.0.0.1:${ready.port}${path}`)
    const t1 = performance.now()
    if (status !== 200) throw new Error(`first request after startup (${path.split('?')[0]}) answered ${status}`)
    const first = await child.next<ServerFirstAnswer>('first-answer', 10_000)
    keep = opts.keep === true
    const cpu = cpuMsOf(child.proc.pid)
    return { run: { totalMs: t1 - t0, marks: ready.marks, firstAnswerAt: first.at, firstAnswerMs: first.ms, ...(cpu === undefined ? {} : { serverCpuMs: cpu }) }, child, port: ready.port }
  } finally {
    if (!keep) await child.stop()
  }
}

export async function measureStartup(dataDir: string, token: string, cpu: number): Promise<StartupRun> {
  return (await startAndAnswer(dataDir, `/cms/v1/campaigns/list?access_token=${encodeURIComponent(token)}`, cpu)).run
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}


/** Prints the startup figures: medians over the runs (`first`: what the first request was). */
export function printStartup(runs: StartupRun[], first = 'campaigns/list'): void {
  const med = (f: (r: StartupRun) => number) => int(median(runs.map(f)))
  console.log(`\nEngine startup on the seeded data directory (median of ${runs.length}): ${med((r) => r.totalMs)} ms from spawn to the end of the first ` +
    `${first} answer, seen by the driver (runs: ${runs.map((r) => int(r.totalMs)).join(', ')} ms)`)
  console.log(`  in the server, ms after its process started: modules loaded (node and the bundle) ${med((r) => r.marks.imported)}, ` +
    `engine open (snapshot + sql.js) ${med((r) => r.marks.engineOpen)}, listening ${med((r) => r.marks.listening)}, ` +
    `first answer sent ${med((r) => r.firstAnswerAt)} (that request alone: ${med((r) => r.firstAnswerMs)} ms, cold cache and JIT)`)
}

/** The measure bench's startup row alone (see the top of this file); `runs` starts, medians printed. */
async function startupRow(dir: string, runs: number): Promise<void> {
  const { child, port } = await startAndAnswer(dir, '/openapi.json', 0, { args: ['events'], keep: true })
  const base = `http://127.0.0.1:${port}`
  const json = async <T>(r: Promise<Response>) => (await (await r).json()) as T
  try {
    const { access_token } = await json<{ access_token: string }>(fetch(`${base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', ...BENCH_ACCOUNT }) }))
    const [c] = await json<{ campaign_id: string; end_date: string }[]>(fetch(`${base}/cms/v1/campaigns/list?${new URLSearchParams({ campaign_name: 'bench measure campaign', access_token })}`))
    if (!c) throw new Error(`${dir} holds no 'bench measure campaign': give a data directory kept by the measure bench`)
    await child.stop()
    const path = `/admonitor/v1/reports/basic/show?${new URLSearchParams({ campaign_id: c.campaign_id, date: c.end_date, platform: 'pm', metrics: 'acc', access_token })}`
    const started: StartupRun[] = []
    for (let i = 0; i < runs; i++) started.push((await startAndAnswer(dir, path, 0, { args: ['events'] })).run)
    printStartup(started, 'basic/show')
    console.log(`  server CPU to its first answer (median): ${int(median(started.map((r) => r.serverCpuMs ?? 0)))} ms`)
  } finally {
    await child.stop()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, runs = '3'] = process.argv.slice(2)
  if (!dir) throw new Error('usage: npx tsx bench/startup.ts DIR [RUNS]')
  await startupRow(dir, Number(runs))
}
