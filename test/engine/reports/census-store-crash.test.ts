/**
 * The kept censuses' file (census-store.ts) under kill -9 while it is written: a process writing
 * it again and again is SIGKILLed at random moments; each time, a store reading the directory finds
 * either no file or one whole write (every counter of the census the same round's), never a mix or
 * a cut file, and the temp file a killed write leaves is removed by the next write.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { FileEventLog } from '../../../engine/measure/event-log'
import { CensusStore, keptFileOf } from '../../../engine/reports/census-store'
import { prng } from '../../helpers/prng'
import { fixture, uniform } from './census-store-crash-child'

const here = dirname(fileURLToPath(import.meta.url))
const child = join(here, 'census-store-crash-child.ts')
const dirs: string[] = []

/** Runs the child until `killAfterMs` after READY; returns the last round it said it wrote (0: none). */
function round(dir: string, killAfterMs: number): Promise<number> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, dir], { cwd: resolve(here, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] })
    let wrote = 0
    let ready = false
    let err = ''
    const guard = setTimeout(() => p.kill('SIGKILL'), 30_000)
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    createInterface({ input: p.stdout }).on('line', (line) => {
      const [word, arg] = line.split(' ')
      if (word === 'READY') (ready = true), setTimeout(() => p.kill('SIGKILL'), killAfterMs)
      else if (word === 'WROTE') wrote = Number(arg)
    })
    p.on('exit', (_code, signal) => {
      clearTimeout(guard)
      if (signal !== 'SIGKILL' || !ready) fail(new Error(`child ended without being killed (${signal}): ${err}`))
      else done(wrote)
    })
  })
}

afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('kept censuses under kill -9', () => {
  it('a start finds one whole write or none, and no temp file stays after the next write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-census-crash-'))
    dirs.push(dir)
    const rnd = prng(11)
    const { part, base } = fixture()
    let found = 0
    for (let r = 0; r < 8; r++) {
      const wrote = await round(dir, 80 + Math.floor(rnd() * 700))
      const errors: string[] = []
      const store = new CensusStore(keptFileOf(new FileEventLog(dir)), { error: (m) => void errors.push(m), info: () => undefined })
      // the round written last, or the one whose rename the kill came after (before it said so)
      const got = [wrote, wrote + 1].flatMap((v) => {
        const kept = store.restore(base, 1, part, `k${v}`)
        return kept ? [{ v, kept }] : []
      })
      expect(errors, `round ${r}`).toEqual([])
      expect(got.length, `round ${r}: writes found after write ${wrote}`).toBe(wrote > 0 ? 1 : got.length)
      for (const { v, kept } of got) {
        found++
        expect(kept.n).toBe(10)
        expect(kept.result).toEqual(uniform(v, kept.result.nCells))
      }
    }
    // (a busy machine may kill a round before its first write; over all rounds there were some)
    expect(found).toBeGreaterThan(2)
    // (and one as a process killed while writing leaves it, whether or not a round did)
    await writeFile(join(dir, 'census.bin.tmp-999999-0badf00d'), Buffer.alloc(4096))
    await new CensusStore(keptFileOf(new FileEventLog(dir))).take([], null, () => part).write(base, () => part)
    expect((await readdir(dir)).filter((n) => n.startsWith('census.bin.tmp'))).toEqual([])
  }, 120_000)
})
