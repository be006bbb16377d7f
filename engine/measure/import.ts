/**
 * Batch import of event logs (docs/import.md): NDJSON or CSV lines, each an impression, click or
 * minisite event, attributed like a tracking hit where the line leaves a field out. A bad line is
 * reported with its number and reason and never loses the good ones.
 */
import { fromBase62 } from '../contract/base62'
import { describe, type ArgsOf, type Problem, type ProblemKey } from '../contract/problems'
import { utcOfWall } from '../time-zone'
import { regionTable } from '../reference/region-table'
import { classify, detectPlatform, identityText, isDataCentreIsp, normaliseAddress, normaliseDeviceId, requestIdText, type Attributor } from './attribute'
import { MAX_DEVICE_IDS } from './identities'
import type { ImportLookup } from './lookup'
import { IVT, KIND, PLATFORM, SDK, type Hit } from './types'

/** The columns of a line (CSV header names, NDJSON members). */
export const IMPORT_COLUMNS = ['type', 'ts', 'campaign_id', 'spot_id', 'spot_id_str', 'keyword_id', 'minisite_id', 'event_id', 'identity', 'ip', 'user_agent', 'platform', 'sdk', 'region_id', 'request_id'] as const
/**
 * A line's fields: text from CSV; from NDJSON the JSON values as parsed (numbers are read as
 * numbers, other values as their text, null as absent), so that no line's record is rewritten.
 */
export type ImportLine = Partial<Record<(typeof IMPORT_COLUMNS)[number], unknown>>

const NAMESPACES = new Set(['idfa', 'idfa1', 'oaid', 'oaid1', 'imei', 'aaid', 'androidid', 'androidid1', 'caid', 'caid1', 'idfv', 'openudid', 'duid', 'mac', 'mac1', 'amid'])
const TYPES = new Map<string, Hit['kind']>([['impression', KIND.impression], ['click', KIND.click], ['event', KIND.minisite]])
/** Times from 1970 to 2100: the columns keep day numbers in 16 bits. */
const LAST_MS = Date.UTC(2100, 0, 1)
const regionIndex = () => (regionIndexCache ??= new Map(regionTable().map((r, i) => [r.region_id, i])))
let regionIndexCache: Map<string, number> | null = null

/** A line's reason for being rejected, with its problem key and arguments (engine/contract/problems.ts). */
export class LineError extends Error {
  readonly problem: Problem | null

  constructor(message: string, problem: Problem | null = null) {
    super(message)
    this.name = 'LineError'
    this.problem = problem
  }
}

/** The LineError of problem `key` with `args`, its reason written by the problem catalogue. */
export const lineError = <K extends ProblemKey>(key: K, args: ArgsOf<K>): LineError => new LineError(describe(key, args), { key, args })

const fail = <K extends ProblemKey>(key: K, args: ArgsOf<K>): never => {
  throw lineError(key, args)
}

/**
 * `ts`: milliseconds since the epoch (11 to 16 digits), or an ISO 8601 time; without an offset it
 * is engine-zone wall time. Ten digits are refused as Unix seconds: as milliseconds they are a time
 * of January to April 1970, outside every campaign: imported, they would be events no report
 * counts.
 */
export function parseTime(raw: unknown, zoneOffsetAt: (ms: number) => number): number {
  // a JSON number of 11 to 16 digits, as the text form below
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1e10 && raw < 1e16) return inRange(raw, raw)
  const s = text(raw).trim()
  if (s === '') fail('line.tsMissing', {})
  if (/^\d{11,16}$/.test(s)) return inRange(Number(s), s)
  if (/^\d{10}$/.test(s)) fail('line.tsSeconds', { got: s })
  // (RFC 3339 and the common ISO 8601 writings: `t` or a space for `T`, a fraction of any length
  // with `.` or `,`, `z`, offsets `+08:00`, `+0800`, `+08`)
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/.exec(s)
  if (!m) fail('line.tsFormat', { got: s })
  const [, date, hm, sec = '00', fraction = '', zone] = m!
  // (to the millisecond: a finer fraction is cut, as the events keep milliseconds)
  const time = `${hm}:${sec}.${fraction.slice(0, 3).padEnd(3, '0')}`
  const local = Date.parse(`${date}T${time}Z`)
  // Date.parse rolls 2025-02-30 into March: the date must come back the same
  if (Number.isNaN(local) || new Date(local).toISOString().slice(0, 10) !== date) fail('line.tsReal', { got: s })
  if (zone !== undefined) {
    const at = zone === 'Z' || zone === 'z' ? local : local - offsetMs(zone)
    if (Number.isNaN(at) || Math.abs(at - local) > 14 * 3_600_000) fail('line.tsOffset', { got: s })
    return inRange(at, s)
  }
  return inRange(utcOfWall(local, zoneOffsetAt), s)
}

/** `+08:00`, `+0800` or `+08` in milliseconds (NaN for minutes past 59). */
function offsetMs(zone: string): number {
  const minutes = zone.length > 3 ? Number(zone.slice(-2)) : 0
  const ms = (Number(zone.slice(1, 3)) * 60 + (minutes < 60 ? minutes : NaN)) * 60_000
  return zone[0] === '-' ? -ms : ms
}

