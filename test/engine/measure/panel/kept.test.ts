// docs/measurement.md "Kept panels at a start": a close keeps what basic/show reads of the panels
// loaded (events/panels.bin), and a start's basic/show takes the panel from there instead of
// reading its persons from the database. Whatever happened to the panel between two starts, each
// answer must be the one an engine that kept nothing gives on the same history (a fresh engine:
// the same steps on a new log and storage), byte for byte: a report needing the rest of the panel
// (devices, tags) after a start, a panel re-import then a close, a re-import then a crash (the file
// holds the panel before it), a damaged file, another directory's database, and on a data directory.
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../../../engine/contract/endpoints'
import { FileEventLog, type EventLog } from '../../../../engine/measure/event-log'
import { fileBesideLog } from '../../../../engine/measure/kept-file'
import { identityKeyOf } from '../../../../engine/measure/attribute/identity'
import { MemoryEventLog } from '../../../../engine/measure/event-log'
import { importPersons } from '../../../../engine/measure/panel/import'
import { panelCacheOf } from '../../../../engine/measure/panel/index'
import { KeptPanels } from '../../../../engine/measure/panel/kept'
import { panelVersion } from '../../../../engine/measure/panel/store'
import { buildRegions } from '../../../../engine/reference/regions'
import { ndjson, panelDb, person } from './helpers'
import { makeEngine, seededRandom, type TestEngine } from '../../../helpers/make-engine'
import { prng } from '../../../helpers/prng'
import { importLines, reportWorld, type ReportWorld } from '../../../helpers/report-world'

const loads = vi.hoisted(() => ({ n: 0 }))
vi.mock('../../../../engine/measure/panel/load', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../../engine/measure/panel/load')>()
  return { ...m, loadPanel: (...a: Parameters<typeof m.loadPanel>) => (loads.n++, m.loadPanel(...a)) }
})

const P = (id: keyof typeof endpoints) => endpoints[id].path
const HOMES = ['000000000000001156440300', '000000000000001156110000', '000000000000001156310000']
const pcDev = (i: number) => `amid:${(0xc0000 + i).toString(16).padStart(32, '0')}`
const mbDev = (i: number) => `idfa:30000000-0000-4000-8000-${String(i).padStart(12, '0')}`

/** Events, or the panel's persons replaced by `persons` persons of weights from `seed`. */
type Step = { events: string[] } | { persons: number; seed: number }

interface World extends ReportWorld {
  eventLog: () => EventLog
  targets: string[]
}

let starts = 300

async function start(w: World): Promise<TestEngine> {
  const t = await makeEngine({ today: '2025-01-10', storage: w.t.storage, engine: { eventLog: w.eventLog(), random: seededRandom(starts++) } })
  t.token = await t.login()
  return t
}

async function world(dir?: string): Promise<World> {
  const onDisk = dir ? () => new FileEventLog(join(dir, 'events')) : null
  const w = await reportWorld('kept panel', onDisk ? { eventLog: onDisk() } : {})
  const targets: string[] = []
  for (const tag of ['male', '25-29Y']) {
    const r = await w.t.post(P('campaigns.publish_target'), { campaign_id: w.cid, target_name: tag, tag_id: tag })
    expect(r.status, r.raw.body).toBe(200)
    targets.push(String(r.body.target_id))
  }
  return { ...w, eventLog: onDisk ?? (() => w.log), targets }
}

/** `n` events of 40 devices (half PC, half mobile, the panel's among them) over January 5-10, seeded. */
function events(w: World, seed: number, n: number): string[] {
  const rng = prng(seed)
  return Array.from({ length: n }, () => {
    const i = Math.floor(rng() * 40)
    const mb = i % 2 === 1
    return JSON.stringify({
      type: rng() < 0.2 ? 'click' : 'impression', ts: `2025-01-0${5 + Math.floor(rng() * 5)}T${String(Math.floor(rng() * 24)).padStart(2, '0')}:10:00+08:00`,
      campaign_id: w.cid, spot_id: w.spots[Math.floor(rng() * w.spots.length)], identity: mb ? mbDev(i) : pcDev(i), platform: mb ? 'mb' : 'pc',
      ip: `${[58, 61, 101][Math.floor(rng() * 3)]}.${Math.floor(rng() * 250)}.1.${Math.floor(rng() * 250)}`,
    })
  })
}

async function apply(w: World, step: Step): Promise<void> {
  if ('events' in step) return importLines(w, 'events', step.events)
  const rng = prng(step.seed)
  await importLines(w, 'persons', Array.from({ length: step.persons }, (_, i) => JSON.stringify({
    // (weights of one to three decimals: the kept units are whole units of the panel's unit)
    person_id: `p${i}`, weight: Math.round((1 + rng() * 50) * 10 ** (1 + (step.seed % 3))) / 10 ** (1 + (step.seed % 3)), home_region: HOMES[Math.floor(rng() * 3)]!,
    tags: [i % 2 ? 'male' : 'female', ['18-24Y', '25-29Y'][Math.floor(rng() * 2)]!],
    devices: [i % 2 ? { device: mbDev(i), platform: 'mb' } : { device: pcDev(i), platform: 'pc' }, ...(i % 5 === 0 ? [{ device: mbDev(100 + i), platform: 'mb' }] : [])],
  })))
}

