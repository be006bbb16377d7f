/**
 * A request that writes to the database and then waits for something else before it answers (a
 * pull waited for: it logs in, writes what it pulls, and the request waits for its end) must not be
 * answered 200 when the disk refused one of its writes meanwhile: its answer is the 507
 * refusal naming the data directory, and nothing of it is kept; once there is room the same pull is
 * taken and keeps what the remote holds.
 *
 * The data directory is on the injected file system of full-disk.ts, full for one write: the
 * pull's first journal record. The disk has room again for the probe that the pull's next write
 * starts (storage.md, "A full disk"), so nothing else refuses a write that the request would wait
 * for. The remote is a second engine on a socket (sync/remote.ts); the truth is the remote's
 * campaign ids as the remote made them. An import whose job id (a database write) the disk
 * refuses is answered 507 and counts none of its events: the truth is the lines the test sent.
 */
import * as fsp from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, FakeClock, seededRandom, toReply, type Reply } from '../../helpers/make-engine'
import { FAST, startRemote, stopRemote } from '../sync/remote'
import { directoryOnDisk, type Disk } from './full-disk'

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open) }
})

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const cleanups: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

/** A local engine on `dir`, signed in; `call` sends a request with its token. */
async function local(dir: string): Promise<{ engine: Engine; call: (method: 'GET' | 'POST', path: string, params?: Record<string, string>) => Promise<Reply> }> {
  const engine = await createEngine({ storage: fileStorage(dir), sync: FAST, clock: new FakeClock('2026-11-28'), random: seededRandom(7), account: ACCOUNT, idleCheckpointMs: 3_600_000, log: { error: () => undefined, info: () => undefined } })
  let token = ''
  const call = async (method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) => {
    const all = { ...params, ...(token ? { access_token: token } : {}) }
    return toReply(await engine.handle(method === 'GET' ? { method, path, query: all } : { method, path, query: {}, body: new URLSearchParams(all).toString(), headers: FORM }))
  }
  const login = await call('POST', '/oauth/token', { grant_type: 'password', ...ACCOUNT })
  expect(login.status, login.raw.body).toBe(200)
  token = login.body.access_token as string
  return { engine, call }
}

/** A disk with room for everything but the next write after `fullFor()`. */
class BrieflyFull implements Disk {
  private full = false
  get free(): number {
    if (!this.full) return Infinity
    this.full = false
    return 0
  }
  set free(_: number) {}
  fullFor(): void {
    this.full = true
  }
}

describe('a request that writes, then waits', () => {
  it('answers a waited pull whose writes the disk refused with 507, keeps nothing of it, and takes it again once there is room', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-write-wait-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    const disk = new BrieflyFull()
    directoryOnDisk(fsp, dir, disk)
    const remote = await startRemote(2)
    cleanups.push(() => stopRemote(remote))
    const { engine, call } = await local(dir)
    const created = await call('POST', '/local/v1/sync/profiles/create', { name: 'Real service', base_url: remote.url, ...ACCOUNT })
    expect(created.status, created.raw.body).toBe(200)
    const profile_id = created.body.profile_id as string

    disk.fullFor()
    const refused = await call('POST', '/local/v1/sync/pull/start', { profile_id, wait: '1' })
    expect(refused.status, refused.raw.body).toBe(507)
    expect(refused.body).toMatchObject({ error: 'insufficient_storage', path: dir, cause: 'ENOSPC' })
    const none = await call('GET', '/local/v1/sync/campaigns/list', { profile_id })
    expect(none.status, none.raw.body).toBe(200)
    expect(none.body).toEqual([])
    const records = await call('GET', '/local/v1/sync/records/list', { profile_id, kind: 'advertiser' })
    expect(records.status, records.raw.body).toBe(200)
    expect(records.body).toEqual([])

    const taken = await call('POST', '/local/v1/sync/pull/start', { profile_id, wait: '1' })
    expect(taken.status, taken.raw.body).toBe(200)
    expect(taken.body.state).toBe('done')
    const pulled = await call('GET', '/local/v1/sync/campaigns/list', { profile_id })
    expect((pulled.body as { campaign_id: string }[]).map((c) => c.campaign_id).sort()).toEqual([...remote.campaignIds].sort())
    await engine.close()
  })

  it('answers an import whose job id the disk refused with 507, counts none of its events, and counts them when sent again with room', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'admonitor-write-wait-'))
    cleanups.push(() => rm(dir, { recursive: true, force: true }))
    const disk = new BrieflyFull()
    directoryOnDisk(fsp, dir, disk)
    const { engine, call } = await local(dir)
    const c = await call('POST', '/cms/v1/campaigns/create', { campaign_name: 'Refused import', start_date: '2026-11-28', end_date: '2026-12-05' })
    expect(c.status, c.raw.body).toBe(200)
    const campaign_id = c.body.campaign_id as string
    const s = await call('POST', '/cms/v1/campaigns/create_spot', { campaign_id, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })
    const spot_id = s.body.spot_id as string
    const token = (await call('POST', '/oauth/token', { grant_type: 'password', ...ACCOUNT })).body.access_token as string
    const lines = [1, 2, 3].map((i) => JSON.stringify({ type: 'impression', ts: `2026-11-28T11:5${i}:00+08:00`, campaign_id, spot_id, identity: `idfa:6d92078a-8246-4ba4-ae5b-00000000000${i}` })).join('\n')
    const importing = async () => toReply(await engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: token, format: 'ndjson', wait: '1' }, body: lines, headers: { 'content-type': 'application/x-ndjson' } }))
    const events = async () => ((await call('GET', '/local/v1/measurement/status')).body.events as number)

    disk.fullFor()
    const refused = await importing()
    expect(refused.status, refused.raw.body).toBe(507)
    expect(refused.body).toMatchObject({ error: 'insufficient_storage', path: dir })
    expect(await events()).toBe(0)
    expect((await call('GET', '/local/v1/jobs/list')).body).toEqual([])

    const taken = await importing()
    expect(taken.status, taken.raw.body).toBe(200)
    expect(taken.body, JSON.stringify(taken.body)).toMatchObject({ state: 'done', imported: 3 })
    expect(await events()).toBe(3)
    await engine.close()
  })
})
