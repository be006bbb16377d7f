/**
 * The process killed during a stream of hits: after restart no acknowledged hit is lost and no
 * hit is counted twice. A child streams impressions through the tracking endpoint on a
 * real data directory and is SIGKILLed at random moments; the directory is then reopened.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { IVT, KIND, PLATFORM, SDK } from '../../../engine/measure/types'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { prng } from '../../helpers/prng'

const here = dirname(fileURLToPath(import.meta.url))
const child = join(here, 'ingest-crash-child.ts')
const dirs: string[] = []

/** Runs the child until `killAfterMs` after READY; returns the acknowledged hit numbers. */
function round(dir: string, tag: string, killAfterMs: number, mode = ''): Promise<{ acked: Set<number>; loaded: number; from: string }> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, dir, tag, mode], { cwd: resolve(here, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] })
    const acked = new Set<number>()
    let loaded = -1
    let from = ''
    let err = ''
    const guard = setTimeout(() => p.kill('SIGKILL'), 30_000)
    p.stderr.on('data', (d: Buffer) => (err += d.toString()))
    createInterface({ input: p.stdout }).on('line', (line) => {
      const [word, arg, more = ''] = line.split(' ')
      if (word === 'READY') {
        loaded = Number(arg)
        from = more
        setTimeout(() => p.kill('SIGKILL'), killAfterMs)
      } else if (word === 'ACK') acked.add(Number(arg))
      else if (word === 'ERR' || word === 'FATAL') err += `${line}\n`
    })
    p.on('exit', (_code, signal) => {
      clearTimeout(guard)
      if (signal !== 'SIGKILL' || loaded < 0) fail(new Error(`child ended without being killed (${signal}): ${err}`))
      else done({ acked, loaded, from })
    })
  })
}

afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('ingest under kill -9', () => {
  /** Rounds of hits killed at random moments, then a check that each acknowledged hit is there once. */
  async function crashRounds(mode: string): Promise<{ froms: string[] }> {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-ingest-crash-'))
    dirs.push(dir)
    const rnd = prng(7)
    let ackedTotal = 0
    const ackedIds: string[] = []
    const froms: string[] = []
    for (let r = 0; r < 5; r++) {
      const { acked, loaded, from } = await round(dir, `r${r}`, 300 + Math.floor(rnd() * 900), mode)
      // what the previous rounds acknowledged was all there when this round opened
      expect(loaded).toBeGreaterThanOrEqual(ackedTotal)
      ackedTotal += acked.size
      for (const n of acked) ackedIds.push(`r${r}-${n}`)
      froms.push(from)
    }
    // (a busy machine may kill a round before its first answer; over all rounds there were many)
    expect(ackedTotal).toBeGreaterThan(50)
    const engine = await createEngine({ storage: fileStorage(dir), eventLog: new FileEventLog(join(dir, 'events')), log: { error: () => undefined, info: () => undefined } })
    try {
      const part = engine.measure.columns.campaign(1)!
      const ids = new Set<string>()
      for (let i = 0; i < part.n; i++) {
        const text = engine.measure.identities.text(part.identity[i]!)
        expect(ids.has(text), `hit ${text} counted twice`).toBe(false)
        ids.add(text)
      }
      // every hit was acknowledged, or in flight (at most four writers) when its round was killed
      expect(part.n).toBeGreaterThanOrEqual(ackedTotal)
      expect(part.n).toBeLessThanOrEqual(ackedTotal + 5 * 4)
      // and each acknowledged hit's media request id is known: sent again, it would not count
      const again = (request: string) => engine.measure.ingest.countedAt({ kind: KIND.impression, ts: Date.now(), campaign: 1, spot: 1, keyword: 0, identity: '', platform: PLATFORM.mb, sdk: SDK.none, region: 0, ivt: IVT.valid, request })
      expect(ackedIds.filter((id) => again(id) === undefined)).toEqual([])
      expect(engine.measure.ingest.requests.size).toBe(part.n)
      froms.push(engine.measure.ingest.started.from)
    } finally {
      await engine.close()
    }
    return { froms }
  }

  it('keeps every acknowledged hit, exactly once, across crashes', async () => {
    const { froms } = await crashRounds('')
    // no round closed cleanly, so none left a checkpoint: each start read the whole log
    expect(froms).toEqual(['log', 'log', 'log', 'log', 'log', 'log'])
  }, 120_000)

  it('keeps every acknowledged hit, exactly once, when checkpoints are saved while hits flow', async () => {
    const { froms } = await crashRounds('checkpoints')
    // later starts begin at the checkpoint a killed round saved mid-stream and read the frames after it
    expect(froms.slice(1).filter((f) => f === 'checkpoint').length).toBeGreaterThanOrEqual(3)
  }, 120_000)
})
