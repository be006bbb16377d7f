// docs/tracking.md "Answers", docs/attribution.md §2: clients that do not
// follow redirects, server-to-server trackers, prefetches, hits outside the campaign's dates, the
// media's hit time. The truth is what each test sent, counted here.
import { beforeEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, type Reply, type TestEngine } from '../../helpers/make-engine'
import { TrackingClient } from '../../helpers/tracking-client'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const BASIC = endpoints['reports.basic_show'].path
const REALTIME = endpoints['reports.realtime_show'].path
const GLOBAL = '000000000000000000000000'
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const HOME = '202.96.134.133'
const LANDING = 'https://shop.example/spring'
const HOUR = 3_600_000
/** 2025-01-10 00:00 in the engine zone (UTC+8). */
const MIDNIGHT = Date.parse('2025-01-10T00:00:00+08:00')

let t: TestEngine
let cid = ''
let imp = ''
let clk = ''
let cookies = 0

/** A browser that keeps its own cookie (it is past its first contact). */
const browser = (ua = CHROME): TrackingClient => {
  const b = new TrackingClient(t.engine, { userAgent: ua, ip: HOME })
  b.jar.set('amid', (++cookies).toString(16).padStart(32, '0'))
  return b
}
const counted = (r: Reply): string => r.headers['x-admonitor-counted'] ?? ''

async function setUp(start = '2025-01-10', end = '2025-03-31'): Promise<void> {
  cid = await newCampaign(t, start, end)
  const spot = await createSpot(t, cid, { landing_page: LANDING, dangerous_source_filtration: 0 })
  expect(spot.status, spot.raw.body).toBe(200)
  const listed = await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })
  imp = listed.body[0].tracking_tags.impression_url
  clk = listed.body[0].tracking_tags.click_url
}

beforeEach(async () => {
  t = await makeEngine({ today: '2025-01-10' })
})

/** realtime/show of `date`: imp_day and the hours with impressions. */
async function realtime(date = '2025-01-10'): Promise<{ imp: number; clk: number; hours: Record<string, number> }> {
  t.token = await t.login() // (the fake clock may have moved past the token's hour)
  const r = await t.get(REALTIME, { campaign_id: cid, date, platform: 'pm', metrics: 'all' })
  expect(r.status, r.raw.body).toBe(200)
  const m: Record<string, number> = r.body.items[0]?.metrics ?? {}
  return { imp: m.imp_day ?? 0, clk: m.clk_day ?? 0, hours: Object.fromEntries(Object.entries(m).filter(([k, v]) => k.startsWith('imp_h') && v > 0)) }
}

async function basic(date: string): Promise<Record<string, number>> {
  t.token = await t.login()
  const r = await t.get(BASIC, { campaign_id: cid, date, platform: 'pm', metrics: 'all' })
  expect(r.status, r.raw.body).toBe(200)
  return (r.body.items as { attributes: { region_id: string }; metrics: Record<string, number> }[]).find((i) => i.attributes.region_id === GLOBAL)?.metrics ?? {}
}

describe('a client that does not follow redirects', () => {
  it('is counted once, after 10 s, at the time of its first request, as its address and agent; coming back later does not count again', async () => {
    await setUp()
    t.clock.advance(MIDNIGHT + 12 * HOUR + 59 * 60_000 + 55_000 - t.clock.now()) // 12:59:55
    const curlLike = new TrackingClient(t.engine, { userAgent: CHROME, ip: HOME, followsRedirects: false, keepsCookies: false })
    const [first] = await curlLike.get(imp)
    expect(first!.status).toBe(302)
    expect(counted(first!)).toMatch(/^0; cookie check: counted when the browser comes back \(as amid:[0-9a-f]{32}\), or after 10 s as its address and user agent$/)
    t.clock.advance(9_000)
    expect(counted(await browser().last(imp))).toBe('1') // 13:00:04: the check still waits
    expect((await realtime()).hours).toEqual({ imp_h13: 1 })
    t.clock.advance(2_000)
    expect(counted(await browser().last(imp))).toBe('1') // 13:00:06: the wait is over
    expect((await realtime()).hours).toEqual({ imp_h12: 1, imp_h13: 2 })
    // its second leg after all, without the cookie: answered, not counted a second time
    const late = await curlLike.get(first!.headers.location!)
    expect([late[0]!.status, counted(late[0]!)]).toEqual([200, '0; the cookie check of this hit was counted already'])
    t.clock.advance(60_000)
    await browser().last(imp)
    expect((await realtime()).hours).toEqual({ imp_h12: 1, imp_h13: 3 })
    // the three browsers with their cookies, and the client as its address and agent
    expect((await basic('2025-01-10')).uim_acc).toBe(4)
  })

  it('is counted when the engine closes before its wait is over', async () => {
    await setUp()
    const events = t.engine.measure.columns.events
    const [first] = await new TrackingClient(t.engine, { userAgent: CHROME, ip: HOME, followsRedirects: false }).get(imp)
    expect(first!.status).toBe(302)
    expect(t.engine.measure.columns.events).toBe(events)
    await t.engine.close()
    expect(t.engine.measure.columns.events).toBe(events + 1)
  })
})

