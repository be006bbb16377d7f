/**
 * The event log on a full disk: tracking hits and imports the disk refuses are answered
 * 507 and leave no trace, and once there is room again they are taken, without a restart; a start
 * on a full disk takes them once there is room too.
 *
 * The whole data directory (database and event log, a real FileEventLog) is on a disk that fills
 * up: an injected file system whose room the test sets (full-disk.ts), and a tmpfs the test mounts
 * when it runs as root (tmpfs.ts). The truth is what the engine acknowledged: the
 * impressions whose tracking answer was 200 and counted ('1'), the import lines of an import whose
 * job answered done, and the distinct devices among them, kept by the test as it sends them. The
 * reports (basic/show and realtime) must count exactly those, before and after a restart.
 */
import * as fsp from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { createEngine, type Engine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { HEAL_EVERY_MS } from '../../../engine/measure/ingest'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, FakeClock, seededRandom, toReply, type Reply } from '../../helpers/make-engine'
import { trackingRequest } from '../../helpers/tracking-client'
import { directoryOnDisk, type Disk } from './full-disk'
import { mountTmpfs, type DiskControl } from './tmpfs'

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open) }
})

const DAY = '2025-01-10'
const GLOBAL = '000000000000000000000000'
const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148'
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const device = (n: number) => `6d92078a-8246-4ba4-ae5b-${n.toString(16).padStart(12, '0')}`

/** What the engine acknowledged, kept by the test: impressions and the devices they came from. */
class Truth {
  impressions = 0
  readonly devices = new Set<number>()
  count(devices: readonly number[]): void {
    this.impressions += devices.length
    for (const d of devices) this.devices.add(d)
  }
}

/** One engine on the data directory, with the campaign's ids and tag once made. */
class Client {
  token = ''
  readonly logs: string[] = []
  constructor(readonly engine: Engine, readonly clock: FakeClock, readonly dir: string) {}

  async post(path: string, form: Record<string, string>): Promise<Reply> {
    const body = new URLSearchParams({ ...form, access_token: this.token }).toString()
    return toReply(await this.engine.handle({ method: 'POST', path, query: {}, body, headers: FORM }))
  }

  async get(path: string, query: Record<string, string>): Promise<Reply> {
    return toReply(await this.engine.handle({ method: 'GET', path, query: { ...query, access_token: this.token } }))
  }

  /** An impression of device `n` through the tag: 'counted' or the refusal. */
  async hit(tag: string, n: number): Promise<Reply> {
    return toReply(await this.engine.handle(trackingRequest(tag.replace('__IDFA__', device(n)), { 'user-agent': APP_AGENT }, '123.112.1.1')))
  }

  /** An import of one impression a device (its media request id the device's), waiting for the job. */
  async import(campaign: string, spot: string, devices: readonly number[]): Promise<Reply> {
    const body = devices.map((n) => JSON.stringify({ type: 'impression', ts: `${DAY}T09:00:00+08:00`, campaign_id: campaign, spot_id: spot, identity: `idfa:${device(n)}`, platform: 'mb', request_id: `r-${n}` })).join('\n')
    return toReply(await this.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: this.token, format: 'ndjson', wait: '1' }, body, headers: { 'content-type': 'application/x-ndjson' } }))
  }
}

let seed = 0

async function open(dir: string, clock = new FakeClock(DAY)): Promise<Client> {
  const logs: string[] = []
  const engine = await createEngine({
    storage: fileStorage(dir), eventLog: new FileEventLog(join(dir, 'events')), clock, random: seededRandom(++seed), account: ACCOUNT, idleCheckpointMs: 3_600_000,
    log: { error: (m, cause) => logs.push(`${m}${cause ? ` ${String(cause)}` : ''}`), info: (m) => logs.push(m) },
  })
  const c = new Client(engine, clock, dir)
  c.logs.push(...logs)
  const login = toReply(await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: new URLSearchParams({ grant_type: 'password', ...ACCOUNT }).toString(), headers: FORM }))
  expect(login.status, login.raw.body).toBe(200)
  c.token = login.body.access_token as string
  return c
}

/** A 507 naming the data directory and ENOSPC. */
function expectRefusal(r: Reply, dir: string): void {
  expect(r.status, r.raw.body).toBe(507)
  expect(r.body).toMatchObject({ error: 'insufficient_storage', path: dir, cause: 'ENOSPC' })
}

