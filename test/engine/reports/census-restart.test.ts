// docs/measurement.md "Kept censuses at a start": the censuses of the reports asked before a close
// are kept beside the checkpoint, and a start answers those reports by reading them, counting the
// events added since. Whatever happened between two starts, each answer must be the one an engine
// that never kept anything gives on the same history (engine F: the same steps applied to a new log
// and storage, asked nothing before), byte for byte: hits after the report and before the close
// (replayed after the checkpoint at the next start), hits after the start, hits and then a crash,
// two devices linked (a relabel) and then a crash, a panel re-import, a spot moved to another
// publisher, a corrupt file. The start after
// a plain close answers without a pass over the events (the kept census is read).
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { FileEventLog, type EventLog } from '../../../engine/measure/event-log'
import { keptFileOf } from '../../../engine/reports/census-store'
import { makeEngine, seededRandom, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'
import { importLines, reportWorld, type ReportWorld } from '../../helpers/report-world'

const passes = vi.hoisted(() => ({ n: 0 }))
vi.mock('../../../engine/reports/census', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../engine/reports/census')>()
  return { ...m, census: (s: Parameters<typeof m.census>[0]) => (passes.n++, m.census(s)) }
})

const P = (id: keyof typeof endpoints) => endpoints[id].path
const HOMES = ['000000000000001156440300', '000000000000001156110000', '000000000000001156310000']
const pcDev = (i: number) => `amid:${(0xb0000 + i).toString(16).padStart(32, '0')}`
const mbDev = (i: number) => `idfa:20000000-0000-4000-8000-${String(i).padStart(12, '0')}`

type Step = { events: string[] } | { persons: number } | { move: true }

interface World extends ReportWorld {
  errors: string[]
  /** The event log of each start: the world's in-memory one, or one on a data directory. */
  eventLog: () => EventLog
}

let starts = 100

/** An engine started from the storage and log of `w` (its errors logged into `errors`). */
async function start(w: World, errors: string[]): Promise<TestEngine> {
  // (each start its own seed: the tokens it makes are new)
  const t = await makeEngine({ today: '2025-01-10', storage: w.t.storage, engine: { eventLog: w.eventLog(), random: seededRandom(starts++), log: { error: (m) => void errors.push(m), info: () => undefined } } })
  t.token = await t.login()
  return t
}

async function world(dir?: string): Promise<World> {
  const errors: string[] = []
  const onDisk = dir ? () => new FileEventLog(join(dir, 'events')) : null
  const w = await reportWorld('kept census', { log: { error: (m) => void errors.push(m), info: () => undefined }, ...(onDisk ? { eventLog: onDisk() } : {}) })
  return { ...w, errors, eventLog: onDisk ?? (() => w.log) }
}

/** `n` events of 40 devices (half PC, half mobile) over days [from, to] of January, seeded. */
function events(w: World, seed: number, n: number, from: number, to: number): string[] {
  const rng = prng(seed)
  return Array.from({ length: n }, () => {
    const i = Math.floor(rng() * 40)
    const mb = i % 2 === 1
    const day = from + Math.floor(rng() * (to - from + 1))
    return JSON.stringify({
      type: rng() < 0.2 ? 'click' : 'impression', ts: `2025-01-${String(day).padStart(2, '0')}T${String(Math.floor(rng() * 24)).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00+08:00`,
      campaign_id: w.cid, spot_id: w.spots[Math.floor(rng() * w.spots.length)], identity: mb ? mbDev(i) : pcDev(i), platform: mb ? 'mb' : 'pc',
      ip: `${[58, 61, 101][Math.floor(rng() * 3)]}.${Math.floor(rng() * 250)}.1.${Math.floor(rng() * 250)}`, ...(mb ? { sdk: ['mm', 'mz', 'none'][Math.floor(rng() * 3)] } : {}),
    })
  })
}

