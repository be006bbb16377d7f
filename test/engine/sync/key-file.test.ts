// docs/sync.md "The key file": by default each data directory has its own key file, in the user's
// config folder, named by the id the directory keeps (engine/sync/setup.ts); secrets a data
// directory stored with the shared secret.key of its parent (the former default) are still read,
// and moved to its own key at the next start.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEngine, type Engine } from '../../../engine/index'
import { FileEventLog } from '../../../engine/measure/event-log'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { keyFileCipher, type SecretCipher } from '../../../engine/sync/secrets'
import { ACCOUNT, FakeClock, toReply } from '../../helpers/make-engine'
import { FAST, startRemote, stopRemote, type Remote } from './remote'

let remote: Remote
let root: string
/** The user's config folder of this test (XDG_CONFIG_HOME, or the home folder on macOS and Windows). */
let config: string
const logged: string[] = []
const log = { error: (m: string) => void logged.push(m), info: () => undefined }

async function open(dataDir: string, secretCipher?: SecretCipher): Promise<Engine> {
  return createEngine({ storage: fileStorage(dataDir), eventLog: new FileEventLog(join(dataDir, 'events')), clock: new FakeClock('2025-01-10'), log, sync: FAST, ...(secretCipher ? { secretCipher } : {}) })
}

async function call(e: Engine, path: string, params: Record<string, string> = {}) {
  const body = new URLSearchParams({ ...params, access_token: await e.localToken() }).toString()
  return toReply(await e.handle({ method: 'POST', path, query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
}

/** A data directory with one remote profile whose secrets are stored; the engine is closed. */
async function withProfile(dataDir: string, secretCipher?: SecretCipher): Promise<string> {
  const e = await open(dataDir, secretCipher)
  const r = await call(e, '/local/v1/sync/profiles/create', { name: 'remote', base_url: remote.url, ...ACCOUNT })
  expect(r.status, r.raw.body).toBe(200)
  await e.close()
  return r.body.profile_id as string
}

/** Whether the data directory's profile logs in to the remote: its secrets decrypt. */
async function logsIn(dataDir: string, profileId: string): Promise<boolean> {
  const e = await open(dataDir)
  const r = await call(e, '/local/v1/sync/profiles/test', { profile_id: profileId })
  await e.close()
  return r.body?.ok === true
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)])) : []
const keyFiles = () => filesUnder(config).filter((f) => f.endsWith('.key'))
const keyIdOf = (dataDir: string) => readFileSync(join(dataDir, 'secrets.key-id'), 'utf8').trim()

beforeAll(async () => {
  remote = await startRemote(0)
})
afterAll(async () => {
  await stopRemote(remote)
  vi.unstubAllEnvs()
})
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'admonitor-key-'))
  config = join(root, 'config')
  mkdirSync(config)
  for (const name of ['XDG_CONFIG_HOME', 'HOME', 'APPDATA']) vi.stubEnv(name, config)
  logged.length = 0
  return () => rmSync(root, { recursive: true, force: true })
})

describe('the default key file', () => {
  it('is one per data directory, in the config folder: sibling directories share none, and nothing is written beside them', async () => {
    const [a, b] = [join(root, 'work', 'a'), join(root, 'work', 'b')]
    const ids = [await withProfile(a), await withProfile(b)]
    expect(readdirSync(join(root, 'work')).sort()).toEqual(['a', 'b'])
    expect(keyIdOf(a)).toMatch(/^[0-9a-f]{32}$/)
    expect(keyIdOf(a)).not.toBe(keyIdOf(b))
    const keys = keyFiles()
    expect(keys.map((k) => basename(k)).sort()).toEqual([`${keyIdOf(a)}.key`, `${keyIdOf(b)}.key`].sort())
    if (process.platform === 'linux') expect(keys.map((k) => dirname(k))).toEqual([join(config, 'AdMonitor Desk', 'keys'), join(config, 'AdMonitor Desk', 'keys')])
    if (process.platform !== 'win32') for (const k of keys) expect(statSync(k).mode & 0o777).toBe(0o600)
    expect(readFileSync(keys[0]!, 'utf8')).not.toBe(readFileSync(keys[1]!, 'utf8'))
    expect(await logsIn(a, ids[0]!)).toBe(true)
    expect(await logsIn(b, ids[1]!)).toBe(true)
  })

  it('follows the directory when it moves; a copy under another user config folder cannot read the secrets', async () => {
    const dataDir = join(root, 'before')
    const id = await withProfile(dataDir)
    renameSync(dataDir, join(root, 'after'))
    expect(await logsIn(join(root, 'after'), id)).toBe(true)
    cpSync(join(root, 'after'), join(root, 'copy'), { recursive: true })
    for (const name of ['XDG_CONFIG_HOME', 'HOME', 'APPDATA']) vi.stubEnv(name, join(root, 'other-user'))
    expect(await logsIn(join(root, 'copy'), id)).toBe(false)
  })

  it("reads the secrets a directory stored with its parent's shared secret.key, and moves them to its own key at start", async () => {
    const dataDir = join(root, 'work', 'data')
    const shared = join(root, 'work', 'secret.key')
    // what the former default stored: the parent's secret.key
    const id = await withProfile(dataDir, keyFileCipher(shared))
    const before = readFileSync(join(dataDir, 'secrets.json'), 'utf8')
    expect(await logsIn(dataDir, id)).toBe(true)
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toBe(before)
    expect(keyFiles()).toEqual([expect.stringMatching(new RegExp(`${keyIdOf(dataDir)}\\.key$`))])
    // the shared key stays (a sibling may still need it), and this directory no longer does
    expect(existsSync(shared)).toBe(true)
    renameSync(shared, `${shared}.away`)
    expect(await logsIn(dataDir, id)).toBe(true)
    expect(logged).toEqual([])
  })

  it('still reads secrets under the shared key when a start stopped after making its own key, and moves them next time', async () => {
    const dataDir = join(root, 'work', 'data')
    const shared = join(root, 'work', 'secret.key')
    const id = await withProfile(dataDir, keyFileCipher(shared))
    // a start moves them; putting the former secrets.json back is the state of a crash after the
    // own key was made and before secrets.json was replaced
    const before = readFileSync(join(dataDir, 'secrets.json'), 'utf8')
    const e = await open(dataDir)
    await e.close()
    expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).not.toBe(before)
    expect(keyFiles()).toHaveLength(1)
    writeFileSync(join(dataDir, 'secrets.json'), before)
    expect(await logsIn(dataDir, id)).toBe(true)
    renameSync(shared, `${shared}.away`)
    expect(await logsIn(dataDir, id)).toBe(true)
  })
})