// (module functions, not closures made per line: an import runs these ten million times)
const inRange = (ms: number, raw: unknown) => (Number.isFinite(ms) && ms >= 0 && ms < LAST_MS ? ms : fail('line.tsRange', { got: text(raw) }))
/** A field as text: absent and null are empty. */
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))
/** Whether a field is given (present, not null, not empty text). */
const given = (v: unknown): boolean => v !== undefined && v !== null && v !== ''
/** A field trimmed and in lower case; the words a log writes that way (most lines) as they are. */
const lowered = (x: unknown) => (typeof x === 'string' && WORDS.has(x) ? x : text(x).trim().toLowerCase())
const WORDS: ReadonlySet<unknown> = new Set(['impression', 'click', 'event', 'pc', 'mb', 'mm', 'mz', 'none'])

/** `text` cut to `n` characters, with an ellipsis when it was longer (a line's value quoted in its error). */
const cut = (text: string, n: number): string => (text.length > n ? `${text.slice(0, n)}…` : text)

/** The identity of a line: the first id of `identity`, the others linked to it; else the address and agent's. */
interface LineIdentity {
  text: string
  device: boolean
  links?: string[]
  legacy?: string
}

/** One `namespace:value` of the identity column, normalised (its own text when normalising changes nothing). */
function oneIdentity(named: string): { text: string; device: boolean } {
  const colon = named.indexOf(':')
  const prefix = named.slice(0, colon)
  const ns = prefix.toLowerCase()
  if (colon < 1 || !NAMESPACES.has(ns)) fail('line.identityForm', { list: [...NAMESPACES].join(', '), got: cut(named, 40) })
  const raw = named.slice(colon + 1)
  const value = ns === 'amid' ? raw.trim().toLowerCase() : normaliseDeviceId(ns, raw)
  if (value === '') fail('line.identityEmpty', { got: cut(named, 40) })
  // the line's own text when normalising changed nothing (most lines): no new string per line
  // (normaliseDeviceId answers `raw` itself then, so the first comparison is of references)
  return { text: value === raw && ns === prefix ? named : identityText(ns, value), device: ns !== 'amid' }
}

function identityOf(l: ImportLine, c: ImportContext): LineIdentity {
  const named = text(l.identity).trim()
  if (named !== '') {
    if (!named.includes('|')) return oneIdentity(named)
    // several device ids of one device (docs/import.md): the first is the line's identity, the others are linked to it
    const parts = named.split('|')
    if (parts.length > MAX_DEVICE_IDS) fail('line.identityTooMany', { n: parts.length, max: MAX_DEVICE_IDS })
    const all = parts.map((x) => oneIdentity(x.trim()))
    if (all.some((x) => !x.device)) fail('line.identityAmid', { got: cut(named, 60) })
    // (the same id twice, written alike or not, is one id)
    const texts = [...new Set(all.map((x) => x.text))]
    return { text: texts[0]!, device: true, links: texts.slice(1) }
  }
  if (given(l.ip) && given(l.user_agent)) {
    const { identity, legacy } = c.attributor().addressAgent(normaliseAddress(text(l.ip)), text(l.user_agent))
    return { text: identity, device: false, legacy }
  }
  return fail('line.noIdentity', {})
}

export interface ImportContext {
  lookup: ImportLookup
  attributor: () => Attributor
  zoneOffsetAt: (ms: number) => number
}

/** One line to a hit, or a LineError saying what is wrong with it. */
export function lineToHit(l: ImportLine, c: ImportContext): Hit {
  const kind = TYPES.get(lowered(l.type)) ?? fail('line.type', { got: text(l.type) })
  const ts = parseTime(l.ts, c.zoneOffsetAt)
  const id = identityOf(l, c)
  const ua = text(l.user_agent)
  // The address always gives the ISP (data centres); region_id, when given, gives the region.
  const byIp = given(l.ip) ? c.attributor().locator.locate(normaliseAddress(text(l.ip))) : NOWHERE
  const located = given(l.region_id) ? { region: regionIndex().get(text(l.region_id).trim()) ?? fail('line.region', { got: text(l.region_id) }), isp: byIp.isp } : byIp
  const detected = ua !== '' ? detectPlatform(NO_PARAMS, ua) : null
  const platformText = lowered(l.platform)
  const platform = platformText ? (platformText === 'pc' ? PLATFORM.pc : platformText === 'mb' ? PLATFORM.mb : fail('line.platform', { got: text(l.platform) }))
    : id.device ? PLATFORM.mb : detected?.platform ?? PLATFORM.pc
  const sdkText = lowered(l.sdk)
  const sdk = sdkText ? (sdkText === 'mm' ? SDK.mm : sdkText === 'mz' ? SDK.mz : sdkText === 'none' ? SDK.none : fail('line.sdk', { got: text(l.sdk) }))
    : platform === PLATFORM.mb ? detected?.sdk ?? SDK.none : SDK.none
  // A log without user agents is not a log of bots: only a given agent is judged.
  const ivt = ua !== '' ? classify(ua, located.isp, id.device || sdk !== SDK.none).ivt : isDataCentreIsp(located.isp) ? IVT.datacenter : IVT.valid
  if (kind === KIND.minisite) {
    return withIds({ kind, ts, keyword: 0, identity: id.text, platform, sdk, region: located.region, ivt, ...eventTarget(l, c) }, id)
  }
  const t = adTarget(l, c)
  const hit: Hit = withIds({ kind, ts, campaign: t.campaign, spot: t.spot, keyword: t.keyword, identity: id.text, platform, sdk, region: located.region, ivt }, id)
  // the media request id, as on the tracking endpoints: a repeat within 24 hours is left out
  if (given(l.request_id)) {
    const request = requestIdText(text(l.request_id))
    if (request !== '') hit.request = request
  }
  return hit
}

