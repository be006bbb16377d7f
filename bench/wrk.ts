/**
 * wrk (C, from Debian's `wrk` package) as the load generator when it is installed: one thread
 * drives all connections at a fraction of autocannon's CPU, so the bare baseline is not limited
 * by the load generator. Paths rotate through a Lua script, like the autocannon runner.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LoadJob } from './protocol'

export const HAS_WRK = process.env.BENCH_LOAD !== 'autocannon' && spawnSync('wrk', ['--version']).error === undefined

/** Children's CPU ms of this process so far (Linux: cutime + cstime of /proc/self/stat). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(f[13]) + Number(f[14])) * 1000) / 100
}

const SCRIPT = `
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
local start = tonumber(os.getenv("WRK_START"))
local n = start
request = function()
  n = n + 1
  return wrk.format("GET", paths[(n - 1) % #paths + 1])
end
done = function(s, latency, requests)
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%d,"p99":%d,"max":%d}\\n',
    s.requests, s.duration, s.bytes, s.errors.connect, s.errors.read, s.errors.write, s.errors.status, s.errors.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`

export interface WrkRun {
  requests: number
  durationS: number
  bytes: number
  errors: number
  timeouts: number
  non2xx: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  cpuMs: number
}

/** One wrk run of `seconds` over `paths`, starting at path number `start`. */
export function wrk(job: LoadJob, seconds: number, start: number): WrkRun {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'))
  try {
    writeFileSync(join(dir, 'paths.txt'), job.paths.join('\n') + '\n')
    writeFileSync(join(dir, 'rotate.lua'), SCRIPT)
    const cpu0 = childrenCpuMs()
    const headers = Object.entries(job.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
    const r = spawnSync('wrk', ['-t1', `-c${job.connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--timeout', '60s', ...headers, '-s', join(dir, 'rotate.lua'), job.url], {
      env: { ...process.env, WRK_PATHS: join(dir, 'paths.txt'), WRK_START: String(start) },
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    })
    const line = r.stdout.split('\n').find((l) => l.startsWith('WRKJSON '))
    if (!line) throw new Error(`wrk gave no summary: ${r.stderr || r.stdout}`)
    const j = JSON.parse(line.slice(8)) as Record<string, number>
    const n = (k: string) => j[k] ?? 0
    return {
      requests: n('requests'), durationS: n('duration_us') / 1e6, bytes: n('bytes'),
      errors: n('connect') + n('read') + n('write'), timeouts: n('timeout'), non2xx: n('status'),
      p50Ms: n('p50') / 1000, p99Ms: n('p99') / 1000, maxMs: n('max') / 1000, cpuMs: childrenCpuMs() - cpu0,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
