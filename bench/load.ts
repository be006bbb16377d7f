/**
 * Child process: the load generator (autocannon), kept apart from the server under test.
 * For each job from the driver: a warm-up run, then the measured run. One counter shared by all
 * connections walks `paths`, and goes on from where the warm-up stopped, so with many distinct
 * paths the measured requests are ones the server has not answered before. Before and after the
 * measured run a single request must come back, so that work queued by a finished run (requests
 * autocannon sent but stopped waiting for) does not run during the next one.
 */
import { get } from 'node:http'
import autocannon, { type RequestSpec } from 'autocannon'
import { cpuMsOf, machineBusyMs } from './cpu'
import type { LoadJob, LoadMessage, LoadResult } from './protocol'
import { HAS_WRK, wrk } from './wrk'

function send(m: LoadMessage): void {
  process.send?.(m)
}

function drain(url: string, headers?: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, ...(headers ? { headers } : {}) }, (res) => {
      res.resume()
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`drain request answered ${res.statusCode}`))))
    }).on('error', reject)
  })
}

/** The same measurement with wrk: warm-up, drain, measured run, drain. */
async function runWrk(job: LoadJob): Promise<LoadResult> {
  const warm = job.warmupS > 0 ? wrk(job, job.warmupS, 0) : null
  await drain(job.url + job.drainPath, job.headers)
  const server0 = cpuMsOf(job.serverPid)
  const busy0 = machineBusyMs()
  const r = wrk(job, job.durationS, warm?.requests ?? 0)
  const server1 = cpuMsOf(job.serverPid)
  const busy1 = machineBusyMs()
  await drain(job.url + job.drainPath, job.headers)
  const pct = (cpuMs: number) => (100 * cpuMs) / (r.durationS * 1000)
  const serverMs = server0 !== undefined && server1 !== undefined ? server1 - server0 : undefined
  const otherMs = busy0 !== undefined && busy1 !== undefined && serverMs !== undefined ? Math.max(0, busy1 - busy0 - serverMs - r.cpuMs) : undefined
  return {
    name: job.name, durationS: r.durationS, completed: r.requests, rps: r.requests / r.durationS,
    p50Ms: r.p50Ms, p99Ms: r.p99Ms, maxMs: r.maxMs, bytesPerResponse: r.requests > 0 ? r.bytes / r.requests : 0,
    errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, errorSamples: [], distinctPaths: job.paths.length,
    requestsStarted: (warm?.requests ?? 0) + r.requests, loadCpuPct: pct(r.cpuMs),
    ...(serverMs !== undefined ? { serverCpuPct: pct(serverMs) } : {}),
    ...(otherMs !== undefined ? { otherCpuPct: pct(otherMs) } : {}),
  }
}

async function run(job: LoadJob): Promise<LoadResult> {
  if (HAS_WRK) return runWrk(job)
  let next = 0
  const spec: RequestSpec = {
    method: 'GET',
    ...(job.headers ? { headers: job.headers } : {}),
    setupRequest: (req) => ({ ...req, path: job.paths[next++ % job.paths.length]! }),
  }
  const opts = { url: job.url, connections: job.connections, timeout: 60, requests: [spec] }
  if (job.warmupS > 0) await autocannon({ ...opts, duration: job.warmupS })
  await drain(job.url + job.drainPath, job.headers)
  const cpu0 = process.cpuUsage()
  const server0 = cpuMsOf(job.serverPid)
  const busy0 = machineBusyMs()
  const errorSamples: string[] = []
  const r = await autocannon({ ...opts, duration: job.durationS }).on('reqError', (err) => {
    if (errorSamples.length < 3) errorSamples.push(String(err))
  })
  const cpu = process.cpuUsage(cpu0)
  const server1 = cpuMsOf(job.serverPid)
  const busy1 = machineBusyMs()
  await drain(job.url + job.drainPath, job.headers)
  const completed = r.requests.total ?? 0
  const pct = (cpuMs: number) => (100 * cpuMs) / (r.duration * 1000)
  const loadMs = (cpu.user + cpu.system) / 1000
  const serverMs = server0 !== undefined && server1 !== undefined ? server1 - server0 : undefined
  const otherMs = busy0 !== undefined && busy1 !== undefined && serverMs !== undefined ? Math.max(0, busy1 - busy0 - serverMs - loadMs) : undefined
  return {
    name: job.name,
    durationS: r.duration,
    completed,
    rps: completed / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    bytesPerResponse: completed > 0 ? (r.throughput.total ?? 0) / completed : 0,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    errorSamples,
    distinctPaths: job.paths.length,
    requestsStarted: next,
    loadCpuPct: pct(loadMs),
    ...(serverMs !== undefined ? { serverCpuPct: pct(serverMs) } : {}),
    ...(otherMs !== undefined ? { otherCpuPct: pct(otherMs) } : {}),
  }
}

process.on('message', (m: LoadJob | { type: 'stop' }) => {
  if (m.type === 'stop') process.disconnect?.()
  else run(m).then((result) => send({ type: 'result', result }), (err: unknown) => send({ type: 'result', failed: `${m.name}: ${String(err)}` }))
})