/** A hit with the ids linked to its identity, when the line has any. */
function withIds(hit: Hit, id: LineIdentity): Hit {
  if (id.links) hit.links = id.links
  if (id.legacy !== undefined) hit.legacy = id.legacy
  return hit
}

const NO_PARAMS: ReadonlyMap<string, string> = new Map()
const NOWHERE = { region: 0, isp: '' }

function numberOf(raw: unknown, name: string): number {
  // a JSON number, as the text form below: 1 to 16 digits, no sign, no fraction
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw < 1e16) return raw
  const s = text(raw).trim()
  if (!/^[1-9][0-9]{0,15}$/.test(s)) fail('line.id', { column: name, got: s })
  return Number(s)
}

function adTarget(l: ImportLine, c: ImportContext): { campaign: number; spot: number; keyword: number } {
  const campaign = numberOf(l.campaign_id, 'campaign_id')
  const spot = given(l.spot_id) ? numberOf(l.spot_id, 'spot_id') : Number(fromBase62(text(l.spot_id_str).trim()) ?? fail('line.noSpot', {}))
  const info = c.lookup.spot(spot)
  if (!info || info.campaign_id !== campaign) fail('line.spotOfCampaign', { spot, campaign })
  const keyword = given(l.keyword_id) ? numberOf(l.keyword_id, 'keyword_id') : 0
  if (keyword && !info!.keywords.has(keyword)) fail('line.keywordOfSpot', { keyword, spot })
  return { campaign, spot, keyword }
}

function eventTarget(l: ImportLine, c: ImportContext): Pick<Hit, 'campaign' | 'spot' | 'minisite' | 'event' | 'credit'> {
  const minisite = numberOf(l.minisite_id, 'minisite_id')
  const event = numberOf(l.event_id, 'event_id')
  const site = c.lookup.minisite(minisite) ?? fail('line.noMinisite', { minisite })
  if (!site.events.has(event)) fail('line.eventOfMinisite', { event, minisite })
  const campaign = given(l.campaign_id) ? numberOf(l.campaign_id, 'campaign_id') : 0
  // (spot_id_str is read as on an impression's line)
  const spotName = given(l.spot_id) ? 'spot_id' : given(l.spot_id_str) ? 'spot_id_str' : ''
  const spot = spotName === 'spot_id' ? numberOf(l.spot_id, 'spot_id')
    : spotName === 'spot_id_str' ? Number(fromBase62(text(l.spot_id_str).trim()) ?? fail('line.spotIdStr', { got: text(l.spot_id_str) })) : 0
  if (campaign && !site.campaigns.has(campaign)) fail('line.campaignOfMinisite', { campaign, minisite })
  if (spot && !campaign) fail('line.needsCampaign', { column: spotName })
  if (spot && c.lookup.spot(spot)?.campaign_id !== campaign) fail('line.spotOfCampaign', { spot, campaign })
  // Without a spot the ingest credits the identity's latest touch, in arrival order: on the
  // campaign named, as a tag's k= (else that campaign without a spot), or on any linked one, so
  // that a line and the same event sent as a tag are credited alike.
  return spot ? { campaign, spot, minisite, event } : { campaign, spot: 0, minisite, event, credit: { linked: site.campaigns, k: campaign } }
}

/** Splits CSV text into rows (RFC 4180: quoted fields may hold commas, quotes and newlines). */
export function* csvRows(text: string): Generator<{ line: number; cells: string[] }> {
  let i = 0
  let line = 1
  while (i < text.length) {
    const start = line
    const cells: string[] = []
    let cell = ''
    let quoted = false
    for (; i < text.length; i++) {
      const ch = text[i]!
      if (quoted) {
        if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++
        else if (ch === '"') quoted = false
        else (cell += ch), ch === '\n' && line++
      } else if (ch === '"' && cell === '') quoted = true
      else if (ch === ',') (cells.push(cell), (cell = ''))
      else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && text[i + 1] === '\n') i++
        i++
        line++
        break
      } else cell += ch
    }
    cells.push(cell)
    if (!(cells.length === 1 && cells[0] === '')) yield { line: start, cells }
  }
}