/** basic/show overall (what a start's first report reads of the panel: universes, unit, size). */
const BASIC: Record<string, string>[] = [
  { date: '2025-01-31', platform: 'pm', metrics: 'acc' },
  { date: '2025-01-09', by_position: 'spot', by_region: 'level1', platform: 'mb', metrics: 'all' },
]

const basic = async (t: TestEngine, w: World): Promise<string[]> => {
  const out: string[] = []
  for (const q of BASIC) {
    const r = await t.get(P('reports.basic_show'), { campaign_id: w.cid, ...q })
    expect(r.status, r.raw.body).toBe(200)
    out.push(r.raw.body)
  }
  return out
}

/** Reports that read the panel's devices and tags (its persons' events, targets). */
const rest = async (t: TestEngine, w: World): Promise<string[]> => {
  const out: string[] = []
  for (const [id, q] of [
    ['reports.reach_show', { date: '2025-01-09', platform: 'pm', by_position: 'spot', by_audience: 'target', target_id: w.targets.join(',') }],
    ['reports.basic_show', { date: '2025-01-09', platform: 'pm', by_audience: 'target', target_id: w.targets.join(','), metrics: 'acc' }],
    ['reports.audience_show', { date: '2025-01-09', by_position: 'publisher', type_id: 'gender' }],
  ] as const) {
    const r = await t.get(P(id), { campaign_id: w.cid, ...q })
    expect(r.status, r.raw.body).toBe(200)
    out.push(r.raw.body)
  }
  return out
}

async function fresh(steps: readonly Step[]): Promise<{ basic: string[]; rest: string[] }> {
  const f = await world()
  for (const s of steps) await apply(f, s)
  return { basic: await basic(f.t, f), rest: await rest(f.t, f) }
}

