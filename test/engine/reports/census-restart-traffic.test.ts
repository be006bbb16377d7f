// docs/measurement.md "Kept censuses at a start": kept censuses against live traffic and edits
// between starts. Tracking hits of browsers, cookie refusers and server-to-server clients (no
// redirect followed) come through the tracking endpoints, some seconds before midnight and some
// after it; the campaign's dates and a spot's data-centre filter are edited; the engine is closed
// or crashes between them. Each answer after a start must be byte for byte the one of an engine that
// never kept anything, given the same steps at the same clock times (engine F) and asked nothing before.
import { afterAll, describe, expect, it, vi } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { endpoints } from '../../../engine/contract/endpoints'
import { FileEventLog, type EventLog } from '../../../engine/measure/event-log'
import { makeEngine, seededRandom, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'
import { importLines, reportWorld, type ReportWorld } from '../../helpers/report-world'
import { TrackingClient } from '../../helpers/tracking-client'

const passes = vi.hoisted(() => ({ n: 0 }))
vi.mock('../../../engine/reports/census', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../engine/reports/census')>()
  return { ...m, census: (s: Parameters<typeof m.census>[0]) => (passes.n++, m.census(s)) }
})

const P = (id: keyof typeof endpoints) => endpoints[id].path
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
// (the last a data centre's)
const IPS = ['202.96.134.133', '117.136.12.34', '113.64.1.10', '61.135.169.121', '58.60.1.7', '47.100.1.1']

type Step =
  | { events: number }
  | { hits: number; at: string }
  | { dates: [string, string] }
  | { dc: 0 | 1 }

interface World extends ReportWorld {
  now: number
  clients: TrackingClient[]
  tags: string[]
  eventLog: () => EventLog
}

let starts = 300

async function world(dir?: string): Promise<World> {
  const onDisk = dir ? () => new FileEventLog(join(dir, 'events')) : null
  const w = await reportWorld('kept census traffic', onDisk ? { eventLog: onDisk() } : {})
  const listed = await w.t.get(P('campaigns.list_spots'), { campaign_id: w.cid })
  const tags = (listed.body as { tracking_tags: Record<string, string> }[]).flatMap((s) => [s.tracking_tags.impression_url!, s.tracking_tags.click_url ?? s.tracking_tags.impression_url!])
  const out: World = { ...w, now: w.t.clock.t, clients: [], tags, eventLog: onDisk ?? (() => w.log) }
  const door = { handle: (r: Parameters<TestEngine['engine']['handle']>[0]) => out.t.engine.handle(r) }
  // 12 browsers, 8 cookie refusers, 6 server-to-server clients
  for (let i = 0; i < 26; i++) {
    const kind = i < 12 ? 'browser' : i < 20 ? 'refuser' : 's2s'
    out.clients.push(new TrackingClient(door, { userAgent: i % 2 ? IPHONE : CHROME, ip: IPS[i % IPS.length]!, keepsCookies: kind === 'browser', followsRedirects: kind !== 's2s' }))
  }
  return out
}

/** An engine started from the storage and log of `w`, its clock where `w`'s was. */
async function start(w: World): Promise<void> {
  const errors: string[] = []
  w.t = await makeEngine({ today: '2025-01-10', storage: w.t.storage, engine: { eventLog: w.eventLog(), random: seededRandom(starts++), log: { error: (m) => void errors.push(m), info: () => undefined } } })
  w.t.clock.t = w.now
  w.t.token = await w.t.login()
  expect(errors).toEqual([])
}

