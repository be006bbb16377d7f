/**
 * The start's baseline (bench/targets.ts, `open`): how long `cat` takes to read every file of the
 * engine's data directory, cold (the page cache dropped first: `echo 3 > /proc/sys/vm/drop_caches`,
 * which needs root) and warm right after. Without root the cold figure is missing and the
 * baseline is the warm one, which the output says.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface ReadFigures {
  files: number
  bytes: number
  /** `cat` of every file after the page cache was dropped; null when it could not be dropped. */
  coldMs: number | null
  /** The same right after, from the page cache. */
  warmMs: number
  /** Why the cache was not dropped (coldMs null). */
  notCold?: string
}

/** Every regular file under `dir`, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()
}

/** Writes dirty pages out, then drops the page cache; the reason when it cannot. */
export function dropCaches(): string | null {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`
  if (process.getuid?.() !== 0) return 'not root'
  spawnSync('sync')
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3')
    return null
  } catch (err) {
    return `drop_caches refused: ${(err as Error).message}`
  }
}

/** `cat` of `files` into /dev/null, in ms (in pieces of 500 names). */
export function timeCat(files: readonly string[]): number {
  const t0 = performance.now()
  for (let i = 0; i < files.length; i += 500) {
    const r = spawnSync('cat', files.slice(i, i + 500), { stdio: ['ignore', 'ignore', 'pipe'] })
    if (r.status !== 0) throw new Error(`cat failed (${r.status ?? r.signal}): ${r.stderr.toString().slice(0, 300)}`)
  }
  return performance.now() - t0
}

/** The data directory read by `cat`, cold when the cache can be dropped, then warm. */
export function readDataDir(dir: string): ReadFigures {
  const files = filesUnder(dir)
  const bytes = files.reduce((a, f) => a + statSync(f).size, 0)
  const notCold = dropCaches()
  // without a drop, a first read brings every file into the cache, so that the warm figure is warm
  const coldMs = notCold === null ? timeCat(files) : (timeCat(files), null)
  const warmMs = timeCat(files)
  return { files: files.length, bytes, coldMs, warmMs, ...(notCold === null ? {} : { notCold }) }
}
