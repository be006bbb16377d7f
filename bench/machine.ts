/**
 * The machine a run measured on, as its results file records it (bench/results/*.json) and its
 * output's first lines print it: runs are compared within one machine only (bench/README.md,
 * "Ratios per machine"), and the bare server's req/s of the run says how fast the machine was.
 */
import { cpus, platform, release, totalmem } from 'node:os'
import { HAS_TASKSET } from './children'

export interface Machine {
  cpu: string
  cores: number
  node: string
  os: string
  memGiB: number
  /** Server and load generator pinned to a core each (taskset). */
  pinned: boolean
}

export function machineOf(): Machine {
  const c = cpus()
  return { cpu: c[0]?.model ?? 'unknown', cores: c.length, node: process.version, os: `${platform()} ${release()}`, memGiB: Math.round(totalmem() / 2 ** 30), pinned: HAS_TASKSET }
}

/** `AMD EPYC 7B13, 2 cores, node v24.22.3`. */
export const machineLine = (m: Machine): string => `${m.cpu}, ${m.cores} cores, node ${m.node}`
