// vendor-notes §7, DESIGN §3.1: the tracking endpoints as an ad server or a browser calls them.
// Every tag list_spots produces, for every code_type option, is requested with its macros filled,
// answered the vendor's way and counted; a click never goes anywhere but the registered page.
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { CODE_TYPE_NAMES, type CodeType } from '../../../engine/contract/vocabulary'
import type { EngineRequest } from '../../../engine/contract/envelope'
import { makeEngine, toReply, type Reply, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign } from './spot-helpers'

const LIST_SPOTS = endpoints['campaigns.list_spots'].path
const REALTIME = endpoints['reports.realtime_show'].path
const UA_PC = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const IDFA = 'ABCDEF01-2345-6789-ABCD-EF0123456789'
const TODAY = '2025-01-10'
const LANDING = 'https://shop.example/spring?x=1'
const KW_LANDING = 'https://shop.example/milk'

/** What a media server puts in place of each macro; any other macro gets OTHER. */
const FILLED: Record<string, string> = { __IP__: '202.96.134.133', __IDFA__: IDFA, __OS__: '1' }
const OTHER = 'v 1&2=3/牛'

interface Tags { impression_url: string; click_url: string }
interface ListedSpot { spot_id: string; tracking_tags: Tags; keyword: { keywordId: number; tracking_tags: [{ impression_url: string }, { click_url: string }] }[] }

/** Media request ids handed out (each ad request has its own, as ad servers fill __REQUESTID__). */
let requests = 0
/** The device whose IDFA fills __IDFA__ (0: IDFA): each hit() is from another. */
let device = 0
const idfaOf = (n: number): string => (n === 0 ? IDFA : `ABCDEF01-2345-6789-ABCD-${n.toString(16).toUpperCase().padStart(12, '0')}`)

/** The request an ad server makes for a tag: macros filled and encoded, the host taken off. */
function request(url: string, headers: Record<string, string> = {}): EngineRequest {
  const filled = url.replace(/__[A-Z0-9]+__/g, (m) => encodeURIComponent(m === '__REQUESTID__' ? `req-${++requests}` : m === '__IDFA__' ? idfaOf(device) : (FILLED[m] ?? OTHER))).replace(/^https?:\/\/[^/]+/, '')
  const q = filled.indexOf('?')
  const path = q < 0 ? filled : filled.slice(0, q)
  const rawQuery = q < 0 ? '' : filled.slice(q + 1)
  return { method: 'GET', path, query: Object.fromEntries(new URLSearchParams(rawQuery)), rawQuery, headers: { 'user-agent': UA_PC, ...headers }, remoteAddress: '10.0.0.9' }
}

let t: TestEngine
let cid: string
/**
 * One request, from a device of its own (its IDFA, else its cookie, unless the test gives one):
 * the hits of one device would pass its 30 impressions and 5 clicks in 10 minutes and be
 * abnormal (docs/attribution.md), which these tests are not about.
 */
const hit = async (url: string, headers: Record<string, string> = {}): Promise<Reply> => {
  device++
  const own = 'cookie' in headers ? headers : { cookie: `amid=${device.toString(16).padStart(32, '0')}`, ...headers }
  return toReply(await t.engine.handle(request(url, own)))
}
const listSpots = async (code_type?: string): Promise<ListedSpot[]> =>
  (await t.get(LIST_SPOTS, { campaign_id: cid, ...(code_type === undefined ? {} : { code_type }) })).body as ListedSpot[]

/** Today's impressions and clicks of one spot, from the realtime report (platform pm: every hit). */
async function counts(spotId: string): Promise<{ imp: number; clk: number }> {
  const r = await t.get(REALTIME, { campaign_id: cid, date: TODAY, by_position: 'spot', spot_id: spotId, platform: 'pm', metrics: 'day' })
  expect(r.status).toBe(200)
  const m = r.body.items[0]?.metrics ?? {}
  return { imp: m.imp_day ?? 0, clk: m.clk_day ?? 0 }
}

beforeAll(async () => {
  t = await makeEngine()
  cid = await newCampaign(t)
  const a = await createSpot(t, cid, { landing_page: LANDING, keyword: `牛奶^${KW_LANDING}>母乳^` })
  expect(a.status).toBe(200)
  const b = await createSpot(t, cid, { landing_page: '' })
  expect(b.status).toBe(200)
})