async function apply(w: World, step: Step): Promise<void> {
  if ('events' in step) {
    await importLines(w, 'events', step.events)
  } else if ('persons' in step) {
    await importLines(w, 'persons', Array.from({ length: step.persons }, (_, i) => JSON.stringify({
      person_id: `p${i}`, weight: 1.5 + (i % 4), home_region: HOMES[i % 3]!, tags: [i % 2 ? 'male' : 'female'],
      devices: [i % 2 ? { device: mbDev(i), platform: 'mb' } : { device: pcDev(i), platform: 'pc' }],
    })))
  } else {
    const r = await w.t.post(P('campaigns.update_spot'), { campaign_id: w.cid, spot_id: w.spots[1]!, publisher_name: 'Youku' })
    expect(r.status, r.raw.body).toBe(200)
  }
}

const SPECS: Record<string, string>[] = [
  { date: '2025-01-31', platform: 'pm', metrics: 'acc' },
  { date: '2025-01-07', by_position: 'spot', by_region: 'level2', platform: 'pm', metrics: 'all' },
  { date: '2025-01-10', by_position: 'publisher', by_region: 'level1', platform: 'mb', metrics: 'acc', sdk: 'mm' },
  { date: '2025-01-08', by_position: 'publisher', by_region: 'level1', platform: 'mb', metrics: 'avg_day' },
  { date: '2025-01-09', by_position: 'spot', by_region: 'level0', platform: 'pc', metrics: 'acc_hrs', by_audience: 'stable' },
  { date: '2025-01-10', by_position: 'spot', by_region: 'level1', platform: 'pm', metrics: 'day', filtration_type: 'totalnet' },
]

const answers = async (t: TestEngine, cid: string): Promise<string[]> => {
  const out: string[] = []
  for (const q of SPECS) {
    const r = await t.get(P('reports.basic_show'), { campaign_id: cid, ...q })
    expect(r.status, `${JSON.stringify(q)}: ${r.raw.body}`).toBe(200)
    out.push(r.raw.body)
  }
  return out
}

/** The answers of an engine given `steps` on a new log and storage, asked nothing before. */
async function fresh(steps: readonly Step[]): Promise<string[]> {
  const f = await world()
  for (const s of steps) await apply(f, s)
  return answers(f.t, f.cid)
}

/** Restarts `w` from its storage and log (after a graceful close). */
async function restart(w: World): Promise<void> {
  await w.t.engine.close()
  w.t = await start(w, w.errors)
}

