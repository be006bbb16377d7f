// vendor-notes §7: impressions (/x/), clicks (/r/) and minisite events (/e/); DESIGN §3.1-3.5
import { fromBase62 } from '../contract/base62'
import { headerValue } from '../contract/envelope'
import { ApiError, E } from '../contract/errors'
import type { Attribution } from '../measure/attribute'
import type { SpotInfo } from '../measure/lookup'
import { MAX_CLICKS_PER_WINDOW, MAX_IMPRESSIONS_PER_WINDOW } from '../measure/identities'
import { IVT, KIND, flagIvt, flagOver, type Hit } from '../measure/types'
import { RawResponse, type Ctx, type Handler } from '../runtime'
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
 * `SameSite=None; Secure`, which a browser sends back from a tag on another site (until
 * 2026-11-26 it was always `Lax`, which browsers do not send on such cross-site requests).
 */
function overHttps(ctx: Ctx): boolean {
  const host = httpsHostOf(ctx.settings.publicUrl)
  return host !== '' && (ctx.request.headers?.host ?? '').toLowerCase() === host
}

function attribute(ctx: Ctx): Attribution {
  const r = ctx.request
  const query = r.rawQuery ?? new URLSearchParams(Object.entries(r.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString()
  const a = ctx.measure.attributor().attribute({ path: r.path, query, headers: r.headers ?? {}, remoteAddress: r.remoteAddress ?? '', secure: overHttps(ctx) })
  if (!a) throw new ApiError(E.notFound, `There is no tracking endpoint at ${r.path}.`)
  return a
}

/** The answer of a pixel: the GIF (or 204 when rt asks for no body), the cookie, whether it counted. */
function pixel(a: Attribution, why: string): RawResponse {
  // (the reasons quote the tag's values, which may hold any character)
  const counted = headerValue(why)
  const rt = a.tracking.params.get('rt')
  // written out, not spread: every tracking hit makes one
  const headers: Record<string, string> = { 'cache-control': NO_STORE['cache-control'], pragma: NO_STORE.pragma, 'x-admonitor-counted': counted }
  if (a.setCookie) headers['set-cookie'] = a.setCookie
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
  keyword: number
}

/** A tag that does not count: why, and its spot when only its keyword is unknown. */
interface Miss {
  why: string
  info?: SpotInfo
}

/** The spot (and keyword) a tag names, or why it does not count. */
function target(ctx: Ctx, a: Attribution): Target | Miss {
  const k = a.tracking.params.get('k') ?? ''
  const p = a.tracking.params.get('p') ?? ''
  // (a leading 0 is no spot either: list_spots never writes one, and `01` was read as spot 1)
  const spotId = p.length > 1 && p.startsWith('0') ? null : fromBase62(p)
  if (!ID.test(k)) return { why: "no campaign ('k') in the tag" }
  if (spotId === null) return { why: "no spot ('p') in the tag" }
  const info = ctx.measure.lookup().spot(Number(spotId))
  if (!info || String(info.campaign_id) !== k) return { why: `spot ${p} is not a spot of campaign ${k}` }
  const af = a.tracking.params.get('af')
  // (written as list_spots writes it: `0x4`, `4.0` or `04` is no keyword id)
  if (af !== undefined && af !== '' && !(ID.test(af) && info.keywords.has(Number(af)))) return { why: `keyword ${af} is not a keyword of spot ${p}`, info }
  return { info, keyword: af ? Number(af) : 0 }
}

const isMiss = (t: Target | Miss): t is Miss => 'why' in t

function hit(ctx: Ctx, a: Attribution, kind: Hit['kind'], campaign: number, spot: number, keyword: number, extra: Partial<Hit> = {}): Hit {
  return { kind, ts: ctx.clock.now(), campaign, spot, keyword, identity: a.identity, platform: a.platform, sdk: a.sdk, region: a.region, ivt: a.ivt, ...extra }
}

/**
 * Whether a recorded hit counts in the spot's default (`net`) figures: '1', or '0; ' and its
 * invalid-traffic class (docs/tracking.md; metrics.md, filtration_type). Until 2026-11-26 every
 * recorded hit said '1', bots' too.
 */
export function countedWhy(flags: number, rule: string, filtersDataCentres: boolean): string {
  const ivt = flagIvt(flags)
  if (ivt === IVT.valid) return '1'
  if (ivt === IVT.bot) return `0; invalid traffic (${rule}): in no report`
  if (ivt === IVT.datacenter && filtersDataCentres) return `0; invalid traffic (${rule}): this spot leaves data-centre hits out (dangerous_source_filtration=1)`
  if (ivt === IVT.abnormal || flagOver(flags)) return BEYOND_LIMIT
  return '1'
}

/** (one string: an identity beyond its limit sends its hits fast) */
const BEYOND_LIMIT = `0; invalid traffic (beyond the identity's frequency limit, ${MAX_IMPRESSIONS_PER_WINDOW} impressions or ${MAX_CLICKS_PER_WINDOW} clicks in 10 minutes): counted under totalnet only`

/**
 * Counts an impression or a click: '1', or why not: its class, or a repeat of a media request id
 * counted already (docs/attribution.md, "Media request id"; the id itself is not echoed: it may be long).
 */
async function count(ctx: Ctx, a: Attribution, kind: Hit['kind'], t: Target): Promise<string> {
  if (ctx.request.method === 'HEAD') return HEAD_REQUEST
  const h = hit(ctx, a, kind, t.info.campaign_id, Number(fromBase62(t.info.spot.spot_id_str)), t.keyword, a.request ? { request: a.request } : {})
  const done = await ctx.measure.ingest.addOne(h)
  if ('full' in done) return `0; ${done.full}`
  if ('repeatOf' in done) return `0; a repeat of the media request id ('tr') of a hit counted at ${new Date(done.repeatOf).toISOString()}`
  return countedWhy(done.flags, a.rule, t.info.filtersDataCentres)
}

const impression: Handler<'tracking.impression'> = async (ctx) => {
  const a = attribute(ctx)
  const t = target(ctx, a)
  if (isMiss(t)) return pixel(a, `0; ${t.why}`)
  return pixel(a, await count(ctx, a, KIND.impression, t))
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
  const t = target(ctx, a)
  if (isMiss(t) && !t.info) throw new ApiError(E.notFound, `This click cannot be followed: ${t.why}.`)
  // a repeated click still goes to its page: the person clicked; and so does a click whose
  // keyword is unknown, to its spot's page, without counting
  const counted = isMiss(t) ? `0; ${t.why}` : await count(ctx, a, KIND.click, t)
  const [info, keyword] = isMiss(t) ? [t.info!, 0] : [t.info, t.keyword]
  const to = clickTarget(info, keyword, a.tracking.params.get('o') ?? '', a.tracking.params.get('ro') === 'sm')
  // (the reason quotes the tag's values and the lookup's names, which may hold any character)
  const headers = { ...NO_STORE, 'x-admonitor-counted': headerValue(counted), ...(a.setCookie ? { 'set-cookie': a.setCookie } : {}) }
  if (to === '') return new RawResponse(204, headers, '')
  return new RawResponse(302, { ...headers, location: headerValue(to, true), 'content-type': 'text/plain; charset=utf-8' }, `Found: ${to}`)
}

const event: Handler<'tracking.event'> = async (ctx) => {
  const a = attribute(ctx)
  // ids as the codes write them, as k and af: `01`, `1.0` or `0x1` names nothing
  const idOf = (name: string): number => {
    const text = a.tracking.params.get(name) ?? ''
    return ID.test(text) ? Number(text) : 0
  }
  const m = idOf('m')
  const ev = idOf('ev')
  const site = m > 0 ? ctx.measure.lookup().minisite(m) : null
  if (!site) return pixel(a, `0; minisite ${a.tracking.params.get('m') ?? ''} does not exist`)
  if (!site.events.has(ev)) return pixel(a, `0; event ${a.tracking.params.get('ev') ?? ''} is not an event of minisite ${m}`)
  if (ctx.request.method === 'HEAD') return pixel(a, HEAD_REQUEST)
  const k = idOf('k')
  // k= and p= naming a spot of that linked campaign: credited to it, as an imported line naming
  // them; else the identity's latest touch (on campaign k when given; docs/metrics.md)
  const spot = k > 0 && site.campaigns.has(k) ? namedSpot(ctx, k, a.tracking.params.get('p')) : 0
  const credit = spot ? {} : { credit: { linked: site.campaigns, k } }
  const full = await ctx.measure.ingest.add([hit(ctx, a, KIND.minisite, spot ? k : 0, spot, 0, { minisite: m, event: ev, ...credit })], true)
  if (full > 0) return pixel(a, `0; ${ctx.measure.ingest.fullMessage(true, m)}`)
  // (minisite reports count every event but bots')
  return pixel(a, countedWhy(a.ivt, a.rule, false))
}

/** The spot a tag's p= names (its spot_id_str) when it is one of `campaign`'s, else 0. */
function namedSpot(ctx: Ctx, campaign: number, p: string | undefined): number {
  const id = p ? fromBase62(p) : null
  return id !== null && ctx.measure.lookup().spot(Number(id))?.campaign_id === campaign ? Number(id) : 0
}

export const trackingRoutes = { 'tracking.impression': impression, 'tracking.click': click, 'tracking.event': event }