describe('every tag of list_spots, with its macros filled, counts', () => {
  const optionSets: CodeType[][] = [[], ...CODE_TYPE_NAMES.map((n) => [n]), CODE_TYPE_NAMES.filter((n) => n !== 'utm_auto'), CODE_TYPE_NAMES.filter((n) => n !== 'utm')]
  it.each(optionSets.map((o) => [o.join(',') || '(none)', o] as const))('code_type=%s', async (_label, options) => {
    for (const spot of await listSpots(options.length ? options.join(',') : undefined)) {
      const before = await counts(spot.spot_id)
      const imp = await hit(spot.tracking_tags.impression_url)
      expect([imp.raw.status, imp.headers['x-admonitor-counted']]).toEqual([200, '1'])
      const clk = await hit(spot.tracking_tags.click_url)
      expect(clk.headers['x-admonitor-counted']).toBe('1')
      expect(clk.raw.status === 204 || (clk.raw.status === 302 && clk.headers.location!.startsWith(LANDING))).toBe(true)
      let kwClicks = 0
      for (const kw of spot.keyword) {
        const ki = await hit(kw.tracking_tags[0].impression_url)
        expect(ki.headers['x-admonitor-counted']).toBe('1')
        const kc = await hit(kw.tracking_tags[1].click_url)
        expect(kc.headers['x-admonitor-counted']).toBe('1')
        expect([LANDING, KW_LANDING].some((page) => kc.headers.location!.startsWith(page))).toBe(true)
        kwClicks++
      }
      expect(await counts(spot.spot_id)).toEqual({ imp: before.imp + 1 + spot.keyword.length, clk: before.clk + 1 + kwClicks })
    }
  })
})

describe('impressions', () => {
  let tags: Tags
  let spot: ListedSpot
  beforeAll(async () => {
    spot = (await listSpots())[0]!
    tags = spot.tracking_tags
  })

  it('answers a transparent 1x1 GIF that no cache keeps', async () => {
    const r = await hit(tags.impression_url)
    expect(r.headers['content-type']).toBe('image/gif')
    expect(Buffer.from(r.raw.bytes ?? []).subarray(0, 6).toString('latin1')).toBe('GIF89a')
    expect(r.headers['cache-control']).toContain('no-store')
  })

  it.each(['0', '1'])('answers 204 without a body for rt=%s', async (rt) => {
    const r = await hit(tags.impression_url.replace('rt=2', `rt=${rt}`))
    expect([r.raw.status, r.headers['x-admonitor-counted']]).toEqual([204, '1'])
  })

  it.each(['/x.gif?', '/x?', '/x/?'])('counts the %sk=... form as the /x/k=... form (docs/attribution.md)', async (form) => {
    const spot = (await listSpots())[0]!
    const before = await counts(spot.spot_id)
    const url = spot.tracking_tags.impression_url.replace('/x/', form)
    expect((await hit(url)).headers['x-admonitor-counted']).toBe('1')
    expect((await counts(spot.spot_id)).imp).toBe(before.imp + 1)
  })

  it.each(['/r.gif?', '/r?'])('counts a click in the %sk=... form and redirects it', async (form) => {
    const spot = (await listSpots())[0]!
    const before = await counts(spot.spot_id)
    const r = await hit(spot.tracking_tags.click_url.replace('/r/', form))
    expect([r.raw.status, r.headers['x-admonitor-counted']]).toEqual([302, '1'])
    expect((await counts(spot.spot_id)).clk).toBe(before.clk + 1)
  })

  it.each(['/e.gif?', '/e?'])('reaches the minisite event endpoint in the %sm=... form', async (form) => {
    const r = await hit(`${form}m=999&ev=1`)
    expect([r.raw.status, r.headers['x-admonitor-counted']]).toEqual([200, '0; minisite 999 does not exist'])
  })

  it('sends a browser without device ids or cookie through the cookie check, and counts it when it comes back with the cookie', async () => {
    const url = tags.impression_url.replace('__IDFA__', '').replace('__OAID__', '').replace('__IP__', '')
    const before = await counts(spot.spot_id)
    const first = await hit(url, { cookie: '' })
    const cookie = first.headers['set-cookie'] ?? ''
    const value = /^amid=([0-9a-f]{32});/.exec(cookie)?.[1] ?? ''
    expect([first.raw.status, first.headers['x-admonitor-counted']]).toEqual([302, `0; cookie check: counted when the browser comes back (as amid:${value}), or after 10 s as its address and user agent`])
    expect(cookie).toMatch(/; HttpOnly; SameSite=Lax$/)
    expect(first.headers['cache-control']).toContain('no-store')
    // the same tag as sent (its macros as this test filled them), the marker first
    const sent = /^\/x\/(.*)&tr=req-\d+&o=$/.exec(request(url).path)?.[1] ?? ''
    expect(first.headers.location).toMatch(new RegExp(`^/x/amc=${value}&${sent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}&tr=req-\\d+&o=$`))
    expect(await counts(spot.spot_id)).toEqual(before)
    const second = await hit(first.headers.location!, { cookie: `amid=${value}` })
    expect([second.raw.status, second.headers['x-admonitor-counted'], second.headers['set-cookie']]).toEqual([200, '1', undefined])
    expect(await counts(spot.spot_id)).toEqual({ ...before, imp: before.imp + 1 })
  })

  it('sets the cookie SameSite=None; Secure on a hit through the https proxy --public-url names (its Host), Lax on a direct one', async () => {
    const url = tags.impression_url.replace('__IDFA__', '').replace('__OAID__', '').replace('__IP__', '')
    const before = t.engine.settings.publicUrl
    t.engine.settings.publicUrl = 'https://ads.example.com'
    try {
      const proxied = await hit(url, { cookie: '', host: 'Ads.Example.com' })
      expect(proxied.headers['set-cookie']).toMatch(/^amid=[^;]+;.*; SameSite=None; Secure$/)
      const direct = await hit(url, { cookie: '', host: '127.0.0.1:8366' })
      expect(direct.headers['set-cookie']).toMatch(/; SameSite=Lax$/)
    } finally {
      t.engine.settings.publicUrl = before
    }
  })

  it('answers the GIF without counting a tag of a spot that is not in the campaign it names', async () => {
    const r = await hit(tags.impression_url.replace(`k=${cid}`, `k=${Number(cid) + 1000}`))
    expect(r.raw.status).toBe(200)
    expect(r.headers['x-admonitor-counted']).toMatch(/^0; spot \w+ is not a spot of campaign \d+$/)
  })

  it.each(['/xyz', '/x.png', '/xx/k=1'])('answers a JSON 404 for %s, no tracking endpoint', async (path) => {
    const r = await hit(path)
    expect(r.raw.status).toBe(404)
    expect(r.body.error).toBeDefined()
  })
})

