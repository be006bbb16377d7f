/**
 * Builds the app (main, preload, renderer) with electron-vite, once per state of its sources:
 * the output folder is named by a hash of everything the build reads, so the test files that need
 * the bundles (security checks, end to end), which run in parallel processes, share one build.
 * The first caller builds under a lock; the others wait for it. Builds left unused for an hour are
 * pruned: other checkouts and other states of the sources (other runs on the machine) share tmpdir.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { alive } from '../../engine/storage/lock'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const INPUTS = ['main', 'preload', 'renderer', 'engine', 'electron.vite.config.ts', 'scripts/server-build.mjs', 'scripts/ui-build.mjs', 'tsconfig.json', 'package-lock.json']
const PREFIX = 'admonitor-build-'
const DONE = '.complete'
const WAIT_MS = 5 * 60_000
/** A lock older than this belongs to a builder that died. */
const STALE_MS = 10 * 60_000
/** A build nobody asked for in this long is pruned (each use touches its DONE file). */
const UNUSED_MS = 60 * 60_000

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path).filter((n) => n !== 'node_modules').sort().flatMap((n) => files(join(path, n)))
}

/** A hash of every file the build reads (names and contents). */
function inputsHash(): string {
  const h = createHash('sha256')
  for (const f of INPUTS.flatMap((i) => files(join(ROOT, i)))) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0')
  return h.digest('hex').slice(0, 16)
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

function build(outDir: string): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--outDir', outDir], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`)
  writeFileSync(join(outDir, DONE), '')
}

/** Removes builds unused for UNUSED_MS and the leftovers (`<dir>.tmp-<pid>`) of builders that died, keeping `keep`. */
function prune(keep: string): void {
  for (const n of readdirSync(tmpdir())) {
    const p = join(tmpdir(), n)
    if (!n.startsWith(PREFIX) || p === keep || n.endsWith('.lock')) continue
    const builder = /\.tmp-(\d+)$/.exec(n)
    const used = statSync(join(p, DONE), { throwIfNoEntry: false })?.mtimeMs
    const gone = builder ? !alive(Number(builder[1])) : used === undefined || Date.now() - used > UNUSED_MS
    if (gone) rmSync(p, { recursive: true, force: true })
  }
}

/** The output folder of a build of the current sources (out/main, out/preload, out/renderer inside it). Do not delete it. */
export function buildApp(): string {
  const dir = join(tmpdir(), `${PREFIX}${inputsHash()}`)
  const lock = `${dir}.lock`
  const until = Date.now() + WAIT_MS
  while (!existsSync(join(dir, DONE))) {
    try {
      mkdirSync(lock)
    } catch {
      // another process builds: wait for it (or take over a lock it left behind)
      const held = statSync(lock, { throwIfNoEntry: false })
      if (held && Date.now() - held.mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > until) throw new Error(`waited ${WAIT_MS / 1000} s for the build in ${dir}`)
      sleep(250)
      continue
    }
    try {
      if (existsSync(join(dir, DONE))) break
      const tmp = `${dir}.tmp-${process.pid}`
      rmSync(tmp, { recursive: true, force: true })
      build(tmp)
      rmSync(dir, { recursive: true, force: true })
      renameSync(tmp, dir)
      prune(dir)
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
  const now = new Date()
  utimesSync(join(dir, DONE), now, now)
  return dir
}
