/**
 * Remote profiles on a full disk: a profile create the disk refuses leaves its secrets
 * in secrets.json (they are written first, and the room there was enough), and a start while the
 * disk is still full must open the data directory all the same, read-only, with the profiles that
 * were acknowledged and their secrets. The disk is an injected file system (full-disk.ts): every
 * file opened for writing under the data directory writes on it, secrets.json too unless the test
 * lets that file through.
 */
import * as fsp from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { keyFileCipher } from '../../../engine/sync/secrets'
import { ACCOUNT, FakeClock, seededRandom, toReply, type Reply } from '../../helpers/make-engine'
import { onDisk, type Disk } from '../storage/full-disk'
import { startVendor } from './vendor-remote'

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  return { ...real, open: vi.fn(real.open) }
})

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const tmp = await mkdtemp(join(tmpdir(), 'admonitor-secrets-full-'))
afterAll(() => rm(tmp, { recursive: true, force: true }))

const disk: Disk & { secretsFit: boolean } = { free: 1 << 30, secretsFit: true }
let dir = join(tmp, 'data')
const realOpen = vi.mocked(fsp.open).getMockImplementation()!
vi.mocked(fsp.open).mockImplementation(async (...args: Parameters<typeof fsp.open>) => {
  const fh = await realOpen(...args)
  const [path, flags = 'r'] = args
  const onIt = String(path).startsWith(dir) && flags !== 'r' && !(disk.secretsFit && basename(String(path)).startsWith('secrets.json'))
  return onIt ? onDisk(fh, disk) : fh
})

let seed = 0
async function start(): Promise<{ engine: Engine; call: (method: 'GET' | 'POST', path: string, form?: Record<string, string>) => Promise<Reply> }> {
  const engine = await createEngine({ storage: fileStorage(dir), secretCipher: keyFileCipher(join(tmp, 'own.key')), clock: new FakeClock('2026-11-28'), random: seededRandom(++seed), account: ACCOUNT, log: { error: () => undefined, info: () => undefined } })
  let token = ''
  const call = async (method: 'GET' | 'POST', path: string, form: Record<string, string> = {}) => {
    const params = { ...form, ...(token ? { access_token: token } : {}) }
    return toReply(await engine.handle(method === 'GET' ? { method, path, query: params } : { method, path, query: {}, body: new URLSearchParams(params).toString(), headers: FORM }))
  }
  const login = await call('POST', '/oauth/token', { grant_type: 'password', ...ACCOUNT })
  expect(login.status, login.raw.body).toBe(200)
  token = login.body.access_token as string
  return { engine, call }
}

const profile = (name: string) => ({ name, base_url: 'https://api.example.test', username: 'u', client_id: 'c', password: `pw of ${name}`, client_secret: `secret of ${name}` })

describe('remote profiles on a full disk', () => {
  it('opens again on the still-full disk after a refused profile create, with the acknowledged profile and its secrets', async () => {
    const first = await start()
    expect((await first.call('POST', '/local/v1/sync/profiles/create', profile('kept'))).status).toBe(200)
    // the disk fills: secrets.json still fits, the journal record of the profile does not
    disk.free = 0
    const refused = await first.call('POST', '/local/v1/sync/profiles/create', profile('refused'))
    expect(refused.status, refused.raw.body).toBe(507)
    await first.engine.close().catch(() => undefined)

    // a start while the disk is full, secrets.json included
    disk.secretsFit = false
    const again = await start()
    const status = await again.call('GET', '/local/v1/status')
    expect(status.body.storage).toMatchObject({ writable: false, cause: 'ENOSPC' })
    const listed = await again.call('GET', '/local/v1/sync/profiles/list')
    expect((listed.body as { name: string; has_password: boolean; has_client_secret: boolean }[]).map((p) => [p.name, p.has_password, p.has_client_secret])).toEqual([['kept', true, true]])

    // room again: the next write is taken
    disk.free = 1 << 30
    expect((await again.call('POST', '/local/v1/sync/profiles/create', profile('after'))).status).toBe(200)
    await again.engine.close()
  })

  it('keeps the secrets as they were when the disk refuses a profile update or delete, before and after a restart', async () => {
    dir = join(tmp, 'data-2')
    Object.assign(disk, { free: 1 << 30, secretsFit: true })
    const vendor = await startVendor()
    const first = await start()
    const made = await first.call('POST', '/local/v1/sync/profiles/create', { name: 'vendor', base_url: vendor.url, ...ACCOUNT })
    expect(made.status, made.raw.body).toBe(200)
    const id = made.body.profile_id as string
    const works = async (c: typeof first) => (await c.call('POST', '/local/v1/sync/profiles/test', { profile_id: id })).body
    expect(await works(first)).toMatchObject({ ok: true })

    // the disk fills: secrets.json still fits, the journal record of the change does not
    disk.free = 0
    const update = await first.call('POST', '/local/v1/sync/profiles/update', { profile_id: id, password: 'not the password' })
    expect(update.status, update.raw.body).toBe(507)
    expect(await works(first)).toMatchObject({ ok: true })
    // room again for one write, then full again: the delete is the write the disk refuses
    disk.free = 1 << 30
    expect((await first.call('POST', '/local/v1/sync/modes/set', { group: 'reports', mode: 'local' })).status).toBe(200)
    disk.free = 0
    const removal = await first.call('POST', '/local/v1/sync/profiles/delete', { profile_id: id })
    expect(removal.status, removal.raw.body).toBe(507)
    const listed = await first.call('GET', '/local/v1/sync/profiles/list')
    expect(listed.body).toMatchObject([{ profile_id: id, has_password: true, has_client_secret: true }])
    expect(await works(first)).toMatchObject({ ok: true })
    await first.engine.close().catch(() => undefined)

    disk.free = 1 << 30
    const again = await start()
    expect(await works(again)).toMatchObject({ ok: true })
    await again.engine.close()
    await vendor.close()
  })
})