describe('clicks go only to the registered landing page', () => {
  let spot: ListedSpot

  beforeAll(async () => {
    spot = (await listSpots())[0]!
  })

  it('redirects to the landing page the tag carries', async () => {
    const r = await hit(spot.tracking_tags.click_url)
    expect([r.raw.status, r.headers.location]).toEqual([302, LANDING])
  })

  it.each(['https://evil.example/phish', '//evil.example', 'javascript:alert(1)', ''])('ignores o=%j and redirects to the registered page', async (o) => {
    const url = spot.tracking_tags.click_url.replace(/&o=.*$/, `&o=${encodeURIComponent(o)}`)
    const r = await hit(url)
    expect([r.raw.status, r.headers.location]).toEqual([302, LANDING])
  })

  it("redirects a keyword's click to the keyword's landing page", async () => {
    const kw = spot.keyword.find((k) => k.tracking_tags[1].click_url.includes(encodeURIComponent(KW_LANDING)))!
    const r = await hit(kw.tracking_tags[1].click_url)
    expect(r.headers.location).toBe(KW_LANDING)
  })

  it("falls back to the spot's page for a keyword without one", async () => {
    const kw = spot.keyword.find((k) => !k.tracking_tags[1].click_url.includes(encodeURIComponent(KW_LANDING)))!
    expect((await hit(kw.tracking_tags[1].click_url)).headers.location).toBe(LANDING)
  })

  it('adds the utm parameters with code_type=utm (in the tag) and utm_auto (at redirect time)', async () => {
    for (const option of ['utm', 'utm_auto']) {
      const s = (await listSpots(option))[0]!
      const location = (await hit(s.tracking_tags.click_url)).headers.location ?? ''
      expect(location.startsWith(`${LANDING}&utm_`)).toBe(true)
      expect(new URL(location).searchParams.get('utm_campaign')).not.toBeNull()
    }
  })

  it('answers 204 for a counted click on a spot without a landing page', async () => {
    const other = (await listSpots()).find((s) => s.spot_id !== spot.spot_id)!
    const r = await hit(other.tracking_tags.click_url)
    expect([r.raw.status, r.headers['x-admonitor-counted'], r.headers.location]).toEqual([204, '1', undefined])
  })

  it('answers HEAD requests as GET ones without counting them (link checkers, prefetchers)', async () => {
    const before = await counts(spot.spot_id)
    const head = async (url: string) => toReply(await t.engine.handle({ ...request(url), method: 'HEAD' }))
    const imp = await head(spot.tracking_tags.impression_url)
    expect([imp.raw.status, imp.headers['content-type'], imp.headers['x-admonitor-counted']]).toEqual([200, 'image/gif', '0; a HEAD request, which shows no ad'])
    const clk = await head(spot.tracking_tags.click_url)
    expect([clk.raw.status, clk.headers.location, clk.headers['x-admonitor-counted']]).toEqual([302, LANDING, '0; a HEAD request, which shows no ad'])
    expect(await counts(spot.spot_id)).toEqual(before)
  })

  it.each(['0x4', '4.0', '04', '+4', ' 4'])('takes af=%j for no keyword id', async (af) => {
    const id = spot.keyword[0]!.keywordId
    const r = await hit(spot.tracking_tags.impression_url.replace(/&o=/, `&af=${encodeURIComponent(af.replace('4', String(id)))}&o=`))
    expect(r.headers['x-admonitor-counted']).toMatch(/^0; keyword .* is not a keyword of spot /)
    expect((await hit(spot.tracking_tags.impression_url.replace(/&o=/, `&af=${id}&o=`))).headers['x-admonitor-counted']).toBe('1')
  })

  it("sends a click naming a keyword the spot does not have to the spot's page, without counting it (docs/tracking.md)", async () => {
    const before = await counts(spot.spot_id)
    const unknown = Math.max(...spot.keyword.map((k) => k.keywordId)) + 1000
    const r = await hit(spot.tracking_tags.click_url.replace(/&o=/, `&af=${unknown}&o=`))
    expect([r.raw.status, r.headers.location, r.headers['x-admonitor-counted']]).toEqual([302, LANDING, expect.stringMatching(new RegExp(`^0; keyword ${unknown} is not a keyword of spot \\w+$`))])
    expect(await counts(spot.spot_id)).toEqual(before)
  })

  it('answers 404 and counts nothing for a click on a spot of another campaign', async () => {
    const before = await counts(spot.spot_id)
    const r = await hit(spot.tracking_tags.click_url.replace(`k=${cid}`, `k=${Number(cid) + 1000}`))
    expect([r.raw.status, r.headers.location]).toEqual([404, undefined])
    expect(await counts(spot.spot_id)).toEqual(before)
  })
})