beforeEach(() => {
  passes.n = 0
})

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('kept censuses across starts', () => {
  it.each([31, 32])('answer as a fresh engine, with hits before and after a start, a relabel, a panel re-import and a spot move (seed %i)', async (seed) => {
    const w = await world()
    const steps: Step[] = [{ persons: 30 }, { events: events(w, seed, 400, 5, 10) }]
    for (const s of steps) await apply(w, s)
    const first = await answers(w.t, w.cid)
    expect(first).toEqual(await fresh(steps))
    expect(first.some((s) => /"imp_acc":[1-9]/.test(s) && /"uim_acc":[1-9]/.test(s))).toBe(true)
    /** The answers now, read without a pass over the events, and equal to a fresh engine's. */
    const withoutPass = async (): Promise<string[]> => {
      passes.n = 0
      const got = await answers(w.t, w.cid)
      expect(passes.n).toBe(0)
      expect(got).toEqual(await fresh(steps))
      return got
    }
    // a close that saves a checkpoint (the first), then a start: the kept censuses are read
    await restart(w)
    expect(await withoutPass()).toEqual(first)
    // hits after the start: brought up to date
    steps.push({ events: events(w, seed + 1, 30, 6, 10) })
    await apply(w, steps.at(-1)!)
    const afterHits = await withoutPass()
    // a close that saves no checkpoint (few events since): the next start replays those hits
    // after the checkpoint and the kept censuses count them
    await restart(w)
    expect(await withoutPass()).toEqual(afterHits)
    // more hits before the close than the kept censuses counted, then a start
    steps.push({ events: events(w, seed + 2, 20, 5, 9) })
    await apply(w, steps.at(-1)!)
    await restart(w)
    await withoutPass()
    // hits, then a crash (no close): the start replays them past what the kept censuses counted
    steps.push({ events: events(w, seed + 3, 20, 5, 10) })
    await apply(w, steps.at(-1)!)
    w.t = await start(w, w.errors)
    await withoutPass()
    // devices with events here linked in pairs (their events relabelled), then a crash: the kept
    // censuses count each pair as two
    steps.push({ events: [3, 7, 11, 15, 19].map((i) => JSON.stringify({ type: 'impression', ts: '2025-01-09T10:00:00+08:00', campaign_id: w.cid, spot_id: w.spots[0], identity: `${mbDev(i)}|${mbDev(i + 2)}`, platform: 'mb' })) })
    await apply(w, steps.at(-1)!)
    w.t = await start(w, w.errors)
    const linked = await answers(w.t, w.cid)
    expect(linked).toEqual(await fresh(steps))
    await restart(w)
    expect(await answers(w.t, w.cid)).toEqual(linked)
    // a panel re-import and a spot moved to another publisher, each followed by a start
    for (const step of [{ persons: 34 }, { move: true }] as Step[]) {
      steps.push(step)
      await apply(w, step)
      await restart(w)
      expect(await answers(w.t, w.cid)).toEqual(await fresh(steps))
    }
    expect(w.errors).toEqual([])
  }, 300_000)

  it('on a data directory: written beside the checkpoint, read at the next starts, kept by starts that ask for other reports or none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-census-'))
    dirs.push(dir)
    const w = await world(dir)
    const steps: Step[] = [{ persons: 30 }, { events: events(w, 50, 300, 5, 10) }]
    for (const s of steps) await apply(w, s)
    const truth = await answers(w.t, w.cid)
    for (let round = 0; round < 2; round++) {
      await restart(w)
      expect(await readdir(join(dir, 'events'))).toContain('census.bin')
      passes.n = 0
      expect(await answers(w.t, w.cid)).toEqual(truth)
      expect(passes.n).toBe(0)
    }
    // starts that ask for no report, and for one other, keep the censuses of those before
    await restart(w)
    await restart(w)
    expect((await w.t.get(P('reports.basic_show'), { campaign_id: w.cid, date: '2025-01-08', by_position: 'spot', platform: 'pc', metrics: 'acc' })).status).toBe(200)
    await restart(w)
    passes.n = 0
    expect(await answers(w.t, w.cid)).toEqual(truth)
    expect(passes.n).toBe(0)
    expect(truth).toEqual(await fresh(steps))
    expect(w.errors).toEqual([])
  }, 120_000)

  it('a corrupt, cut or foreign file is not used, reported once, and the answers are a fresh engine\'s', async () => {
    const w = await world()
    const steps: Step[] = [{ persons: 30 }, { events: events(w, 40, 300, 5, 10) }]
    for (const s of steps) await apply(w, s)
    const truth = await answers(w.t, w.cid)
    await w.t.engine.close()
    const file = keptFileOf(w.log)
    // the file's size: the longest read it answers
    let [lo, hi] = [0, 1 << 30]
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      if (file.read(0, mid)) lo = mid
      else hi = mid - 1
    }
    const size = lo
    const bytes = file.read(0, size)!
    expect(size).toBeGreaterThan(1000)
    const damaged: [string, Uint8Array][] = [
      ['a counter flipped', Buffer.from(bytes).fill(0x55, size - 40, size - 36)],
      ['cut short', bytes.subarray(0, size - 100)],
      ['another version', Buffer.from(bytes).fill(9, 8, 9)],
      ['its index changed', Buffer.from(bytes).fill(0x20, 30, 31)],
    ]
    for (const [what, b] of damaged) {
      await file.write([b])
      const errors: string[] = []
      const t = await start(w, errors)
      passes.n = 0
      expect(await answers(t, w.cid), what).toEqual(truth)
      expect(passes.n, what).toBeGreaterThan(0)
      expect(errors.filter((e) => e.includes('census.bin')), what).toHaveLength(1)
      // (no close: the damaged file stays for the next case)
    }
  }, 120_000)
})