describe('a server-to-server tracker (ns= names the person\'s address)', () => {
  it('is counted at once, without a check, as the address it names and the agent it passes', async () => {
    await setUp()
    const tracker = new TrackingClient(t.engine, { userAgent: ANDROID, ip: '47.100.1.1', followsRedirects: false, keepsCookies: false })
    const url = imp.replace('__IP__', '61.135.169.121')
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1_000)
      const answers = await tracker.get(url)
      expect(answers.map((a) => [a.status, counted(a), a.headers['set-cookie']])).toEqual([[200, '1', undefined]])
    }
    tracker.ip = '47.100.9.9' // another server of the ad network, the same person
    expect(counted(await tracker.last(url))).toBe('1')
    const m = await basic('2025-01-10')
    expect([m.imp_acc, m.uim_acc]).toEqual([4, 1])
  })
})

describe('speculative requests (prefetch, prerender)', () => {
  it.each([['sec-purpose', 'prefetch'], ['purpose', 'prefetch'], ['sec-purpose', 'prefetch;prerender']])('are answered, not counted nor recorded: %s: %s', async (name, value) => {
    await setUp()
    const events = t.engine.measure.columns.events
    const shown = name === 'purpose' ? 'Purpose' : 'Sec-Purpose'
    const why = `0; a speculative request (${shown}: ${value}), which shows no ad`
    for (const b of [browser(), new TrackingClient(t.engine, { userAgent: CHROME, ip: HOME })]) {
      const i = await b.get(imp, { [name]: value })
      expect(i.map((a) => [a.status, a.headers['content-type'], counted(a), a.headers['set-cookie']])).toEqual([[200, 'image/gif', why, undefined]])
      const c = await b.get(clk, { [name]: value })
      expect(c.map((a) => [a.status, a.headers.location, counted(a)])).toEqual([[302, LANDING, why]])
    }
    expect(t.engine.measure.columns.events).toBe(events)
    expect(await realtime()).toEqual({ imp: 0, clk: 0, hours: {} })
  })
})

describe('the campaign\'s dates', () => {
  it('answers a hit before start_date with the reason, records it, and leaves it out of realtime and basic', async () => {
    await setUp('2025-01-11', '2025-01-31')
    const events = t.engine.measure.columns.events
    const r = await browser().last(imp)
    expect([r.status, counted(r)]).toEqual([200, "0; outside the campaign's dates (2025-01-11 to 2025-01-31): counted in no report"])
    expect(t.engine.measure.columns.events).toBe(events + 1)
    expect(await realtime('2025-01-10')).toEqual({ imp: 0, clk: 0, hours: {} })
    t.clock.advance(86_400_000)
    expect(counted(await browser().last(imp))).toBe('1')
    expect((await realtime('2025-01-11')).imp).toBe(1)
    expect((await basic('2025-01-11')).imp_acc).toBe(1)
  })

  it('counts declared bots in realtime (the vendor\'s realtime is not filtered), not in basic', async () => {
    await setUp()
    const bot = browser('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')
    expect(counted(await bot.last(imp))).toMatch(/^0; invalid traffic \(declared bot: .*\): counted in realtime only$/)
    expect(counted(await browser().last(imp))).toBe('1')
    expect((await realtime()).imp).toBe(2)
    expect((await basic('2025-01-10')).imp_acc).toBe(1)
  })
})

describe("the media's hit time (nt=)", () => {
  const withNt = (nt: string): string => imp.replace('&o=', `&nt=${nt}&o=`)

  it('dates a hit up to 3 hours late at its time, refuses an older or a future one', async () => {
    t = await makeEngine({ today: '2025-01-09' })
    await setUp('2025-01-09', '2025-03-31')
    t.clock.advance(MIDNIGHT + 1 * HOUR - t.clock.now()) // 01:00 on 2025-01-10
    const now = t.clock.now()
    expect(counted(await browser().last(withNt(String(now - 2 * HOUR))))).toBe('1') // 23:00 the day before (ms)
    expect(counted(await browser().last(withNt(String(Math.floor((now - 30 * 60_000) / 1000)))))).toBe('1') // 00:30 (seconds)
    expect(counted(await browser().last(withNt(String(now + 30_000))))).toBe('1') // clocks differ: at arrival
    expect(counted(await browser().last(withNt('__TS__')))).toBe('1')
    const old = String(now - 4 * HOUR)
    expect(counted(await browser().last(withNt(old)))).toBe(`0; the media's hit time (nt=${old}) is more than 3 hours before arrival: send such hits through the event import`)
    const ahead = String(now + 5 * 60_000)
    expect(counted(await browser().last(withNt(ahead)))).toBe(`0; the media's hit time (nt=${ahead}) is in the future`)
    const day9 = await basic('2025-01-09')
    expect([day9.imp_acc, day9.imp_acc_h23]).toEqual([1, 1])
    const day10 = await basic('2025-01-10')
    expect([day10.imp_day, day10.imp_acc_h00, day10.imp_acc_h01]).toEqual([3, 1, 2])
  })
})