describe("a media request id ('tr') counts once", () => {
  let spots: ListedSpot[]
  beforeAll(async () => {
    spots = await listSpots()
  })
  const withId = (url: string, id: string) => url.replace('__REQUESTID__', encodeURIComponent(id))

  it('does not count a repeat of a counted impression, and says so', async () => {
    const url = withId(spots[0]!.tracking_tags.impression_url, 'media-req-1')
    const before = await counts(spots[0]!.spot_id)
    expect((await hit(url)).headers['x-admonitor-counted']).toBe('1')
    const again = await hit(url)
    expect(again.raw.status).toBe(200)
    expect(again.headers['content-type']).toBe('image/gif')
    expect(again.headers['x-admonitor-counted']).toBe(`0; a repeat of the media request id ('tr') of a hit counted at ${new Date(t.clock.now()).toISOString()}`)
    expect((await counts(spots[0]!.spot_id)).imp).toBe(before.imp + 1)
  })

  it('counts the same id for another spot, another keyword, and a click', async () => {
    const [a, b] = spots
    const id = 'media-req-2'
    const urls = [a!.tracking_tags.impression_url, b!.tracking_tags.impression_url, a!.tracking_tags.click_url, a!.keyword[0]!.tracking_tags[0].impression_url, a!.keyword[1]!.tracking_tags[0].impression_url]
    for (const url of urls) expect((await hit(withId(url, id))).headers['x-admonitor-counted']).toBe('1')
  })

  it('still sends a repeated click to its landing page, without counting it', async () => {
    const url = withId(spots[0]!.tracking_tags.click_url, 'media-req-3')
    const before = await counts(spots[0]!.spot_id)
    const first = await hit(url)
    const again = await hit(url)
    expect([first.raw.status, first.headers['x-admonitor-counted']]).toEqual([302, '1'])
    expect(again.raw.status).toBe(302)
    expect(again.headers.location).toBe(first.headers.location)
    expect(again.headers['x-admonitor-counted']).toMatch(/^0; a repeat of the media request id/)
    expect((await counts(spots[0]!.spot_id)).clk).toBe(before.clk + 1)
  })

  it('counts every hit whose id is missing, empty, an unreplaced macro, too long or holds control characters', async () => {
    const tag = spots[0]!.tracking_tags.impression_url
    const before = await counts(spots[0]!.spot_id)
    const variants = [tag.replace('&tr=__REQUESTID__', ''), withId(tag, ''), withId(tag, '  '), withId(tag, '__REQUESTID__'), withId(tag, '__REQUEST_ID__'), withId(tag, 'x'.repeat(129)), withId(tag, 'a\u0001b')]
    for (const url of variants) for (let i = 0; i < 2; i++) expect((await hit(url)).headers['x-admonitor-counted']).toBe('1')
    expect((await counts(spots[0]!.spot_id)).imp).toBe(before.imp + 2 * variants.length)
  })

  it('compares ids exactly (case, spaces inside, any character), and trims them', async () => {
    const tag = spots[1]!.tracking_tags.impression_url
    for (const id of ['Req-A', 'req-a', 'req a', '牛奶-1', 'x'.repeat(128)]) expect((await hit(withId(tag, id))).headers['x-admonitor-counted']).toBe('1')
    for (const id of [' Req-A ', '牛奶-1']) expect((await hit(withId(tag, id))).headers['x-admonitor-counted']).toMatch(/^0; a repeat/)
  })

  it('counts the id again once 24 hours have passed since the counted hit', async () => {
    const url = withId(spots[1]!.tracking_tags.impression_url, 'media-req-4')
    expect((await hit(url)).headers['x-admonitor-counted']).toBe('1')
    t.clock.advance(24 * 3_600_000 - 1)
    expect((await hit(url)).headers['x-admonitor-counted']).toMatch(/^0; a repeat/)
    t.clock.advance(1)
    expect((await hit(url)).headers['x-admonitor-counted']).toBe('1')
    t.clock.advance(-24 * 3_600_000)
  })

  it("lets a bot's hit (in no daily report) take no id: the person's own hit with it counts", async () => {
    const url = withId(spots[1]!.tracking_tags.impression_url, 'media-req-5')
    expect((await hit(url, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).headers['x-admonitor-counted']).toMatch(/^0; invalid traffic \(declared bot: /)
    expect((await hit(url)).headers['x-admonitor-counted']).toBe('1')
    expect((await hit(url)).headers['x-admonitor-counted']).toMatch(/^0; a repeat/)
  })
})

describe('X-AdMonitor-Counted says whether a hit counts in the default (net) figures', () => {
  let spots: ListedSpot[]
  beforeAll(async () => {
    spots = await listSpots()
  })
  /** The tag from a cloud provider's address (its ns=, which the codes carry as __IP__). */
  const dataCentre = (url: string) => (url.includes('__IP__') ? url.replace('__IP__', '47.100.1.1') : url.replace('&o=', '&ns=47.100.1.1&o='))

  it('says 0 and the class for a bot, a data-centre hit where the spot leaves them out, and a hit beyond the frequency limit', async () => {
    const [keywordSpot, plain] = spots
    expect((await hit(plain!.tracking_tags.impression_url, { 'user-agent': 'curl/8.5.0' })).headers['x-admonitor-counted']).toMatch(/^0; invalid traffic \(declared bot: curl\/.*\): counted in realtime only$/)
    expect((await hit(dataCentre(plain!.tracking_tags.impression_url))).headers['x-admonitor-counted']).toMatch(/^0; invalid traffic \(data centre: .+\): this spot leaves data-centre hits out \(dangerous_source_filtration=1\)$/)
    // a keyword spot counts data-centre hits (its default)
    expect((await hit(dataCentre(keywordSpot!.tracking_tags.impression_url))).headers['x-admonitor-counted']).toBe('1')
    const one = { cookie: `amid=${'f'.repeat(32)}` }
    const said: string[] = []
    for (let i = 0; i < 31; i++) said.push((await hit(plain!.tracking_tags.impression_url.replace('__IDFA__', ''), one)).headers['x-admonitor-counted']!)
    expect(said.slice(0, 30).every((x) => x === '1')).toBe(true)
    expect(said[30]).toBe("0; invalid traffic (beyond the identity's frequency limit, 30 impressions or 5 clicks in 10 minutes): counted under totalnet only")
  })

  it("counts no spot for a p= written with a leading 0 (list_spots never writes one; `01` was spot 1)", async () => {
    const tag = spots[0]!.tracking_tags.impression_url
    const p = /[?&/]p=([0-9A-Za-z]+)/.exec(tag)![1]!
    expect((await hit(tag.replace(`p=${p}`, `p=0${p}`))).headers['x-admonitor-counted']).toBe("0; no spot ('p') in the tag")
  })
})

describe('the cookie check (docs/attribution.md §2)', () => {
  let spot: ListedSpot
  beforeAll(async () => {
    spot = (await listSpots())[0]!
  })
  /** A tag as a browser fetches it: no device id, no ns= (no server-to-server hit). */
  const browserTag = (url: string) => url.replace('__IDFA__', '').replace('__OAID__', '').replace('__IP__', '')
  const valueOf = (r: Reply) => /^amid=([0-9a-f]{32});/.exec(r.headers['set-cookie'] ?? '')?.[1] ?? ''

  it('sends a click back with the marker first, then to its landing page once the browser comes back', async () => {
    const before = await counts(spot.spot_id)
    const first = await hit(browserTag(spot.tracking_tags.click_url), { cookie: '' })
    const value = valueOf(first)
    expect(first.raw.status).toBe(302)
    // the tag as sent, the marker first and the landing page (o=) still last
    const sent = request(browserTag(spot.tracking_tags.click_url)).path
    expect(first.headers.location!.replace(/&tr=req-\d+&/, '&tr=&')).toBe(`/r/amc=${value}&${sent.slice(3)}`.replace(/&tr=req-\d+&/, '&tr=&'))
    expect((await counts(spot.spot_id)).clk).toBe(before.clk)
    const second = await hit(first.headers.location!, { cookie: `amid=${value}` })
    expect([second.raw.status, second.headers.location, second.headers['x-admonitor-counted']]).toEqual([302, LANDING, '1'])
    expect((await counts(spot.spot_id)).clk).toBe(before.clk + 1)
  })

  it.each(['/x.gif?', '/x?', '/x/?'])('puts the marker at the start of the query in the %sk=... form', async (form) => {
    const url = browserTag(spot.tracking_tags.impression_url).replace('/x/', form)
    const first = await hit(url, { cookie: '' })
    expect(first.raw.status).toBe(302)
    expect(first.headers.location).toMatch(new RegExp(`^${form.replace(/[.?]/g, '\\$&')}amc=${valueOf(first)}&k=`))
    expect((await hit(first.headers.location!, { cookie: `amid=${valueOf(first)}` })).headers['x-admonitor-counted']).toBe('1')
  })

  it('counts a browser that comes back without the cookie (a refuser), and a marker it never issued, as address and agent', async () => {
    const before = await counts(spot.spot_id)
    const first = await hit(browserTag(spot.tracking_tags.impression_url), { cookie: '' })
    expect((await hit(first.headers.location!, { cookie: '' })).headers['x-admonitor-counted']).toBe('1')
    const forged = browserTag(spot.tracking_tags.impression_url).replace('/x/', `/x/amc=${'0'.repeat(32)}&`)
    expect((await hit(forged, { cookie: '' })).raw.status).toBe(200)
    expect((await counts(spot.spot_id)).imp).toBe(before.imp + 2)
  })

  it('answers a HEAD first contact without a check or a cookie', async () => {
    const r = toReply(await t.engine.handle({ ...request(browserTag(spot.tracking_tags.impression_url)), method: 'HEAD' }))
    expect([r.status, r.headers['set-cookie'], r.headers['x-admonitor-counted']]).toEqual([200, undefined, '0; a HEAD request, which shows no ad'])
  })
})
