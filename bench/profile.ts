/**
 * CPU profiles of the engine server for one bench row at a time (BENCH_CPU_PROF=1): taken in the
 * server with node:inspector, saved as .cpuprofile (open in Chrome DevTools), and summed up
 * here as the functions with the most self time.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import type { HotFunction } from './protocol'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples?: number[]
  startTime: number
  endTime: number
}

let session: Session | null = null

/** Starts profiling this process (stops nothing: call stopProfile first). */
export async function startProfile(): Promise<void> {
  session ??= new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 200 })
  await session.post('Profiler.start')
}

/** Stops profiling, writes the profile to `file` and returns it. */
export async function stopProfile(file: string): Promise<CpuProfile> {
  if (!session) throw new Error('no profile was started')
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile }
  session.disconnect()
  writeFileSync(file, JSON.stringify(profile))
  return profile
}

/** The `top` functions by self time; idle and GC are listed as such. */
export function hotFunctions(profile: CpuProfile, top = 8): HotFunction[] {
  const hits = new Map<number, number>()
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1)
  const total = profile.samples?.length ?? 0
  const byName = new Map<string, HotFunction>()
  for (const n of profile.nodes) {
    const count = hits.get(n.id) ?? n.hitCount ?? 0
    if (count === 0) continue
    const f = n.callFrame
    const file = f.url.replace(/^.*\/(node_modules\/|engine\/|bench\/)/, '$1')
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`
    const entry = byName.get(key) ?? { name: f.functionName || '(anonymous)', where: file ? `${file}:${f.lineNumber + 1}` : '', selfPct: 0 }
    entry.selfPct += (100 * count) / Math.max(1, total)
    byName.set(key, entry)
  }
  return [...byName.values()].sort((a, b) => b.selfPct - a.selfPct).slice(0, top)
}