/** Sends impressions of `devices`, each expected counted; adds them to the truth. */
async function counted(c: Client, tag: string, truth: Truth, devices: readonly number[]): Promise<void> {
  for (const n of devices) {
    const r = await c.hit(tag, n)
    expect(r.status, r.raw.body).toBe(200)
    expect(r.headers['x-admonitor-counted']).toBe('1')
    truth.count([n])
  }
}

/** Impressions and distinct devices of the day as basic/show (global row, every class) and realtime have them. */
async function figures(c: Client, campaign: string): Promise<{ basic: [number, number]; realtime: number }> {
  const b = await c.get(endpoints['reports.basic_show'].path, { campaign_id: campaign, date: DAY, platform: 'pm', metrics: 'all', filtration_type: 'totalnet' })
  expect(b.status, b.raw.body).toBe(200)
  const m = (b.body.items as { attributes: { region_id: string }; metrics: Record<string, number> }[]).find((i) => i.attributes.region_id === GLOBAL)?.metrics ?? {}
  const r = await c.get(endpoints['reports.realtime_show'].path, { campaign_id: campaign, date: DAY, by_position: 'campaign', platform: 'pm', metrics: 'day' })
  expect(r.status, r.raw.body).toBe(200)
  return { basic: [m.imp_day ?? 0, m.uim_day ?? 0], realtime: r.body.items[0]?.metrics?.imp_day ?? 0 }
}

const expected = (t: Truth) => ({ basic: [t.impressions, t.devices.size], realtime: t.impressions })

