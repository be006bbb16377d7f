// Measurement truth: a replay of real-world traffic through the HTTP door,
// over real sockets from many loopback addresses: browsers behind one office NAT with one reduced
// Chrome agent, each keeping its own cookie jar and following the cookie check's redirect; some of
// them later at home (movers); cookie refusers behind one carrier NAT; a client that never follows
// redirects; iPhone apps whose media fill IDFA and CAID inconsistently. The truth is computed here,
// from the world the test built (who is one person for the documented model: docs/attribution.md),
// never from the engine's rules. Then the same reports after a rebuild, a restart from the checkpoint
// and a restart replaying the whole log must be byte-identical.
import { request } from 'node:http'
import { mkdtempSync, rmSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../engine'
import { FileEventLog } from '../../../engine/measure/event-log'
import { startHttpDoor, type HttpDoor } from '../../../engine/server/http'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, FakeClock, seededRandom } from '../../helpers/make-engine'

const CHROME_131 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1'
const IPHONE_APP = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 NewsArticle/9.8.0'
const EDGE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'
const DAY1 = '2025-03-03'
const DAY2 = '2025-03-04'
const HOUR = 3_600_000

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/** One GET over a real socket from `from` (a loopback address), with the path sent as written. */
function get(door: HttpDoor, from: string, path: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: door.port, localAddress: from, method: 'GET', path, headers: { connection: 'close', host: `127.0.0.1:${door.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** A browser: a user agent, its cookie jar (or none, for a refuser) and whether it follows redirects. */
class Browser {
  jar = ''
  constructor(readonly ua: string, readonly keepsCookies: boolean, readonly followsRedirects = true) {}

  /** Fetches a tag as an <img> does: following the cookie check's redirect, storing the cookie. */
  async fetch(door: HttpDoor, from: string, path: string): Promise<Reply> {
    let at = path
    for (let hop = 0; hop < 3; hop++) {
      const r = await get(door, from, at, { 'user-agent': this.ua, ...(this.jar ? { cookie: this.jar } : {}) })
      const set = r.headers['set-cookie']
      if (this.keepsCookies && set) this.jar = String(Array.isArray(set) ? set[0] : set).split(';')[0]!
      const location = r.headers.location
      if (r.status !== 302 || !this.followsRedirects || typeof location !== 'string' || !location.startsWith('/x')) return r
      at = location
    }
    throw new Error(`redirected more than twice: ${path}`)
  }
}

/** An app on an iPhone: its IDFA and CAID, of which the media fill some on each hit. */
interface App {
  idfa: string
  caid: string
  /** Per hit: which ids the media filled. */
  fills: ('both' | 'idfa' | 'caid')[]
}

/** Fills a tag's macros as a media's ad server does for an app hit (IDFA, CAID; the rest left unfilled). */
function appPath(tag: string, app: App, fill: App['fills'][number]): string {
  return tag
    .replace('__IDFA__', fill === 'caid' ? '' : app.idfa)
    .replace('__CAID__', fill === 'idfa' ? '' : app.caid)
    .replace('__OS__', '1')
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0')

describe('a day of real-world traffic replayed through the HTTP door', () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

  it('counts browsers behind one NAT, movers, refusers and linked app ids as the people they are, and a rebuild and restarts give the same reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admonitor-replay-'))
    dirs.push(dir)
    const clock = new FakeClock(DAY1)
    clock.t = Date.parse(`${DAY1}T09:00:00+08:00`)
    // (each start its own seed: a restarted process draws new random values, as with the system's source)
    let starts = 0
    const open = () => createEngine({ storage: fileStorage(dir), eventLog: new FileEventLog(join(dir, 'events')), clock, random: seededRandom(7 + starts++), account: ACCOUNT, log: { error: () => undefined, info: () => undefined } })
    let engine: Engine = await open()
    let door = await startHttpDoor(engine, { port: 0 })
    const api = async (method: 'GET' | 'POST', path: string, params: Record<string, string>) => {
      const r = await engine.handle(method === 'GET'
        ? { method, path, query: { ...params, access_token: token } }
        : { method, path, query: {}, body: new URLSearchParams({ ...params, access_token: token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body}`)
      return JSON.parse(r.body)
    }
    const login = async () => {
      const r = await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: new URLSearchParams({ grant_type: 'password', ...ACCOUNT }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      if (r.status !== 200) throw new Error(`login: ${r.status} ${r.body}`)
      return JSON.parse(r.body).access_token as string
    }
    let token = await login()
    const campaign = (await api('POST', '/cms/v1/campaigns/create', { campaign_name: 'Replay', start_date: DAY1, end_date: '2025-03-31', platform: 'pm' })).campaign_id as string
    await api('POST', '/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })
    const listed = await api('GET', '/cms/v1/campaigns/list_spots', { campaign_id: campaign, code_type: 'mma' })
    const tag = new URL(listed.spots?.[0]?.tracking_tags?.impression_url ?? listed[0]?.tracking_tags?.impression_url).pathname
    // the plain tag (no device macros filled) for browsers; the mma macros stay unreplaced there
    const webTag = tag

    // ---- the world, and who is one person in it (the truth) ----
    const office = '127.0.0.10'
    const carrierNat = '127.0.0.20'
    const officeBrowsers = Array.from({ length: 30 }, () => new Browser(CHROME_131, true))
    const refusers = Array.from({ length: 20 }, () => new Browser(IPHONE_SAFARI, false))
    const noRedirects = new Browser(EDGE, true, false)
    const apps: App[] = [
      { idfa: 'A1B2C3D4-0000-4000-8000-000000000001', caid: hex(1, 32), fills: ['both', 'caid', 'caid', 'idfa'] },
      { idfa: 'A1B2C3D4-0000-4000-8000-000000000002', caid: hex(2, 32), fills: ['idfa', 'caid', 'both', 'caid'] },
      { idfa: 'A1B2C3D4-0000-4000-8000-000000000003', caid: hex(3, 32), fills: ['caid', 'idfa', 'both'] },
      { idfa: 'A1B2C3D4-0000-4000-8000-000000000004', caid: hex(4, 32), fills: ['caid', 'caid'] },
      { idfa: 'A1B2C3D4-0000-4000-8000-000000000005', caid: hex(5, 32), fills: ['idfa', 'both', 'idfa'] },
    ]
    // persons: every office browser (each its own jar, also when it moves), the refusers' crowd as one
    // (one address, one agent, no cookie: the documented limit), the client without redirects by its
    // address and agent, every app's device
    const truth = { persons: officeBrowsers.length + 1 + 1 + apps.length, impressions: 0, day2Persons: 0 }

    // ---- day 1: the office browsers, 4 impressions each over the morning; the refusers; the apps ----
    for (let round = 0; round < 4; round++) {
      for (const b of officeBrowsers) {
        clock.advance(7_000)
        const r = await b.fetch(door, office, webTag)
        expect(r.headers['x-admonitor-counted'], `office browser, round ${round}`).toBe('1')
        truth.impressions++
      }
    }
    for (let round = 0; round < 3; round++) {
      for (const b of refusers) {
        clock.advance(5_000)
        const r = await b.fetch(door, carrierNat, webTag)
        expect(r.headers['x-admonitor-counted'], 'refuser').toBe('1')
        truth.impressions++
      }
    }
    for (const a of apps) {
      for (const fill of a.fills) {
        clock.advance(11_000)
        const r = await get(door, `127.0.0.${30 + apps.indexOf(a)}`, appPath(tag, a, fill), { 'user-agent': IPHONE_APP })
        expect(r.status).toBe(200)
        expect(r.headers['x-admonitor-counted'], `app ${apps.indexOf(a)} ${fill}`).toBe('1')
        truth.impressions++
      }
    }
    // a client that does not follow the redirect: counted once, after the wait, as its address and agent
    const first = await noRedirects.fetch(door, '127.0.0.40', webTag)
    expect(first.status).toBe(302)
    truth.impressions++
    clock.advance(HOUR)
    // (any tracking request lets the engine count what waited too long)
    await officeBrowsers[0]!.fetch(door, office, webTag)
    truth.impressions++

    // ---- day 2: ten office browsers at home (movers), the refusers again ----
    clock.t = Date.parse(`${DAY2}T19:00:00+08:00`)
    const day2 = new Set<string>()
    for (let i = 0; i < 10; i++) {
      for (let round = 0; round < 2; round++) {
        clock.advance(9_000)
        const r = await officeBrowsers[i]!.fetch(door, `127.0.1.${i + 1}`, webTag)
        expect(r.headers['x-admonitor-counted'], 'mover').toBe('1')
        truth.impressions++
        day2.add(`browser ${i}`)
      }
    }
    for (const b of refusers.slice(0, 5)) {
      clock.advance(4_000)
      await b.fetch(door, carrierNat, webTag)
      truth.impressions++
      day2.add('refusers')
    }
    truth.day2Persons = day2.size

    // ---- the figures ----
    token = await login()
    const basic = async (by: string, metrics: string) => {
      const r = await engine.handle({ method: 'GET', path: '/admonitor/v1/reports/basic/show', query: { access_token: token, campaign_id: campaign, date: DAY2, platform: 'pm', by_position: by, by_region: 'level0', metrics } })
      expect(r.status, r.body).toBe(200)
      return r.body
    }
    const overall = JSON.parse(await basic('campaign', 'all')).items.find((i: { attributes: { audience: string; region_id: string } }) => i.attributes.audience === 'overall' && i.attributes.region_id === '000000000000000000000000')
    expect(overall.metrics.imp_acc).toBe(truth.impressions)
    expect(overall.metrics.uim_acc).toBe(truth.persons)
    expect(overall.metrics.uim_day).toBe(truth.day2Persons)

    // the identities by kind (measurement status): every office browser's cookie; the refusers' crowd
    // and the client without redirects by address and agent; every id an app's media ever filled,
    // all but one of each app linked to its device
    const idsOf = (a: App) => new Set(a.fills.flatMap((f) => (f === 'both' ? ['idfa', 'caid'] : [f])))
    const status = await engine.handle({ method: 'GET', path: '/local/v1/measurement/status', query: { access_token: token } })
    expect(JSON.parse(status.body).identity_kinds).toEqual({
      cookie: officeBrowsers.length, address: 2,
      device: apps.reduce((n, a) => n + idsOf(a).size, 0), linked: apps.reduce((n, a) => n + idsOf(a).size - 1, 0),
    })

    const snapshot = async () => [await basic('spot', 'all'), await basic('campaign', 'acc')]
    const before = await snapshot()

    // a rebuild from the raw events
    const rebuilt = await engine.handle({ method: 'POST', path: '/local/v1/measurement/rebuild', query: {}, body: `access_token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(rebuilt.status, rebuilt.body).toBe(200)
    expect(await snapshot()).toEqual(before)

    // a restart from the checkpoint the close saves, then one that replays the whole log
    const restart = async (dropCheckpoint: boolean) => {
      await door.close()
      await engine.close()
      if (dropCheckpoint) for (const f of readdirSync(join(dir, 'events'))) if (f.startsWith('checkpoint')) rmSync(join(dir, 'events', f))
      engine = await open()
      door = await startHttpDoor(engine, { port: 0 })
      token = await login()
    }
    await restart(false)
    expect(await snapshot()).toEqual(before)
    await restart(true)
    expect(await snapshot()).toEqual(before)
    await door.close()
    await engine.close()
  })
})