async function apply(w: World, step: Step, seed: number): Promise<void> {
  const rng = prng(seed)
  if ('events' in step) {
    await importLines(w, 'events', Array.from({ length: step.events }, () => {
      const i = Math.floor(rng() * 30)
      const day = 5 + Math.floor(rng() * 6)
      return JSON.stringify({
        type: rng() < 0.2 ? 'click' : 'impression', ts: `2025-01-${String(day).padStart(2, '0')}T${String(Math.floor(rng() * 24)).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00+08:00`,
        campaign_id: w.cid, spot_id: w.spots[Math.floor(rng() * w.spots.length)], identity: `amid:${(0xc0000 + i).toString(16).padStart(32, '0')}`, platform: 'pc',
        ip: IPS[Math.floor(rng() * IPS.length)],
      })
    }))
  } else if ('hits' in step) {
    w.now = Date.parse(step.at)
    w.t.clock.t = w.now
    for (let h = 0; h < step.hits; h++) {
      const client = w.clients[Math.floor(rng() * w.clients.length)]!
      const answers = await client.get(w.tags[Math.floor(rng() * w.tags.length)]!)
      expect(answers.at(-1)!.status).toBeLessThan(400)
      w.now += 1000 + Math.floor(rng() * 4000)
      w.t.clock.t = w.now
    }
    // the checks of clients that never came back counted (10 s on, at the next tracking request:
    // a declared bot's, counted in realtime only), so that no close counts them earlier than a running engine
    w.now += 11_000
    w.t.clock.t = w.now
    const bot = new TrackingClient(w.t.engine, { userAgent: 'curl/8.5.0', ip: IPS[0]! })
    expect((await bot.last(w.tags[0]!)).status).toBe(200)
  } else if ('dates' in step) {
    w.t.token = await w.t.login()
    const r = await w.t.post(P('campaigns.update'), { campaign_id: w.cid, start_date: step.dates[0], end_date: step.dates[1] })
    expect(r.status, r.raw.body).toBe(200)
  } else {
    w.t.token = await w.t.login()
    const r = await w.t.post(P('campaigns.update_spot'), { campaign_id: w.cid, spot_id: w.spots[0]!, dangerous_source_filtration: step.dc })
    expect(r.status, r.raw.body).toBe(200)
  }
}

const SPECS: Record<string, string>[] = [
  { date: '2025-01-10', by_position: 'spot', by_region: 'level2', platform: 'pm', metrics: 'all' },
  { date: '2025-01-11', by_position: 'spot', by_region: 'level1', platform: 'pm', metrics: 'all' },
  { date: '2025-01-11', by_position: 'publisher', by_region: 'level0', platform: 'mb', metrics: 'acc_hrs' },
  { date: '2025-01-10', by_position: 'spot', by_region: 'level1', platform: 'pc', metrics: 'day', filtration_type: 'totalnet' },
  { date: '2025-01-09', by_position: 'spot', by_region: 'level0', platform: 'pm', metrics: 'avg_day' },
]

async function answers(w: World): Promise<string[]> {
  w.t.token = await w.t.login()
  const out: string[] = []
  for (const q of SPECS) {
    const r = await w.t.get(P('reports.basic_show'), { campaign_id: w.cid, ...q })
    out.push(`${r.status} ${r.raw.body}`)
  }
  return out
}

/** The answers of an engine given `steps` (with their seeds) on a new log and storage, asked nothing before. */
async function fresh(steps: readonly Step[]): Promise<string[]> {
  const f = await world()
  for (const [i, s] of steps.entries()) await apply(f, s, 1000 + i)
  return answers(f)
}

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('kept censuses against tracking traffic and edits between starts', () => {
  it.each([false, true])('answer as a fresh engine (on a data directory: %s)', async (onDisk) => {
    const dir = onDisk ? await mkdtemp(join(tmpdir(), 'admonitor-census-traffic-')) : undefined
    if (dir) dirs.push(dir)
    const w = await world(dir)
    const steps: Step[] = []
    const step = async (s: Step) => {
      steps.push(s)
      await apply(w, s, 1000 + steps.length - 1)
    }
    /** The answers now equal a fresh engine's; `kept`: and are read without a pass over the events. */
    const check = async (what: string, kept = false) => {
      passes.n = 0
      const got = await answers(w)
      if (kept) expect(passes.n, what).toBe(0)
      const want = await fresh(steps)
      for (const [i, a] of want.entries()) {
        expect(a.startsWith('200 '), `${what}: ${a.slice(0, 200)}`).toBe(true)
        expect(got[i] === a, `${what}: ${JSON.stringify(SPECS[i])}`).toBe(true)
      }
    }
    await step({ events: 300 })
    await step({ hits: 60, at: '2025-01-10T23:56:00+08:00' })
    await check('before any start')
    // a close, then hits across midnight
    await w.t.engine.close()
    await start(w)
    await check('after a close', true)
    await step({ hits: 60, at: '2025-01-10T23:59:00+08:00' })
    await check('hits across midnight')
    // a crash, then the campaign's dates edited, then a close
    await start(w)
    await check('after a crash')
    await step({ dates: ['2025-01-05', '2025-01-20'] })
    await check('dates edited')
    await w.t.engine.close()
    await start(w)
    await check('dates edited, then a close', true)
    // a spot's data-centre filter turned on, hits, a close; then off, a crash
    await step({ dc: 1 })
    await step({ hits: 40, at: '2025-01-11T09:00:00+08:00' })
    await w.t.engine.close()
    await start(w)
    await check('data-centre filter on, hits, then a close')
    await step({ dc: 0 })
    await start(w)
    await check('data-centre filter off, then a crash')
  }, 300_000)
})
