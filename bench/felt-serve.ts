/**
 * `npm run serve` as a user starts it (scripts/serve.mjs: the same start, the same compile cache),
 * on a data directory, for the rows of what the user feels (bench/felt.ts). The web interface is
 * served from a build made beforehand (ADMONITOR_UI_DIR), so that no build runs during a start.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildServer, needsServerBuild } from '../scripts/server-build.mjs'
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs'
import { HAS_TASKSET } from './children'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** How long a server may take to save and stop after SIGTERM before it is killed. */
const STOP_MS = 30_000

export interface Serving {
  proc: ChildProcess
  url: string
  /** Spawn to the "serving" line (the door listens), ms as the driver sees it. */
  listeningMs: number
  /** Spawn to the "recorded event(s) loaded" line, once it came (null until then). */
  loadedMs(): number | null
  /** The seconds that line says reading the events took (the server's own figure), or null. */
  loadedS(): number | null
  /** Everything the server printed so far. */
  output(): string
  /** SIGTERM (the server saves and closes), then SIGKILL if it has not exited within STOP_MS. */
  stop(): Promise<void>
}

export interface ServeOptions {
  /** The renderer build to serve (its `renderer` folder), or none: the API alone. */
  uiDir?: string
  /** Pins the server to this CPU when taskset exists. */
  cpu?: number
  /** Spawn time, performance.now() of the driver (default: now). */
  t0?: number
}

/** Spawns `npm run serve -- --port 0 --data-dir DIR` (without npm) and resolves once it listens. */
export async function serveOn(dataDir: string, opts: ServeOptions = {}): Promise<Serving> {
  const t0 = opts.t0 ?? performance.now()
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ADMONITOR_')) env[k] = v
  env.ADMONITOR_SKIP_UI_BUILD = '1'
  if (opts.uiDir) env.ADMONITOR_UI_DIR = opts.uiDir
  // (the V8 flags package.json's serve script gives node)
  const node = [...SERVER_NODE_FLAGS, join(ROOT, 'scripts', 'serve.mjs'), '--port', '0', '--data-dir', dataDir]
  const [cmd, argv] = HAS_TASKSET && opts.cpu !== undefined ? ['taskset', ['-c', String(opts.cpu), process.execPath, ...node]] : [process.execPath, node]
  const proc = spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let loaded: number | null = null
  const take = (s: string) => {
    out += s
    if (loaded === null && /recorded event\(s\) loaded/.test(out)) loaded = performance.now() - t0
  }
  proc.stdout!.setEncoding('utf8').on('data', take)
  proc.stderr!.setEncoding('utf8').on('data', take)
  const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not listen within 120 s:\n${out.slice(-3000)}`)), 120_000)
    const check = () => {
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m) (clearTimeout(timer), resolve(m[1]!))
    }
    proc.stdout!.on('data', check)
    proc.once('exit', (code) => (clearTimeout(timer), reject(new Error(`serve exited with ${code}:\n${out.slice(-3000)}`))))
  })
  const listeningMs = performance.now() - t0
  return {
    proc, url, listeningMs, loadedMs: () => loaded, output: () => out,
    loadedS: () => {
      const m = /recorded event\(s\) loaded in ([\d.]+) s/.exec(out)
      return m ? Number(m[1]) : null
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return
      proc.kill('SIGTERM')
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_MS)
      await gone
      clearTimeout(timer)
    },
  }
}

/** Resolves once the server has read its recorded events (its "loaded" line), or after `ms`. */
export async function eventsLoaded(s: Serving, ms = 120_000): Promise<void> {
  const until = performance.now() + ms
  while (s.loadedMs() === null && performance.now() < until && s.proc.exitCode === null) await new Promise((r) => setTimeout(r, 50))
}

/**
 * Brings the server's bundle up to date, untimed, as the first start after an update does
 * (scripts/serve.mjs builds it when it is older than its sources): a timed start then builds nothing.
 */
export async function bundleReady(): Promise<void> {
  if (needsServerBuild('server')) await buildServer('server')
}
