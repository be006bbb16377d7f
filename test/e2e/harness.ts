/**
 * End-to-end harness: a fresh build of the app, `npm run serve` (scripts/serve.mjs) on a free
 * port with a fresh data directory and a preset account, and headless Chromium driven by
 * playwright-core. Screenshots go to test-output/e2e/.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { ROOT } from '../helpers/build'

export const CHROMIUM = process.env.ADMONITOR_CHROMIUM ?? '/usr/bin/chromium'
export const ACCOUNT = { username: 'e2e-user', password: 'e2e-Password-123', client_id: 'e2e-client', client_secret: 'e2e-Client-Secret-456' }
export const SHOTS = join(ROOT, 'test-output', 'e2e')

/** Why the end-to-end tests cannot run here, or null when they can. */
export function cannotRun(): string | null {
  return existsSync(CHROMIUM) ? null : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium, or set ADMONITOR_CHROMIUM)`
}

export interface Served {
  url: string
  dataDir: string
  stop(): Promise<void>
}

/** Starts `npm run serve` (without npm) on port 0 with the build in `outDir`; resolves with its URL. */
/**
 * The engine's time zone for a run: a whole-hour offset from UTC at which it is about 10:00 when
 * the run starts, so that the run (minutes) never crosses the engine's midnight. "Today" is the
 * first day a campaign may start, and the simulator makes today's traffic up to now: at 00:00 in
 * Asia/Shanghai, the engine's default, there was none yet, and the simulator's step failed.
 */
export const ZONE_HOURS = ((10 - new Date().getUTCHours() + 36) % 24) - 12
export const ENGINE_ZONE = ZONE_HOURS === 0 ? 'Etc/UTC' : `Etc/GMT${ZONE_HOURS > 0 ? '-' : '+'}${Math.abs(ZONE_HOURS)}`

/** Options of `serve`: `demo` starts with `--demo` and resolves once the demo data is made (docs/demo.md). */
export interface ServeOptions {
  demo?: boolean
}

/** How long a server may take to stop after SIGTERM (it saves a checkpoint and closes its files). */
const STOP_MS = 20_000

export async function serve(outDir: string, opts: ServeOptions = {}): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'admonitor-e2e-'))
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ADMONITOR_')) env[k] = v
  Object.assign(env, {
    ADMONITOR_SKIP_UI_BUILD: '1', ADMONITOR_UI_DIR: join(outDir, 'renderer'),
    ADMONITOR_USERNAME: ACCOUNT.username, ADMONITOR_PASSWORD: ACCOUNT.password,
    ADMONITOR_CLIENT_ID: ACCOUNT.client_id, ADMONITOR_CLIENT_SECRET: ACCOUNT.client_secret,
  })
  const args = ['scripts/serve.mjs', '--port', '0', '--data-dir', dataDir, '--time-zone', ENGINE_ZONE, ...(opts.demo ? ['--demo'] : [])]
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s))
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), opts.demo ? 180_000 : 60_000)
    const check = () => {
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m && (!opts.demo || /demo campaign \d+:/.test(out))) (clearTimeout(timer), resolve(m[1]!))
    }
    child.stdout!.on('data', check)
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`serve exited with ${code}:\n${out}`))))
  })
  return {
    url, dataDir,
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        // a server that does not stop is a failure to see, not a run that hangs until CI's limit
        const stopped = await Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), STOP_MS))])
        if (!stopped) {
          child.kill('SIGKILL')
          await gone
          rmSync(dataDir, { recursive: true, force: true })
          throw new Error(`serve did not stop within ${STOP_MS / 1000} s of SIGTERM; its output:\n${out.slice(-4000)}`)
        }
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Headless Chromium (no sandbox: CI containers run as root). */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless'] })
}

/** Signs in on the login page of the app served at `url` (the bench signs in with its own account). */
export async function signIn(page: Page, url: string, account: typeof ACCOUNT = ACCOUNT): Promise<void> {
  await page.goto(url)
  await page.waitForURL(/#\/login/)
  await page.fill('[data-test=username] input', account.username)
  await page.fill('[data-test=password] input', account.password)
  await page.fill('[data-test=client-id] input', account.client_id)
  await page.fill('[data-test=client-secret] input', account.client_secret)
  await page.click('[data-test=sign-in]')
  await page.waitForURL(/#\/campaigns/)
}

/** Saves a full-page screenshot as test-output/e2e/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

/** A token for API calls made by the test itself (to compare the screen with the API). */
export async function apiToken(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'password', ...ACCOUNT }) })
  return ((await res.json()) as { access_token: string }).access_token
}

/** GET an API path as JSON with the token. */
export async function apiGet<T>(url: string, token: string, path: string, query: Record<string, string | number> = {}): Promise<T> {
  const u = new URL(path, url)
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v))
  u.searchParams.set('access_token', token)
  const res = await fetch(u)
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}
