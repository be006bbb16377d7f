/**
 * The process that census-store-crash.test.ts kills. Usage:
 *   node --import tsx test/engine/reports/census-store-crash-child.ts <events dir>
 * Prints `READY`, then writes the kept censuses of the events directory again and again, round r
 * holding one census (spec key `k<r>`) of 10,000 to 130,000 cells whose every counter is r (`seen`: r mod 256), and
 * prints `WROTE r` after each write. It never stops on its own: the parent SIGKILLs it.
 */
import { fileURLToPath } from 'node:url'
import { Partition } from '../../../engine/measure/columns'
import { FileEventLog } from '../../../engine/measure/event-log'
import type { CheckpointBase } from '../../../engine/measure/ingest'
import type { CensusResult } from '../../../engine/reports/census'
import { CensusStore, keptFileOf } from '../../../engine/reports/census-store'

/** The partition (campaign 1, ten events) and the checkpoint base both processes hold. */
export function fixture(): { part: Partition; base: CheckpointBase } {
  const part = new Partition()
  for (let i = 0; i < 10; i++) part.add(20_000, i, 0, 0, 0, 1, 0, i + 1)
  return { part, base: { extent: { segments: [{ id: 1, bytes: 100, tailAt: 50, tailCrc: 7 }] }, parts: new Map([[1, { n: 10, generation: 0 }]]) } }
}

/** A census of `nCells` cells whose counters are all `r`. */
export function uniform(r: number, nCells: number): CensusResult {
  const f = (n = nCells) => new Uint32Array(n).fill(r)
  return {
    nCells, imp: f(), clk: f(), impDay: f(), clkDay: f(), uim: f(), ucl: f(), uimDay: f(), uclDay: f(), uimDays: f(), uclDays: f(),
    impHour: f(nCells * 24), clkHour: f(nCells * 24), seen: new Uint8Array(nCells).fill(r & 0xff), rev: new Uint32Array(nCells), changes: 0, newCells: 0,
  }
}

async function main(dir: string): Promise<void> {
  const { part, base } = fixture()
  const store = new CensusStore(keptFileOf(new FileEventLog(dir)))
  console.log('READY')
  for (let r = 1; ; r++) {
    await store.take([{ part: 1, key: `k${r}`, n: 10, result: uniform(r, 10_000 + (r % 5) * 30_000) }], null, () => part).write(base, () => part)
    console.log(`WROTE ${r}`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir] = process.argv.slice(2)
  if (!dir) throw new Error('usage: census-store-crash-child.ts <events dir>')
  await main(dir)
}
