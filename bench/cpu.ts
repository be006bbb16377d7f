/**
 * CPU time from Linux /proc: of one process, and of the whole machine, so that a part of the
 * bench can say how much CPU other processes took while it ran ([contended]). Undefined elsewhere.
 */
import { readFileSync } from 'node:fs'

/** Linux USER_HZ; /proc/<pid>/stat counts CPU time in these ticks. */
const TICKS_PER_S = 100

/** User + system CPU ms of process `pid` (all its threads), or undefined. */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S
  } catch {
    return undefined
  }
}

/**
 * CPU ms of the whole machine, all cores (Linux /proc/stat): user, nice, system and steal, but
 * not irq/softirq time, which the bench's own loopback traffic causes. Undefined elsewhere.
 */
export function machineBusyMs(): number | undefined {
  if (process.platform !== 'linux') return undefined
  const [, user, nice, system, , , , , steal] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).map(Number)
  return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (steal ?? 0)) * 1000) / TICKS_PER_S
}

/** Other processes' CPU during a phase: the machine's busy time less the bench's own processes'. */
export class OtherCpu {
  private readonly t0 = performance.now()
  private readonly busy0 = machineBusyMs()
  private readonly own0: number
  constructor(private readonly pids: () => (number | undefined)[], private readonly extraOwnMs: () => number = () => 0) {
    this.own0 = this.own()
  }
  private own(): number {
    const self = process.cpuUsage()
    return (self.user + self.system) / 1000 + this.pids().reduce<number>((a, p) => a + (cpuMsOf(p) ?? 0), 0) + this.extraOwnMs()
  }
  /** Other processes' CPU in % of one core since the start, or undefined off Linux. */
  pct(): number | undefined {
    const busy1 = machineBusyMs()
    if (this.busy0 === undefined || busy1 === undefined) return undefined
    const wall = performance.now() - this.t0
    return wall > 0 ? Math.max(0, (100 * (busy1 - this.busy0 - (this.own() - this.own0))) / wall) : undefined
  }
}

/**
 * Waits (at most `maxS` seconds) until other processes use less than `belowPct` of a core over one
 * second, so that a measurement does not start on a busy machine; says so when it had to wait.
 * Returns the last figure seen (undefined off Linux).
 */
export async function waitForQuiet(label: string, belowPct = 15, maxS = 30): Promise<number | undefined> {
  let waited = 0
  for (;;) {
    const o = new OtherCpu(() => [])
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const pct = o.pct()
    if (pct === undefined || pct < belowPct || waited >= maxS) {
      if (waited > 0) console.log(`  (waited ${waited} s for other processes to quieten before ${label}; now ${Math.round(pct ?? 0)}% of a core)`)
      return pct
    }
    waited++
  }
}
