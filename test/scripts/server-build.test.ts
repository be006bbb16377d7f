// scripts/server-build.mjs, the server that `npm run serve` runs: the bundle is plain JavaScript
// (node runs it without tsx), finds the packages' data files from its own folder (regions: CLDR,
// province tables, pinyin; addresses: ip2region and the ASN list, on its import worker thread),
// and answers what the TypeScript sources answer. And when a build is due.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { local } from '../../bin/commands'
import { openEngine } from '../../bin/open'
import { campaignWithSpot } from '../helpers/cli-data'
import { ROOT, buildServer, bundleFile, isBundleStale, isStale } from '../../scripts/server-build.mjs'

const base = mkdtempSync(join(tmpdir(), 'admonitor-server-build-'))
const ACCOUNT = { ADMONITOR_USERNAME: 'bundle', ADMONITOR_PASSWORD: 'bundle-Password-1', ADMONITOR_CLIENT_ID: 'bundle-client', ADMONITOR_CLIENT_SECRET: 'bundle-Secret-12' }
const ENV = { ...process.env, ...ACCOUNT }
const children: ChildProcess[] = []
let campaign = ''
let spot = ''

afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
  rmSync(base, { recursive: true, force: true })
})

/** A data directory with one campaign of today (UTC) and one spot: the same ids in every one made so. */
async function dataDir(name: string): Promise<string> {
  const dir = join(base, name)
  ;({ campaign, spot } = await campaignWithSpot(dir, 'Bundle'))
  return dir
}

/** Impressions from addresses of Beijing, Guangdong and a cloud's data centre, identified by address and agent alone. */
function eventsFile(): string {
  const agent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
  const ips = ['123.125.71.38', '113.108.81.189', '3.5.140.2', '223.104.3.8']
  const ts = new Date(Date.now() - 1_000).toISOString()
  const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ type: 'impression', ts, campaign_id: Number(campaign), spot_id: Number(spot), ip: ips[i % ips.length], user_agent: `${agent} ${i % 7}` }))
  const file = join(base, 'events.ndjson')
  writeFileSync(file, lines.join('\n'))
  return file
}

/** basic/show by province and the city list, through the sources in this process. */
async function answersOf(dir: string): Promise<unknown[]> {
  const { engine } = await openEngine({ dataDir: dir, timeZone: 'UTC' })
  try {
    const date = new Date().toISOString().slice(0, 10)
    return [
      await local(engine, 'GET', '/admonitor/v1/reports/basic/show', { campaign_id: campaign, date, platform: 'pm', by_region: 'level1', filtration_type: 'totalnet' }),
      await local(engine, 'GET', '/cms/v1/regions/list', { level: '2', lang: 'en' }),
    ]
  } finally {
    await engine.close()
  }
}