async function restart(w: World): Promise<void> {
  await w.t.engine.close()
  w.t = await start(w)
}

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('kept panels across starts', () => {
  it('a start answers basic/show from the kept panel, reads the rest at its first use, and sees a re-import after a close or a crash', async () => {
    const w = await world()
    const steps: Step[] = [{ persons: 30, seed: 1 }, { events: events(w, 7, 400) }]
    for (const s of steps) await apply(w, s)
    let truth = await fresh(steps)
    expect(await basic(w.t, w)).toEqual(truth.basic)
    expect(truth.basic[0]).toMatch(/"persons":30,/)
    expect(truth.basic[0]).toMatch(/"universe":[1-9]/)
    // a close, then a start: basic/show reads no person from the database
    await restart(w)
    loads.n = 0
    expect(await basic(w.t, w)).toEqual(truth.basic)
    expect(loads.n).toBe(0)
    // the reports that need the devices and tags read them then, once
    expect(await rest(w.t, w)).toEqual(truth.rest)
    expect(loads.n).toBe(1)
    // a re-import while running, then a close: the next start takes the new panel as kept
    steps.push({ persons: 34, seed: 2 })
    await apply(w, steps.at(-1)!)
    truth = await fresh(steps)
    expect(await basic(w.t, w)).toEqual(truth.basic)
    await restart(w)
    loads.n = 0
    expect(await basic(w.t, w)).toEqual(truth.basic)
    expect(loads.n).toBe(0)
    // a re-import at a start that took the kept panel, then a crash (no close): the file holds
    // the panel before it, and the next start reads the database's
    steps.push({ persons: 34, seed: 3 })
    await apply(w, steps.at(-1)!)
    w.t = await start(w)
    truth = await fresh(steps)
    loads.n = 0
    expect(await basic(w.t, w)).toEqual(truth.basic)
    expect(loads.n).toBe(1)
    expect(await rest(w.t, w)).toEqual(truth.rest)
    // a re-import with the same persons but other weights between the report and its rest: the
    // rest is read as the panel is then
    await restart(w)
    expect(await basic(w.t, w)).toEqual(truth.basic)
    steps.push({ persons: 34, seed: 4 })
    await apply(w, steps.at(-1)!)
    truth = await fresh(steps)
    expect(await rest(w.t, w)).toEqual(truth.rest)
    expect(await basic(w.t, w)).toEqual(truth.basic)
  }, 120_000)

  it('a database restored from a backup while panels.bin stays: a panel written again to the same version is read as it is', async () => {
    const w = await world()
    const steps: Step[] = [{ persons: 30, seed: 10 }, { events: events(w, 11, 300) }]
    for (const s of steps) await apply(w, s)
    expect(await basic(w.t, w)).toEqual((await fresh(steps)).basic)
    await w.t.engine.close()
    // the user's copy of the database (image and journal) after that close
    const backup = { snapshot: w.t.storage.snapshot && Uint8Array.from(w.t.storage.snapshot), segments: new Map([...w.t.storage.segments].map(([k, v]) => [k, v.map((b) => Uint8Array.from(b))])) }
    w.t = await start(w)
    await apply(w, { persons: 34, seed: 12 })
    expect(await basic(w.t, w)).toEqual((await fresh([...steps, { persons: 34, seed: 12 }])).basic)
    await w.t.engine.close()
    // the database is put back from the copy; panels.bin holds the panel re-imported after it
    w.t.storage.snapshot = backup.snapshot
    w.t.storage.segments = backup.segments
    w.t = await start(w)
    // another panel of the same size, written to the same version number
    steps.push({ persons: 34, seed: 13 })
    await apply(w, steps.at(-1)!)
    const truth = await fresh(steps)
    expect(await basic(w.t, w)).toEqual(truth.basic)
    expect(await rest(w.t, w)).toEqual(truth.rest)
    // and after a close, the next start
    await restart(w)
    expect(await basic(w.t, w)).toEqual(truth.basic)
  }, 120_000)

  it('a damaged file is not used: the panel is read from the database', async () => {
    const w = await world()
    const steps: Step[] = [{ persons: 30, seed: 5 }, { events: events(w, 8, 300) }]
    for (const s of steps) await apply(w, s)
    const truth = await fresh(steps)
    expect(await basic(w.t, w)).toEqual(truth.basic)
    await w.t.engine.close()
    const file = fileBesideLog(w.log, 'panels.bin')
    let size = 0
    while (file.read(0, size + 1)) size++
    const bytes = file.read(0, size)!
    expect(size).toBeGreaterThan(30 * 11)
    for (const [what, b] of [
      ['a weight changed', Buffer.from(bytes).fill(0x41, size - 30 * 11 + 3, size - 30 * 11 + 4)],
      ['a platform changed', Buffer.from(bytes).fill(3, size - 1, size)],
      ['cut short', bytes.subarray(0, size - 5)],
      ['its index changed', Buffer.from(bytes).fill(0x20, 25, 26)],
      ['another version', Buffer.from(bytes).fill(9, 8, 9)],
    ] as const) {
      await file.write([b])
      const t = await start(w)
      loads.n = 0
      expect(await basic(t, w), what).toEqual(truth.basic)
      expect(loads.n, what).toBe(1)
      // (no close: the damaged file stays for the next case)
    }
  }, 120_000)

  it('on a data directory: events/panels.bin is written at a close and read at the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-panels-'))
    dirs.push(dir)
    const w = await world(dir)
    const steps: Step[] = [{ persons: 30, seed: 6 }, { events: events(w, 9, 300) }]
    for (const s of steps) await apply(w, s)
    const truth = await fresh(steps)
    expect(await basic(w.t, w)).toEqual(truth.basic)
    await restart(w)
    expect(await readdir(join(dir, 'events'))).toContain('panels.bin')
    loads.n = 0
    expect(await basic(w.t, w)).toEqual(truth.basic)
    expect(loads.n).toBe(0)
    expect(await rest(w.t, w)).toEqual(truth.rest)
    await w.t.engine.close()
  }, 120_000)

  it('the panel of another data directory\'s database, of the same version, is not taken for this one\'s', async () => {
    const regions = buildRegions()
    const PANEL = 'china-pm-2026'
    const dbs = await Promise.all([1, 2].map(async (k) => {
      const db = await panelDb()
      identityKeyOf(db, { bytes: (n) => new Uint8Array(n).fill(k) })
      importPersons(db, PANEL, ndjson([person('a', { weight: 10 * k, devices: [{ device: `idfa:0000000${k}-0000-4000-8000-000000000000`, platform: 'mb' }] }), person('b', { weight: 3 })]), 'ndjson', 'replace')
      return db
    }))
    const [one, two] = dbs as [typeof dbs[0], typeof dbs[0]]
    expect(panelVersion(one, PANEL)).toBe(panelVersion(two, PANEL))
    const kept = KeptPanels.of(new MemoryEventLog())
    const index = panelCacheOf(one).get(one, PANEL, regions)
    await kept.write(one, [{ index, version: panelVersion(one, PANEL), regions }], seededRandom(1))
    expect(kept.restore(two, PANEL, regions, panelVersion(two, PANEL))).toBeNull()
    const same = kept.restore(one, PANEL, regions, panelVersion(one, PANEL))!
    expect([same.size, same.unit, [...same.units], [...same.homeRegion], [...same.platforms]]).toEqual([index.size, index.unit, [...index.units], [...index.homeRegion], [...index.platforms]])
    expect([same.personIds, same.tagIds, [...same.tags]]).toEqual([index.personIds, index.tagIds, [...index.tags]])
  })
})
