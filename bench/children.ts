/**
 * Starting the bench's child processes (Node and an IPC channel), pinned to a CPU with taskset
 * when it exists, so that server and load generator each own a core. The engine server runs
 * bundled, as `npm run serve` runs it (scripts/server-build.mjs): plain JavaScript, no tsx; the
 * other children run their TypeScript through the tsx loader.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildServerSync, bundleFile, needsServerBuild, type BundleName } from '../scripts/server-build.mjs'
import { SERVER_NODE_FLAGS, withServerEnv } from '../scripts/server-flags.mjs'

export const HAS_TASKSET = process.platform === 'linux' && spawnSync('taskset', ['-c', '0', 'true']).status === 0

export interface Child {
  proc: ChildProcess
  /** The next message of type `type` (rejects if the child exits first or `ms` pass). */
  next<T extends { type: string }>(type: T['type'], ms?: number): Promise<T>
  send(message: object): void
  /** Asks the child to stop, then kills it if it has not exited after `ms`. */
  stop(ms?: number): Promise<void>
}

const benchFile = (name: string) => fileURLToPath(new URL(name, import.meta.url))

/** The children that run bundled: bench file -> its bundle (scripts/server-build.mjs). */
const BUNDLED: Record<string, BundleName> = { 'server-engine.ts': 'bench' }

/**
 * What node runs for `bench/<file>`: its bundle (built first when missing or older than its
 * sources) under the V8 flags `npm run serve` gives the server, or the file through tsx.
 */
export function script(file: string): string[] {
  const bundle = BUNDLED[file]
  if (!bundle) return ['--import', 'tsx', benchFile(file)]
  if (needsServerBuild(bundle)) buildServerSync(bundle)
  return [...SERVER_NODE_FLAGS, bundleFile(bundle)]
}

/**
 * The environment of `bench/<file>`: the bundled server's is the one `npm run serve` gives it
 * (scripts/server-flags.mjs SERVER_ENV); all have V8's code cache of their modules in the folder
 * npm run serve keeps it in (scripts/serve.mjs).
 */
export function childEnv(file: string): NodeJS.ProcessEnv {
  const env = { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache') }
  return BUNDLED[file] ? withServerEnv(env) : env
}

/** Starts `bench/<file>` with `args`; `cpu` pins it to that CPU; `nodeArgs` go to node itself (e.g. --cpu-prof). */
export function startChild(file: string, args: string[], opts: { cpu?: number; nodeArgs?: string[] } = {}): Child {
  const node = [...(opts.nodeArgs ?? []), ...script(file), ...args]
  const [cmd, argv] = HAS_TASKSET && opts.cpu !== undefined ? ['taskset', ['-c', String(opts.cpu), process.execPath, ...node]] : [process.execPath, node]
  const proc = spawn(cmd, argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: childEnv(file) })
  const inbox: { type: string }[] = []
  const waiting: { type: string; resolve: (m: { type: string }) => void }[] = []
  let exited: string | null = null
  const failAll = () => waiting.splice(0).forEach((w) => w.resolve({ type: `exit:${exited}` }))
  proc.on('message', (m: { type: string }) => {
    const i = waiting.findIndex((w) => w.type === m.type)
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(m)
    else inbox.push(m)
  })
  proc.on('exit', (code, signal) => {
    exited = `${file} exited (${signal ?? code})`
    failAll()
  })
  const next = <T extends { type: string }>(type: string, ms = 600_000): Promise<T> => {
    const i = inbox.findIndex((m) => m.type === type)
    if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0] as T)
    if (exited) return Promise.reject(new Error(exited))
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${file}: no '${type}' message within ${ms} ms`)), ms)
      timer.unref()
      waiting.push({
        type,
        resolve: (m) => {
          clearTimeout(timer)
          if (m.type.startsWith('exit:')) reject(new Error(m.type.slice(5)))
          else resolve(m as T)
        },
      })
    })
  }
  const gone = new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())))
  return {
    proc,
    next,
    send: (m) => void proc.send(m),
    async stop(ms = 10_000) {
      if (exited) return
      proc.send({ type: 'stop' })
      const timer = setTimeout(() => proc.kill('SIGKILL'), ms)
      await gone
      clearTimeout(timer)
    },
  }
}
