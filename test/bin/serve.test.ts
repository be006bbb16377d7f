// bin/admonitor.ts through scripts/serve.mjs, end to end: a real process, a real data dir, a real port.
// DESIGN §5 (first-run secrets shown once), §2 (durability across restarts).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PRESET = { username: 'preset-user', password: 'preset-Password-123', client_id: 'preset-client', client_secret: 'preset-Client-Secret-456' }
const PRESET_ENV = {
  ADMONITOR_USERNAME: PRESET.username,
  ADMONITOR_PASSWORD: PRESET.password,
  ADMONITOR_CLIENT_ID: PRESET.client_id,
  ADMONITOR_CLIENT_SECRET: PRESET.client_secret,
}
const STARTUP_MS = 30_000

interface Server {
  child: ChildProcess
  out: () => string
  err: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: ChildProcess[] = []
const dirs: string[] = []

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'admonitor-serve-'))
  dirs.push(d)
  return d
}

/** The environment of the parent minus any ADMONITOR_* setting, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ADMONITOR_')) env[k] = v
  return { ...env, ADMONITOR_SKIP_UI_BUILD: '1', ...extra }
}

function spawnServe(args: string[], extraEnv: Record<string, string> = {}): Server {
  const child = spawn(process.execPath, ['scripts/serve.mjs', ...args], { cwd: ROOT, env: cleanEnv(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s))
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  return { child, out: () => out, err: () => err, exited }
}

/** Waits until stdout matches `re`; fails with the output so far if the process exits or time runs out. */
async function waitForOutput(s: Server, re: RegExp, ms = STARTUP_MS): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms
  let gone = false
  void s.exited.then(() => (gone = true))
  for (;;) {
    const m = re.exec(s.out())
    if (m) return m
    if (gone || Date.now() > deadline) throw new Error(`no ${re} in output (exited: ${gone})\n--- stdout\n${s.out()}\n--- stderr\n${s.err()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<{ s: Server; url: string }> {
  const s = spawnServe(['--port', '0', '--data-dir', dataDir], env)
  const m = await waitForOutput(s, /AdMonitor Desk is serving (http:\/\/127\.0\.0\.1:(\d+))/)
  // The first-run block is printed after the URL line; wait for the end of startup output.
  await waitForOutput(s, /API description: /)
  if (s.out().includes('First run')) await waitForOutput(s, /\/oauth\/token\n/)
  return { s, url: m[1]! }
}

async function stop(s: Server): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  s.child.kill('SIGTERM')
  return s.exited
}

async function login(url: string, a: typeof PRESET): Promise<Response> {
  return fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', ...a }).toString(),
  })
}

async function tokenFor(url: string, a: typeof PRESET): Promise<string> {
  const r = await login(url, a)
  const body = (await r.json()) as { access_token?: string }
  expect(r.status, JSON.stringify(body)).toBe(200)
  expect(typeof body.access_token).toBe('string')
  return body.access_token!
}

afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL')
      await new Promise((r) => c.once('exit', r))
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('admonitor serve', () => {
  const dataDir = tempDir()
  let campaignId = ''

  it('serves the preset account, keeps a new campaign and stops cleanly when sent SIGTERM', async () => {
    const { s, url } = await start(dataDir, PRESET_ENV)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/)
    // Preset secrets are never echoed.
    expect(s.out()).not.toContain(PRESET.password)
    expect(s.out()).not.toContain(PRESET.client_secret)

    const token = await tokenFor(url, PRESET)
    const created = await fetch(`${url}/cms/v1/campaigns/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: token, campaign_name: 'Survives a restart', start_date: '2099-01-01', end_date: '2099-02-01' }).toString(),
    })
    const body = (await created.json()) as { campaign_id: string }
    expect(created.status, JSON.stringify(body)).toBe(200)
    expect(body.campaign_id).toMatch(/^[0-9]+$/)
    campaignId = body.campaign_id
    // an event, so that the next start has a log to read
    const spot = await fetch(`${url}/cms/v1/campaigns/create_spot`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: token, campaign_id: campaignId, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' }).toString(),
    })
    const spotId = ((await spot.json()) as { spot_id: string }).spot_id
    const line = JSON.stringify({ type: 'impression', ts: '2099-01-02T10:00:00+08:00', campaign_id: campaignId, spot_id: spotId, identity: 'idfa:6d92078a-8246-4ba4-ae5b-76104861e7dc' })
    const imported = await fetch(`${url}/local/v1/events/import?${new URLSearchParams({ access_token: token, format: 'ndjson', wait: '1' })}`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: line })
    expect(await imported.json()).toMatchObject({ imported: 1 })

    const { code, signal } = await stop(s)
    expect(signal).toBeNull()
    expect(code).toBe(0)
    expect(s.out()).toContain('stopped.')
  })

  it('still has the campaign and prints no first-run secrets when restarted on the same data dir', async () => {
    expect(campaignId).not.toBe('')
    const { s, url } = await start(dataDir, PRESET_ENV)
    const token = await tokenFor(url, PRESET)
    const r = await fetch(`${url}/cms/v1/campaigns/show?${new URLSearchParams({ access_token: token, campaign_id: campaignId })}`)
    const c = (await r.json()) as { campaign_name: string; start_date: string; end_date: string }
    expect(r.status, JSON.stringify(c)).toBe(200)
    expect(c).toMatchObject({ campaign_name: 'Survives a restart', start_date: '2099-01-01', end_date: '2099-02-01' })

    expect(s.out()).not.toContain('First run')
    expect(s.out()).not.toMatch(/password:|client_secret:|username:|client_id:/)
    // the events are read after it listens (requests that need them wait), and said when read
    await waitForOutput(s, /1 recorded event\(s\) loaded in \d+\.\d s/)
    expect(s.out().indexOf('is serving')).toBeLessThan(s.out().indexOf('recorded event(s) loaded'))

    const { code } = await stop(s)
    expect(code).toBe(0)
    expect(s.out()).toContain('stopped.')
  })

  it('prints username, password, client_id and client_secret once on a first run without presets, and they log in', async () => {
    const dir = tempDir()
    const { s, url } = await start(dir)
    const out = s.out()
    const field = (name: string) => {
      const all = [...out.matchAll(new RegExp(`^\\s*${name}:\\s+(\\S+)\\s*$`, 'gm'))]
      expect(all, `${name} in\n${out}`).toHaveLength(1)
      return all[0]![1]!
    }
    const account = { username: field('username'), password: field('password'), client_id: field('client_id'), client_secret: field('client_secret') }
    expect(account.password.length).toBeGreaterThanOrEqual(16)
    expect(account.client_secret.length).toBeGreaterThanOrEqual(16)
    // Each secret appears exactly once in the whole output (not repeated in the curl hint).
    for (const secret of [account.password, account.client_secret]) expect(out.split(secret)).toHaveLength(2)

    await tokenFor(url, account)
    expect((await login(url, { ...account, password: `${account.password}x` })).status).toBe(400)

    expect((await stop(s)).code).toBe(0)
    const again = await start(dir)
    expect(again.s.out()).not.toContain(account.password)
    expect(again.s.out()).not.toContain(account.client_secret)
    expect(again.s.out()).not.toContain('First run')
    await tokenFor(again.url, account)
    expect((await stop(again.s)).code).toBe(0)
  })

  it('exits with code 2 and names the option when --port is 99999', async () => {
    const s = spawnServe(['--port', '99999', '--data-dir', tempDir()])
    const { code } = await s.exited
    expect(code).toBe(2)
    expect(s.err()).toMatch(/--port/)
    expect(s.err()).toContain('99999')
    expect(s.out()).not.toContain('is serving')
  })

  it("answers the Host of --public-url (a proxy in front forwards it)", async () => {
    const s = spawnServe(['--port', '0', '--data-dir', tempDir(), '--public-url', 'https://ads.example.com'], PRESET_ENV)
    const port = Number((await waitForOutput(s, /is serving http:\/\/127\.0\.0\.1:(\d+)/))[1])
    await waitForOutput(s, /API description: /)
    const statusFor = (host: string) => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/openapi.json', headers: { host } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)))
      req.on('error', reject)
      req.end()
    })
    expect(await statusFor('ads.example.com')).toBe(200)
    expect(await statusFor('evil.example.com')).toBe(403)
    expect((await stop(s)).code).toBe(0)
  })

  it('refuses to start a second server on a data dir in use, naming the lock and the process', async () => {
    const dir = tempDir()
    const first = await start(dir, PRESET_ENV)
    const second = spawnServe(['--port', '0', '--data-dir', dir], PRESET_ENV)
    const { code } = await second.exited
    expect(code).not.toBe(0)
    expect(second.out()).not.toContain('is serving')
    expect(second.err()).toMatch(/lock/i)
    expect(second.err()).toContain(String(first.s.child.pid))
    // The first server is unharmed.
    await tokenFor(first.url, PRESET)
    expect((await stop(first.s)).code).toBe(0)
  })
})
