// vendor-notes §7: impressions (/x/), clicks (/r/) and minisite events (/e/); DESIGN §3.1-3.5
import { fromBase62 } from '../contract/base62'
import { headerValue } from '../contract/envelope'
import { ApiError, E } from '../contract/errors'
import { TAG_PARAMS } from '../contract/tracking-url'
import { amidSetCookie, MARKER_PARAM, speculativeRequest, withMarker, type Attribution } from '../measure/attribute'
import type { CookieChecks } from '../measure/cookie-check'
import type { SpotInfo } from '../measure/lookup'
import { MAX_CLICKS_PER_WINDOW, MAX_IMPRESSIONS_PER_WINDOW } from '../measure/identities'
import { IVT, KIND, LATE_HIT_MS, flagIvt, flagOver, type Hit } from '../measure/types'
import { RawResponse } from '../answers'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import { dateIn } from '../time-zone'
import { landingOf, utmFor, withUtm } from '../tracking/tags'

/** A transparent 1x1 GIF. */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

const NO_STORE = { 'cache-control': 'no-store, no-cache, must-revalidate', pragma: 'no-cache' }

/** The host of the public URL when it is https (lower case), else '' (kept for the last URL seen: every hit asks). */
let httpsHost = { url: '', host: '' }
function httpsHostOf(publicUrl: string): string {
  if (httpsHost.url !== publicUrl) {
    let host = ''
    try {
      const u = new URL(publicUrl)
      if (u.protocol === 'https:') host = u.host.toLowerCase()
    } catch {
      host = ''
    }
    httpsHost = { url: publicUrl, host }
  }
  return httpsHost.host
}

/**
 * Whether a hit came over https: this server speaks http only, so through the TLS proxy that
 * `--public-url https://…` names, which forwards its Host. The `amid` cookie is then
 * `SameSite=None; Secure`, which a browser sends back from a tag on another site (browsers do
 * not send a `Lax` cookie on such cross-site requests).
 */
function overHttps(ctx: Ctx): boolean {
  const host = httpsHostOf(ctx.settings.publicUrl)
  return host !== '' && (ctx.request.headers?.host ?? '').toLowerCase() === host
}

