/**
 * Engine startup on the seeded data directory: from spawning the server process to the first
 * answer of GET campaigns/list over HTTP, as the driver sees it and as the server's own clock
 * (ms since its process started) has it.
 */
import { get } from 'node:http'
import { startChild } from './children'
import type { ServerFirstAnswer, ServerReady, StartMarks } from './protocol'

export interface StartupRun {
  /** Spawn to the end of the first answer, as the driver sees it. */
  totalMs: number
  /** Marks in the server, ms since its process started. */
  marks: StartMarks
  /** The server finished sending its first answer, ms since its process started. */
  firstAnswerAt: number
  /** The first request alone, inside the server (cold response cache, cold JIT). */
  firstAnswerMs: number
}

function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    }).on('error', reject)
  })
}

export async function measureStartup(dataDir: string, token: string, cpu: number): Promise<StartupRun> {
  const t0 = performance.now()
  const child = startChild('server-engine.ts', [dataDir, 'open'], { cpu })
  try {
    const ready = await child.next<ServerReady>('ready', 60_000)
    const status = await getStatus(`http://127.0.0.1:${ready.port}/cms/v1/campaigns/list?access_token=${encodeURIComponent(token)}`)
    const t1 = performance.now()
    if (status !== 200) throw new Error(`first request after startup answered ${status}`)
    const first = await child.next<ServerFirstAnswer>('first-answer', 10_000)
    return { totalMs: t1 - t0, marks: ready.marks, firstAnswerAt: first.at, firstAnswerMs: first.ms }
  } finally {
    await child.stop()
  }
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const int = (n: number) => Math.round(n).toLocaleString('en-US')

/** Prints the startup figures: medians over the runs. */
export function printStartup(runs: StartupRun[]): void {
  const med = (f: (r: StartupRun) => number) => int(median(runs.map(f)))
  console.log(`\nEngine startup on the seeded data directory (median of ${runs.length}): ${med((r) => r.totalMs)} ms from spawn to the end of the first ` +
    `campaigns/list answer, seen by the driver (runs: ${runs.map((r) => int(r.totalMs)).join(', ')} ms)`)
  console.log(`  in the server, ms after its process started: modules loaded (node + tsx transform) ${med((r) => r.marks.imported)}, ` +
    `engine open (snapshot + sql.js) ${med((r) => r.marks.engineOpen)}, listening ${med((r) => r.marks.listening)}, ` +
    `first answer sent ${med((r) => r.firstAnswerAt)} (that request alone: ${med((r) => r.firstAnswerMs)} ms, cold cache and JIT)`)
}