describe('the server bundle', () => {
  let bundled = ''
  let sources = ''
  beforeAll(async () => {
    Object.assign(process.env, ACCOUNT)
    await buildServer('server')
    bundled = await dataDir('bundled')
    sources = await dataDir('sources')
  }, 120_000)

  it('imports on its worker thread what the sources import, region by region', () => {
    const file = eventsFile()
    const cli = (dir: string, ...node: string[]) => spawnSync(process.execPath, [...node, 'import', file, '--workers', '1', '--data-dir', dir, '--time-zone', 'UTC'], { cwd: ROOT, encoding: 'utf8', env: ENV, timeout: 120_000 })
    const viaBundle = cli(bundled, bundleFile('server'))
    expect(viaBundle.status, viaBundle.stderr).toBe(0)
    expect(viaBundle.stderr).toMatch(/^40 events imported, 0 rejected, .* parsed by 1 worker thread/m)
    const viaSources = cli(sources, '--import', 'tsx', join(ROOT, 'bin', 'admonitor.ts'))
    expect(viaSources.status, viaSources.stderr).toBe(0)
  }, 120_000)

  it('answers over HTTP as the sources answer in process', async () => {
    const [report, cities] = await answersOf(sources)
    // (the addresses were placed: Beijing's and Guangdong's, GB codes 11 and 44)
    const regions = (report as { items: { attributes: { region_id: string } }[] }).items.map((i) => i.attributes.region_id)
    expect(regions).toEqual(expect.arrayContaining(['000000000000001156110000', '000000000000001156440000']))
    const server = spawn(process.execPath, [bundleFile('server'), '--port', '0', '--data-dir', bundled, '--time-zone', 'UTC'], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(server)
    let out = ''
    server.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s))
    server.stderr!.setEncoding('utf8').on('data', (s: string) => (out += s))
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout!.on('data', () => {
        const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
        if (m) resolve(m[1]!)
      })
      server.on('exit', (code) => reject(new Error(`the bundle exited with ${code}:\n${out}`)))
    })
    const tokenAnswer = await fetch(`${url}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: ACCOUNT.ADMONITOR_USERNAME, password: ACCOUNT.ADMONITOR_PASSWORD, client_id: ACCOUNT.ADMONITOR_CLIENT_ID, client_secret: ACCOUNT.ADMONITOR_CLIENT_SECRET }),
    })
    const token = ((await tokenAnswer.json()) as { access_token: string }).access_token
    const get = async (path: string, q: Record<string, string>) => (await fetch(`${url}${path}?${new URLSearchParams({ ...q, access_token: token })}`)).json()
    const date = new Date().toISOString().slice(0, 10)
    expect(await get('/admonitor/v1/reports/basic/show', { campaign_id: campaign, date, platform: 'pm', by_region: 'level1', filtration_type: 'totalnet' })).toEqual(report)
    expect(await get('/cms/v1/regions/list', { level: '2', lang: 'en' })).toEqual(cities)
    const gone = new Promise((r) => server.once('exit', r))
    server.kill('SIGTERM')
    await gone
    expect(server.exitCode, out).toBe(0)
  }, 120_000)
})

describe('isStale', () => {
  const dir = join(base, 'stale')
  const at = (file: string, secondsAgo: number) => {
    writeFileSync(file, '')
    const t = new Date(Date.now() - secondsAgo * 1000)
    utimesSync(file, t, t)
    return file
  }

  it('is true while a bundle file is missing, false once both are newer than every source, true when a source changes', () => {
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true })
    const source = at(join(dir, 'src', 'deep', 'a.ts'), 60)
    const built = [join(dir, 'a.mjs'), join(dir, 'b.mjs')]
    at(built[0]!, 30)
    expect(isStale(built, [join(dir, 'src')])).toBe(true)
    at(built[1]!, 30)
    expect(isStale(built, [join(dir, 'src')])).toBe(false)
    at(source, 0)
    expect(isStale(built, [join(dir, 'src')])).toBe(true)
  })
})

describe('isBundleStale', () => {
  it('is true once a source the bundle was built from is gone, though every one left is older than the bundle', () => {
    const dir = join(base, 'gone')
    mkdirSync(join(dir, 'src'), { recursive: true })
    const sources = ['a.ts', 'b.ts'].map((f) => join(dir, 'src', f))
    for (const f of sources) writeFileSync(f, '')
    const old = new Date(Date.now() - 60_000)
    for (const f of sources) utimesSync(f, old, old)
    const built = join(dir, 'a.mjs')
    writeFileSync(built, '')
    writeFileSync(join(dir, 'inputs.txt'), `${sources.join('\n')}\n`)
    expect(isBundleStale(dir, [built])).toBe(false)
    rmSync(sources[1]!)
    expect(isBundleStale(dir, [built])).toBe(true)
  })
})

// a checkout this user cannot write (another user's, or a read-only one): root writes anywhere, so
// as root the server is started as nobody
const asOther = process.platform === 'win32' ? null : process.getuid?.() === 0 ? (spawnSync('setpriv', ['--version']).status === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : null) : []

describe.skipIf(asOther === null)('npm run serve in a checkout it cannot write', () => {
  it('says in a few lines that the bundle and the interface cannot be built there, and what to run, with no stack', () => {
    const checkout = join(base, 'read-only')
    mkdirSync(join(checkout, 'out'), { recursive: true })
    cpSync(join(ROOT, 'scripts'), join(checkout, 'scripts'), { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'))
    for (const d of [base, checkout]) chmodSync(d, 0o755)
    chmodSync(join(checkout, 'out'), 0o555)
    const [cmd, ...args] = [...asOther!, process.execPath, join(checkout, 'scripts', 'serve.mjs'), '--port', '0']
    const r = spawnSync(cmd!, args, { cwd: checkout, encoding: 'utf8', env: { ...ENV, HOME: checkout }, timeout: 60_000 })
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/^The web interface is missing or older than its sources and cannot be built into .*out[\\/]renderer \(EACCES\); the API is served anyway\.$/m)
    expect(r.stderr).toMatch(/^The server's bundle \(.*out[\\/]server\) is missing or older than its sources, and cannot be written here \(EACCES\)\.$/m)
    expect(r.stderr).toMatch(/^Build it as a user who can write the checkout \(node scripts\/server-build\.mjs\), or run the sources instead: npx tsx bin\/admonitor\.ts serve --port 0$/m)
    expect(r.stderr).not.toMatch(/^\s+at /m)
  }, 60_000)
})
