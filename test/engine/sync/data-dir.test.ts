// DESIGN §4: secrets never in the database file, the journal, logs or answers; the key file
// (mode 0600) lives in the user's config folder, never inside the data directory
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { keyFileCipher, type SecretCipher } from '../../../engine/sync/secrets'
import { ACCOUNT, FakeClock, toReply } from '../../helpers/make-engine'
import { FAST, startRemote, stopRemote, type Remote } from './remote'

let remote: Remote
let root: string
const logged: string[] = []
const log = { error: (m: string, c?: unknown) => void logged.push(`${m} ${String(c ?? '')}`), info: (m: string) => void logged.push(m) }
const SECRETS = [ACCOUNT.password, ACCOUNT.client_secret]

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]))
}

async function open(dataDir: string, secretCipher?: SecretCipher): Promise<Engine> {
  return createEngine({ storage: fileStorage(dataDir), eventLog: new FileEventLog(join(dataDir, 'events')), clock: new FakeClock('2025-01-10'), log, sync: FAST, ...(secretCipher ? { secretCipher } : {}) })
}

async function call(e: Engine, method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) {
  const fields = { ...params, access_token: await e.localToken() }
  const req = method === 'GET' ? { method, path, query: fields } : { method, path, query: {}, body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
  return toReply(await e.handle(req))
}

beforeAll(async () => {
  remote = await startRemote(2)
  root = mkdtempSync(join(tmpdir(), 'admonitor-sync-'))
  // the user's config folder, where the default key files go
  for (const name of ['XDG_CONFIG_HOME', 'HOME', 'APPDATA']) vi.stubEnv(name, join(root, 'config'))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await stopRemote(remote)
  rmSync(root, { recursive: true, force: true })
})

describe('secrets in the data directory', () => {
  it('are only ciphertexts in secrets.json; the database, journal, events, logs and answers never hold them', async () => {
    const dataDir = join(root, 'data')
    const e = await open(dataDir)
    const created = await call(e, 'POST', '/local/v1/sync/profiles/create', { name: 'remote', base_url: remote.url, ...ACCOUNT })
    expect(created.status, created.raw.body).toBe(200)
    const pulled = await call(e, 'POST', '/local/v1/sync/pull/start', { profile_id: created.body.profile_id })
    expect(pulled.body.state).toBe('done')
    const answers = [created.raw.body, pulled.raw.body, (await call(e, 'GET', '/local/v1/sync/profiles/list')).raw.body, (await call(e, 'GET', '/local/v1/requests/list')).raw.body]
    await e.flush()
    await e.close()
    const files = filesUnder(dataDir)
    expect(files.map((f) => f.slice(dataDir.length + 1)).sort()).toEqual(expect.arrayContaining(['admonitor.db', 'secrets.json']))
    for (const f of files) {
      const bytes = readFileSync(f)
      for (const s of SECRETS) {
        expect(bytes.includes(Buffer.from(s)), `${s} in ${f}`).toBe(false)
        expect(bytes.includes(Buffer.from(Buffer.from(s).toString('base64'))), `base64 of ${s} in ${f}`).toBe(false)
      }
    }
    for (const text of [...answers, ...logged]) for (const s of SECRETS) expect(text).not.toContain(s)
    const keys = filesUnder(join(root, 'config')).filter((f) => f.endsWith('.key'))
    expect(keys).toHaveLength(1)
    const key = keys[0]!
    expect(existsSync(join(root, 'secret.key'))).toBe(false)
    if (process.platform !== 'win32') expect(statSync(key).mode & 0o777).toBe(0o600)
  })

  it('are read back by the next start (the test connection logs in)', async () => {
    const e = await open(join(root, 'data'))
    const list = await call(e, 'GET', '/local/v1/sync/profiles/list')
    expect(list.body[0]).toMatchObject({ has_password: true, has_client_secret: true })
    expect((await call(e, 'POST', '/local/v1/sync/profiles/test', { profile_id: list.body[0].profile_id })).body).toMatchObject({ ok: true })
    await e.close()
  })

  it('use the cipher the caller passes (the desktop app: safeStorage)', async () => {
    const dataDir = join(root, 'desk')
    const used: string[] = []
    const fake: SecretCipher = {
      encrypt: (t) => (used.push('encrypt'), Buffer.from([...Buffer.from(t)].map((b) => b ^ 0x5a))),
      decrypt: (b) => (used.push('decrypt'), Buffer.from([...b].map((x) => x ^ 0x5a)).toString()),
    }
    const e = await open(dataDir, fake)
    const created = await call(e, 'POST', '/local/v1/sync/profiles/create', { name: 'remote', base_url: remote.url, ...ACCOUNT })
    expect((await call(e, 'POST', '/local/v1/sync/profiles/test', { profile_id: created.body.profile_id })).body.ok).toBe(true)
    await e.close()
    expect(used).toEqual(['encrypt', 'encrypt', 'decrypt', 'decrypt'])
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toContain(ACCOUNT.password)
  })

  it.skipIf(process.platform === 'win32')('are refused with secrets_unavailable, naming the key file and the command, when other users can read it; nothing changes', async () => {
    const dataDir = join(root, 'open-key')
    const key = join(root, 'open.key')
    writeFileSync(key, `${'ab'.repeat(32)}\n`)
    chmodSync(key, 0o644)
    const refusal = [500, 'secrets_unavailable', `The secrets cannot be stored: the key file ${key} can be read by other users (mode 644); run: chmod 600 "${key}".`]
    let e = await open(dataDir, keyFileCipher(key))
    const refused = await call(e, 'POST', '/local/v1/sync/profiles/create', { name: 'remote', base_url: remote.url, ...ACCOUNT })
    expect([refused.status, refused.body.error, refused.body.error_description]).toEqual(refusal)
    expect((await call(e, 'GET', '/local/v1/sync/profiles/list')).body).toEqual([])
    chmodSync(key, 0o600)
    const created = await call(e, 'POST', '/local/v1/sync/profiles/create', { name: 'remote', base_url: remote.url, ...ACCOUNT })
    expect(created.status).toBe(200)
    await e.close()
    // (the key is read once a run: the next start finds it open again)
    chmodSync(key, 0o644)
    e = await open(dataDir, keyFileCipher(key))
    const update = await call(e, 'POST', '/local/v1/sync/profiles/update', { profile_id: created.body.profile_id, name: 'renamed', password: 'new password' })
    expect([update.status, update.body.error, update.body.error_description]).toEqual(refusal)
    // (not a server_error after the update renamed the profile)
    expect((await call(e, 'GET', '/local/v1/sync/profiles/list')).body.map((p: { name: string }) => p.name)).toEqual(['remote'])
    await e.close()
  })
})