/** A campaign of the test day with one spot; its id, the spot's id and its impression tag. */
async function campaignOf(c: Client): Promise<{ campaign: string; spot: string; tag: string }> {
  const made = await c.post('/cms/v1/campaigns/create', { campaign_name: 'Full disk', start_date: DAY, end_date: '2025-01-20', platform: 'pm' })
  expect(made.status, made.raw.body).toBe(200)
  const campaign = made.body.campaign_id as string
  const s = await c.post('/cms/v1/campaigns/create_spot_with_plan', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top', slot_begin: DAY, slot_duration: '5', est_impression: '500000', est_click: '5000' })
  expect(s.status, s.raw.body).toBe(200)
  const listed = await c.get('/cms/v1/campaigns/list_spots', { campaign_id: campaign, code_type: 'mma' })
  return { campaign, spot: s.body.spot_id as string, tag: listed.body[0].tracking_tags.impression_url as string }
}

const closed = (c: Client) => c.engine.close().then(() => 'closed', (err: unknown) => String(err))

/** Sends impressions of new devices from `from` on until one is refused (507); the refused device. */
async function untilRefused(c: Client, tag: string, truth: Truth, from: number): Promise<number> {
  for (let n = from; n < from + 2000; n++) {
    const r = await c.hit(tag, n)
    if (r.status !== 200) {
      expectRefusal(r, c.dir)
      return n
    }
    expect(r.headers['x-admonitor-counted']).toBe('1')
    truth.count([n])
  }
  throw new Error('no hit was refused')
}

/** Hits and an import refused on a full disk, then taken once there is room, without a restart. */
async function refusedThenTaken(disk: DiskControl): Promise<void> {
  const { dir } = disk
  const truth = new Truth()
  const c = await open(dir)
  const { campaign, spot, tag } = await campaignOf(c)
  await counted(c, tag, truth, [1, 2, 3, 1])

  // Room for the import's job but not for its lines (a frame of about 32 KB): the import waited
  // for is refused with 507 naming the directory, as a hit is, and so is every hit until the next try.
  const lines = Array.from({ length: 300 }, (_, i) => 200 + i)
  await disk.fill(4096)
  expectRefusal(await c.import(campaign, spot, lines), dir)
  expectRefusal(await c.hit(tag, 2), dir)
  // a simulation waited for is refused the same way
  expectRefusal(await c.post('/local/v1/simulate/run', { campaign_id: campaign, from_date: DAY, to_date: DAY, max_hits: '500', append: '1', wait: '1' }), dir)
  expect(await figures(c, campaign)).toEqual(expected(truth))
  // the status says so, as the app's notice reads it
  expect((await c.get('/local/v1/status', {})).body.storage).toMatchObject({ writable: false, cause: 'ENOSPC', path: dir })
  await disk.free()
  expectRefusal(await c.hit(tag, 2), dir)

  // The next try: the import counts once, its media request ids as new.
  c.clock.advance(HEAL_EVERY_MS)
  const imported = await c.import(campaign, spot, lines)
  expect(imported.status, imported.raw.body).toBe(200)
  expect(imported.body).toMatchObject({ state: 'done', imported: 300, repeated: 0 })
  truth.count(lines)
  expect((await c.import(campaign, spot, lines)).body).toMatchObject({ state: 'done', imported: 0, repeated: 300 })
  await counted(c, tag, truth, [2])
  expect(await figures(c, campaign)).toEqual(expected(truth))
  expect((await c.get('/local/v1/status', {})).body.storage).toMatchObject({ writable: true, cause: '', path: '' })

  // Full again (room for part of a frame at most): a hit of a device never seen is refused, and
  // is one device with its hits once there is room.
  await disk.fill(30)
  const refused = await untilRefused(c, tag, truth, 1000)
  expectRefusal(await c.hit(tag, 3), dir)
  expect(await figures(c, campaign)).toEqual(expected(truth))
  await disk.free()
  c.clock.advance(HEAL_EVERY_MS)
  await counted(c, tag, truth, [refused, 3, 4, refused])
  expect(await figures(c, campaign)).toEqual(expected(truth))
  expect((await c.get('/local/v1/measurement/status', {})).body.identities).toBe(truth.devices.size)
  // the log holds what was counted: a rebuild from it counts the same
  expect((await c.post('/local/v1/measurement/rebuild', {})).status).toBe(200)
  expect(await figures(c, campaign)).toEqual(expected(truth))
  expect(await closed(c)).toBe('closed')

  // After a restart, from the checkpoint and from the log alone (as after a crash): the same
  // figures, and hits go on.
  const d = await open(dir)
  expect(await figures(d, campaign)).toEqual(expected(truth))
  await counted(d, tag, truth, [5, refused])
  expect(await closed(d)).toBe('closed')
  await rm(join(dir, 'events', 'checkpoint.bin'))
  const e = await open(dir)
  expect(await figures(e, campaign)).toEqual(expected(truth))
  expect(await closed(e)).toBe('closed')
}

/** A start on a full disk: hits refused, then taken once there is room. */
async function startedFull(disk: DiskControl): Promise<void> {
  const { dir } = disk
  const truth = new Truth()
  const c = await open(dir)
  const { campaign, tag } = await campaignOf(c)
  await counted(c, tag, truth, [1, 2])
  expect(await closed(c)).toBe('closed')

  await disk.fill(0)
  const d = await open(dir)
  expectRefusal(await d.hit(tag, 7), dir)
  expectRefusal(await d.hit(tag, 1), dir)
  expect(await figures(d, campaign)).toEqual(expected(truth))
  // still full at the next try: refused again, and until the try after it
  d.clock.advance(HEAL_EVERY_MS)
  expectRefusal(await d.hit(tag, 7), dir)
  await disk.free()
  expectRefusal(await d.hit(tag, 7), dir)
  d.clock.advance(HEAL_EVERY_MS)
  await counted(d, tag, truth, [7, 1, 8])
  expect(await figures(d, campaign)).toEqual(expected(truth))
  expect(await closed(d)).toBe('closed')

  const e = await open(dir)
  expect(await figures(e, campaign)).toEqual(expected(truth))
  expect(await closed(e)).toBe('closed')
}

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** A data directory on an injected disk. */
async function injected(): Promise<DiskControl> {
  const dir = await mkdtemp(join(tmpdir(), 'admonitor-log-full-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  const disk: Disk = { free: Infinity }
  directoryOnDisk(fsp, dir, disk)
  return { dir, fill: async (room) => void (disk.free = room), free: async () => void (disk.free = Infinity) }
}

describe('the event log on a full disk', () => {
  it('refuses hits and imports with 507, leaves no trace of them, and takes them again once there is room, without a restart (injected file system)', async () => {
    await refusedThenTaken(await injected())
  })

  it('takes hits once there is room after a start on a full disk (injected file system)', async () => {
    await startedFull(await injected())
  })

  const root = process.getuid?.() === 0
  const tmpfs = [root && mountTmpfs('8m', cleanups), root && mountTmpfs('8m', cleanups)] as const
  it.skipIf(!tmpfs[0])('refuses hits and imports with 507, leaves no trace of them, and takes them again once there is room, without a restart (tmpfs)', async () => {
    await refusedThenTaken(tmpfs[0] as DiskControl)
  })

  it.skipIf(!tmpfs[1])('takes hits once there is room after a start on a full disk (tmpfs)', async () => {
    await startedFull(tmpfs[1] as DiskControl)
  })
})
