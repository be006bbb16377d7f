/**
 * A full disk: a write the disk refuses leaves no trace (not listed, its id never
 * another campaign's, before or after a restart) and is answered 507 naming the directory;
 * sign-in and reads keep working; the first write after space returns is taken, without a
 * restart; a start on a full disk opens read-only, says so, and takes writes once there is room.
 *
 * The same scenario runs on two disks: an injected file system whose room the test sets (every
 * file opened for writing under the data directory writes short, then fails with ENOSPC, once the
 * room is used), which runs everywhere; and a real 4 MiB tmpfs the test mounts when it runs as
 * root and may mount, filled by a file the test writes and freed by deleting it. The truth is
 * what the engine acknowledged: the campaigns whose create answered 200, with the ids it gave.
 */
import * as fsp from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, FakeClock, seededRandom, toReply, type Reply } from '../../helpers/make-engine'
import { directoryOnDisk, type Disk } from './full-disk'
import { mountTmpfs, type DiskControl } from './tmpfs'

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open) }
})

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

class Client {
  token = ''
  logs: string[] = []
  constructor(readonly engine: Engine) {}
  async post(path: string, form: Record<string, string>, token: string | null = this.token): Promise<Reply> {
    const body = new URLSearchParams({ ...form, ...(token ? { access_token: token } : {}) }).toString()
    return toReply(await this.engine.handle({ method: 'POST', path, query: {}, body, headers: FORM }))
  }
  async get(path: string, query: Record<string, string> = {}): Promise<Reply> {
    return toReply(await this.engine.handle({ method: 'GET', path, query: { ...query, access_token: this.token } }))
  }
  login(): Promise<Reply> {
    return this.post('/oauth/token', { grant_type: 'password', ...ACCOUNT }, null)
  }
  create(name: string): Promise<Reply> {
    return this.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: '2099-01-01', end_date: '2099-12-31' })
  }
  async listed(): Promise<Map<string, string>> {
    const r = await this.get('/cms/v1/campaigns/list', { limit: '0,1000' })
    expect(r.status, r.raw.body).toBe(200)
    return new Map((r.body as { campaign_id: string; campaign_name: string }[]).map((c) => [c.campaign_name, c.campaign_id]))
  }
}

/** A seed per start: two starts on one seed would issue the same token. */
let seed = 0

async function open(dir: string): Promise<Client> {
  const logs: string[] = []
  const engine = await createEngine({
    storage: fileStorage(dir), clock: new FakeClock('2026-11-28'), random: seededRandom(++seed), account: ACCOUNT, idleCheckpointMs: 3_600_000,
    log: { error: (m, cause) => logs.push(`${m}${cause ? ` ${String(cause)}` : ''}`), info: (m) => logs.push(m) },
  })
  const c = new Client(engine)
  c.logs = logs
  const login = await c.login()
  expect(login.status, `${login.raw.body} ${logs.join('; ')}`).toBe(200)
  c.token = login.body.access_token as string
  return c
}

/** A 507 naming the directory and ENOSPC (soft: the scenario goes on, to show every fault of a run). */
function expectRefusal(r: Reply, dir: string): void {
  expect.soft(r.status, r.raw.body).toBe(507)
  expect.soft(r.body).toMatchObject({ error: 'insufficient_storage', path: dir, cause: 'ENOSPC' })
  expect.soft(r.body.error_description).toContain(dir)
}

/** Closes the engine, saying why not when it cannot. */
const closed = (c: Client) => c.engine.close().then(() => 'closed', (err: unknown) => String(err))

async function scenario(disk: DiskControl): Promise<void> {
  const { dir } = disk
  const acked = new Map<string, string>()
  const shown = new Set<string>()
  const c = await open(dir)
  for (const name of ['a-0', 'a-1', 'a-2']) {
    const r = await c.create(name)
    expect(r.status, r.raw.body).toBe(200)
    acked.set(name, r.body.campaign_id)
  }

  // Campaigns until one is refused: not listed, the answer names the cause.
  await disk.fill(6000)
  let refused: Reply | null = null
  for (let n = 0; n < 2000 && !refused; n++) {
    const r = await c.create(`full-${n}`)
    if (r.status === 200) acked.set(`full-${n}`, r.body.campaign_id)
    else refused = r
  }
  expect(refused).not.toBeNull()
  expectRefusal(refused!, dir)
  expect.soft((await c.get('/local/v1/status')).body.storage).toEqual({ writable: false, opened_read_only: false, cause: 'ENOSPC', path: dir })
  const listed = await c.listed()
  expect.soft(listed).toEqual(acked)
  for (const id of listed.values()) shown.add(id)

  // Still full: writes are refused the same way; sign-in and reads work.
  expectRefusal(await c.create('still-full'), dir)
  const login = await c.login()
  expect.soft(login.status, login.raw.body).toBe(200)
  if (login.status === 200) c.token = login.body.access_token as string
  expect.soft(await c.listed()).toEqual(acked)

  // Room again: the next write is taken, without a restart.
  await disk.free()
  const after = await c.create('after')
  expect.soft(after.status, after.raw.body).toBe(200)
  if (after.status === 200) {
    acked.set('after', after.body.campaign_id)
    expect.soft(shown.has(after.body.campaign_id)).toBe(false)
    expect.soft((await c.get('/local/v1/status')).body.storage.writable).toBe(true)
  }
  expect.soft(await c.listed()).toEqual(acked)
  expect.soft(await closed(c)).toBe('closed')

  // After a restart: the same campaigns; a new one takes an id never shown for another.
  const d = await open(dir)
  expect.soft(await d.listed()).toEqual(acked)
  for (const id of acked.values()) shown.add(id)
  const next = await d.create('post-restart')
  expect(next.status, next.raw.body).toBe(200)
  expect.soft(shown.has(next.body.campaign_id), `id ${next.body.campaign_id} was shown for another campaign`).toBe(false)
  acked.set('post-restart', next.body.campaign_id)
  expect(await closed(d)).toBe('closed')

  // A start on a full disk opens read-only, says so, and takes writes once there is room.
  await disk.fill(0)
  const e = await open(dir)
  expect(e.logs.join('\n')).toContain(`Opened read-only: the data directory ${dir} cannot take writes (ENOSPC)`)
  expect((await e.get('/local/v1/status')).body.storage).toEqual({ writable: false, opened_read_only: true, cause: 'ENOSPC', path: dir })
  expect(await e.listed()).toEqual(acked)
  expectRefusal(await e.create('read-only'), dir)
  await disk.free()
  const healed = await e.create('healed')
  expect(healed.status, healed.raw.body).toBe(200)
  acked.set('healed', healed.body.campaign_id)
  expect(await e.listed()).toEqual(acked)
  expect(await closed(e)).toBe('closed')
  const f = await open(dir)
  expect(await f.listed()).toEqual(acked)
  expect(await closed(f)).toBe('closed')
}

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe('a full disk', () => {
  it('leaves no trace of a refused write and heals without a restart (injected file system)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-full-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    const disk: Disk = { free: Infinity }
    directoryOnDisk(fsp, dir, disk)
    await scenario({ dir, fill: async (room) => void (disk.free = room), free: async () => void (disk.free = Infinity) })
  })

  const tmpfs = process.getuid?.() === 0 && mountTmpfs('4m', cleanups)
  it.skipIf(!tmpfs)('leaves no trace of a refused write and heals without a restart (tmpfs)', () => scenario(tmpfs as DiskControl))
})