/** The raw query string of the request ('' when none). */
function queryOf(ctx: Ctx): string {
  const r = ctx.request
  return r.rawQuery ?? new URLSearchParams(Object.entries(r.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString()
}

function attribute(ctx: Ctx): Attribution {
  const r = ctx.request
  const a = ctx.measure.attributor(ctx.random).attribute({ path: r.path, query: queryOf(ctx), headers: r.headers ?? {}, remoteAddress: r.remoteAddress ?? '', secure: overHttps(ctx) })
  if (!a) throw new ApiError(E.notFound, `There is no tracking endpoint at ${r.path}.`)
  return a
}

/** The engine's first contacts waiting for their cookie check (every tracking request has its `due()` count those whose wait is over). */
const checksOf = (ctx: Ctx): CookieChecks => ctx.measure.cookieChecks(ctx.clock, ctx.log)

/** The answer of a pixel: the GIF (or 204 when rt asks for no body), whether it counted. */
function pixel(a: Attribution, why: string): RawResponse {
  // (the reasons quote the tag's values, which may hold any character)
  const counted = headerValue(why)
  const rt = a.tracking.params.get(TAG_PARAMS.reply)
  // written out, not spread: every tracking hit makes one
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff', 'cache-control': NO_STORE['cache-control'], pragma: NO_STORE.pragma, 'x-admonitor-counted': counted }
  if (rt === '0' || rt === '1') return new RawResponse(204, headers, '')
  headers['content-type'] = 'image/gif'
  return new RawResponse(200, headers, PIXEL)
}

/** A campaign or keyword id as a tag carries it. */
const ID = /^[1-9][0-9]{0,15}$/

/** Why a HEAD request does not count: it fetches no ad (link checkers and prefetchers send them). */
const HEAD_REQUEST = '0; a HEAD request, which shows no ad'

interface Target {
  info: SpotInfo
  /** The spot's id (its info holds it as spot_id_str). */
  spot: number
  keyword: number
}

/** A tag that does not count: why, and its spot when only its keyword is unknown. */
interface Miss {
  why: string
  info?: SpotInfo
}

/** The spot (and keyword) a tag names, or why it does not count. */
function target(ctx: Ctx, a: Attribution): Target | Miss {
  const k = a.tracking.params.get(TAG_PARAMS.campaign) ?? ''
  const p = a.tracking.params.get(TAG_PARAMS.spot) ?? ''
  // (a leading 0 is no spot either: list_spots never writes one, and `01` was read as spot 1)
  const spotId = p.length > 1 && p.startsWith('0') ? null : fromBase62(p)
  if (!ID.test(k)) return { why: "no campaign ('k') in the tag" }
  if (spotId === null) return { why: "no spot ('p') in the tag" }
  const spot = Number(spotId)
  const info = ctx.measure.lookup().spot(spot)
  if (!info || String(info.campaign_id) !== k) return { why: `spot ${p} is not a spot of campaign ${k}` }
  const af = a.tracking.params.get(TAG_PARAMS.keyword)
  // (written as list_spots writes it: `0x4`, `4.0` or `04` is no keyword id)
  if (af !== undefined && af !== '' && !(ID.test(af) && info.keywords.has(Number(af)))) return { why: `keyword ${af} is not a keyword of spot ${p}`, info }
  return { info, spot, keyword: af ? Number(af) : 0 }
}

const isMiss = (t: Target | Miss): t is Miss => 'why' in t

/** A hit of the attribution `a` at `ts`, with its other device ids and its legacy text (Hit.links, Hit.legacy); no media request id. */
function hit(a: Attribution, ts: number, kind: Hit['kind'], campaign: number, spot: number, keyword: number): Hit {
  const h: Hit = { kind, ts, campaign, spot, keyword, identity: a.identity, platform: a.platform, sdk: a.sdk, region: a.region, ivt: a.ivt }
  if (a.links.length > 0) h.links = a.links
  if (a.legacy !== undefined) h.legacy = a.legacy
  return h
}

/**
 * Whether a recorded hit counts in the spot's default (`net`) figures: '1', or '0; ' and its
 * invalid-traffic class (docs/tracking.md; metrics.md, filtration_type).
 */
export function countedWhy(flags: number, rule: string, filtersDataCentres: boolean): string {
  const ivt = flagIvt(flags)
  if (ivt === IVT.valid) return '1'
  if (ivt === IVT.bot) return `0; invalid traffic (${rule}): counted in realtime only`
  if (ivt === IVT.datacenter && filtersDataCentres) return `0; invalid traffic (${rule}): this spot leaves data-centre hits out (dangerous_source_filtration=1)`
  if (ivt === IVT.abnormal || flagOver(flags)) return BEYOND_LIMIT
  return '1'
}

/** (one string: an identity beyond its limit sends its hits fast) */
const BEYOND_LIMIT = `0; invalid traffic (beyond the identity's frequency limit, ${MAX_IMPRESSIONS_PER_WINDOW} impressions or ${MAX_CLICKS_PER_WINDOW} clicks in 10 minutes): counted under totalnet only`

/** How late the media's hit time (`nt=`) may be, and how far ahead of arrival it may be (clocks differ). */
export const NT_LATE_MS = LATE_HIT_MS
export const NT_AHEAD_MS = 60_000
const NT = /^(?:[0-9]{10}|[0-9]{13})$/

/**
 * When a hit happened (vendor-notes §7.1 `nt`, server-to-server): the media's time when `nt=`
 * holds 10 digits (seconds) or 13 (ms) within NT_LATE_MS before arrival (a time up to NT_AHEAD_MS
 * ahead is arrival: clocks differ), else arrival; or why the hit is not counted.
 */
export function hitTime(arrival: number, nt: string | undefined): number | string {
  if (nt === undefined || !NT.test(nt)) return arrival
  const ms = nt.length === 13 ? Number(nt) : Number(nt) * 1000
  if (ms < arrival - NT_LATE_MS) return `0; the media's hit time (nt=${nt}) is more than 3 hours before arrival: send such hits through the event import`
  if (ms > arrival + NT_AHEAD_MS) return `0; the media's hit time (nt=${nt}) is in the future`
  return Math.min(ms, arrival)
}

/** Why a hit is not counted before anything else is looked at (a HEAD, a prefetch, its time), or its time. */
function firstLook(ctx: Ctx, a: Attribution): number | string {
  if (ctx.request.method === 'HEAD') return HEAD_REQUEST
  const speculative = speculativeRequest(ctx.request.headers ?? {})
  if (speculative !== '') return `0; a speculative request (${speculative}), which shows no ad`
  return hitTime(ctx.clock.now(), a.tracking.params.get(TAG_PARAMS.hitTime))
}

const COUNTED_ON_EXPIRY = '0; the cookie check of this hit was counted already'

/** A hit to count, or the marker of the cookie check that holds it, or why it is not counted. */
type Decision = { hit: Hit } | { check: string } | { why: string }

/**
 * What becomes of the hit `h` of `a` (docs/attribution.md §2): a browser's second leg resolves its
 * check (not counted when its check was counted on expiry); a first contact is held for a cookie
 * check (counted at once as its address identity when MAX_PENDING are held).
 */
function decide(ctx: Ctx, checks: CookieChecks, a: Attribution, h: Hit): Decision {
  if (a.marker !== null) {
    const held = checks.take(a.marker)
    if (held === 'expired') return { why: COUNTED_ON_EXPIRY }
    // (the second leg is the impression of the first: dated when the browser first asked, so a
    // return a few seconds later does not move it to the next hour or day)
    if (held !== null) h.ts = held.ts
  }
  if (a.kind !== 'check') return { hit: h }
  const value = Buffer.from(ctx.random.bytes(16)).toString('hex')
  return checks.hold(value, h) ? { check: value } : { hit: h }
}

/** The cookie check's answer: back to the same tag with the marker, with the new cookie; nothing counted yet. */
function checkAnswer(ctx: Ctx, value: string): RawResponse {
  const to = headerValue(withMarker(ctx.request.path, queryOf(ctx), MARKER_PARAM, value) ?? ctx.request.path, true)
  return new RawResponse(302, {
    ...NO_STORE, location: to, 'set-cookie': amidSetCookie(value, overHttps(ctx)), 'content-type': 'text/plain; charset=utf-8',
    'x-admonitor-counted': `0; cookie check: counted when the browser comes back (as amid:${value}), or after 10 s as its address and user agent`,
  }, `Found: ${to}`)
}

/** Why a hit of a day outside its campaign's dates counts in no report (it is recorded all the same), or ''. */
function outsideDates(ctx: Ctx, info: SpotInfo, ts: number): string {
  const day = dateIn(ctx.settings.timeZone, ts)
  return day < info.start_date || day > info.end_date ? `0; outside the campaign's dates (${info.start_date} to ${info.end_date}): counted in no report` : ''
}

/**
 * Counts an impression or a click, or holds it for its cookie check: '1', or why not: its class,
 * its campaign's dates, or a repeat of a media request id counted already (docs/attribution.md,
 * "Media request id"; the id itself is not echoed: it may be long).
 */
async function count(ctx: Ctx, checks: CookieChecks, a: Attribution, kind: Hit['kind'], t: Target): Promise<{ why: string } | { check: string }> {
  const ts = firstLook(ctx, a)
  if (typeof ts === 'string') return { why: ts }
  const h = hit(a, ts, kind, t.info.campaign_id, t.spot, t.keyword)
  if (a.request !== '') h.request = a.request
  const d = decide(ctx, checks, a, h)
  if (!('hit' in d)) return d
  const done = await ctx.measure.ingest.addOne(d.hit)
  if ('full' in done) return { why: `0; ${done.full}` }
  if ('repeatOf' in done) return { why: `0; a repeat of the media request id ('tr') of a hit counted at ${new Date(done.repeatOf).toISOString()}` }
  return { why: outsideDates(ctx, t.info, d.hit.ts) || countedWhy(done.flags, a.rule, t.info.filtersDataCentres) }
}

const impression: Handler<'tracking.impression'> = async (ctx) => {
  const a = attribute(ctx)
  const checks = checksOf(ctx)
  // (first contacts whose wait is over are counted before this hit; no wait when none is: most hits)
  const due = checks.due()
  if (due !== null) await due
  const t = target(ctx, a)
  if (isMiss(t)) return pixel(a, `0; ${t.why}`)
  const done = await count(ctx, checks, a, KIND.impression, t)
  return 'check' in done ? checkAnswer(ctx, done.check) : pixel(a, done.why)
}

/**
 * Where a click goes (DESIGN §3.1): only ever the registered landing page of the spot or keyword,
 * as the tag carries it or with its utm parameters; any other o= is ignored, never followed.
 */
export function clickTarget(info: SpotInfo, keyword: number, o: string, utmAuto: boolean): string {
  const kw = keyword ? info.keywords.get(keyword) : undefined
  const landing = landingOf(info.spot, kw)
  if (landing === '') return ''
  const tagged = withUtm(landing, utmFor(info.campaign, info.spot, kw))
  if (utmAuto) return tagged
  return o === tagged ? tagged : landing
}

const click: Handler<'tracking.click'> = async (ctx) => {
  const a = attribute(ctx)
  const checks = checksOf(ctx)
  // (first contacts whose wait is over are counted before this hit; no wait when none is: most hits)
  const due = checks.due()
  if (due !== null) await due
  const t = target(ctx, a)
  if (isMiss(t) && !t.info) throw new ApiError(E.notFound, `This click cannot be followed: ${t.why}.`)
  // a repeated click still goes to its page: the person clicked; and so does a click whose
  // keyword is unknown, to its spot's page, without counting
  const done = isMiss(t) ? { why: `0; ${t.why}` } : await count(ctx, checks, a, KIND.click, t)
  if ('check' in done) return checkAnswer(ctx, done.check)
  const counted = done.why
  const [info, keyword] = isMiss(t) ? [t.info!, 0] : [t.info, t.keyword]
  const to = clickTarget(info, keyword, a.tracking.params.get(TAG_PARAMS.landing) ?? '', a.tracking.params.get(TAG_PARAMS.redirect) === 'sm')
  // (the reason quotes the tag's values and the lookup's names, which may hold any character)
  const headers = { ...NO_STORE, 'x-admonitor-counted': headerValue(counted) }
  if (to === '') return new RawResponse(204, headers, '')
  return new RawResponse(302, { ...headers, location: headerValue(to, true), 'content-type': 'text/plain; charset=utf-8' }, `Found: ${to}`)
}

const event: Handler<'tracking.event'> = async (ctx) => {
  const a = attribute(ctx)
  const checks = checksOf(ctx)
  // (first contacts whose wait is over are counted before this hit; no wait when none is: most hits)
  const due = checks.due()
  if (due !== null) await due
  // ids as the codes write them, as k and af: `01`, `1.0` or `0x1` names nothing
  const idOf = (name: string): number => {
    const text = a.tracking.params.get(name) ?? ''
    return ID.test(text) ? Number(text) : 0
  }
  const m = idOf(TAG_PARAMS.minisite)
  const ev = idOf(TAG_PARAMS.event)
  const site = m > 0 ? ctx.measure.lookup().minisite(m) : null
  if (!site) return pixel(a, `0; minisite ${a.tracking.params.get(TAG_PARAMS.minisite) ?? ''} does not exist`)
  if (!site.events.has(ev)) return pixel(a, `0; event ${a.tracking.params.get(TAG_PARAMS.event) ?? ''} is not an event of minisite ${m}`)
  const ts = firstLook(ctx, a)
  if (typeof ts === 'string') return pixel(a, ts)
  const k = idOf(TAG_PARAMS.campaign)
  // k= and p= naming a spot of that linked campaign: credited to it, as an imported line naming
  // them; else the identity's latest touch (on campaign k when given; docs/metrics.md)
  const spot = k > 0 && site.campaigns.has(k) ? namedSpot(ctx, k, a.tracking.params.get(TAG_PARAMS.spot)) : 0
  const h = hit(a, ts, KIND.minisite, spot ? k : 0, spot, 0)
  h.minisite = m
  h.event = ev
  if (!spot) h.credit = { linked: site.campaigns, k }
  const d = decide(ctx, checks, a, h)
  if ('check' in d) return checkAnswer(ctx, d.check)
  if ('why' in d) return pixel(a, d.why)
  const full = await ctx.measure.ingest.add([d.hit], true)
  if (full > 0) return pixel(a, `0; ${ctx.measure.ingest.fullMessage(true, m)}`)
  // (minisite reports count every event but bots', realtime_minisite too)
  return pixel(a, a.ivt === IVT.bot ? `0; invalid traffic (${a.rule}): in no minisite report` : countedWhy(a.ivt, a.rule, false))
}

/** The spot a tag's p= names (its spot_id_str) when it is one of `campaign`'s, else 0. */
function namedSpot(ctx: Ctx, campaign: number, p: string | undefined): number {
  const id = p ? fromBase62(p) : null
  return id !== null && ctx.measure.lookup().spot(Number(id))?.campaign_id === campaign ? Number(id) : 0
}

export const trackingRoutes = { 'tracking.impression': impression, 'tracking.click': click, 'tracking.event': event }
