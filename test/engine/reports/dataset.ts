/**
 * A seeded dataset for the report tests: campaigns, spots (with keywords and both
 * dangerous_source_filtration values), targets, minisites, a panel of persons, and a few thousand
 * impressions, clicks and minisite events sent through the real event import and the real
 * tracking endpoints. Every event sent is kept in `events` with what the test expects of it
 * (located region, platform, SDK, bot or data-centre address), so that oracle.ts can recompute
 * every figure from the raw list (docs/metrics.md).
 *
 * Arrival order: every identity is sent through one way only (import or tags), the import goes
 * first with its lines in time order, then the tag hits in time order with the clock moved to each
 * hit; so each identity's hits arrive in time order, as metrics.md's rules (first hit, abnormal
 * windows, minisite credit) assume.
 */
import { createHash } from 'node:crypto'
import { GLOBAL_REGION_ID, MAINLAND_REGION_ID, buildRegions, regionIdFromGb } from '../../../engine/reference/regions'
import type { RegionSeed } from '../../../engine/reference/types'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

// ---------------------------------------------------------------------------------------------
// Time: the engine zone is Asia/Shanghai (UTC+8, no daylight saving).

export const ZONE_MS = 8 * 3_600_000
export const DAY_MS = 86_400_000
/** ms UTC of a wall time in UTC+8 written `2025-01-15T10:00:00` (seconds and ms optional). */
export const wall = (text: string): number => Date.parse(`${text}+08:00`)
/** The local day (YYYY-MM-DD) of a time. */
export const localDay = (ts: number): string => new Date(ts + ZONE_MS).toISOString().slice(0, 10)
/** The local hour (0-23) of a time. */
export const localHour = (ts: number): number => new Date(ts + ZONE_MS).getUTCHours()
/** The day after / before. */
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

// ---------------------------------------------------------------------------------------------
// Regions used as data (ids from the region table, docs/regions.md).

export const R = {
  global: GLOBAL_REGION_ID,
  mainland: MAINLAND_REGION_ID,
  guangdong: regionIdFromGb('440000'),
  shenzhen: regionIdFromGb('440300'),
  guangzhou: regionIdFromGb('440100'),
  beijingCity: regionIdFromGb('110100'),
  shanghai: regionIdFromGb('310100'),
  zhejiang: regionIdFromGb('330000'),
  hangzhou: regionIdFromGb('330100'),
  nanjing: regionIdFromGb('320100'),
  chengdu: regionIdFromGb('510100'),
  xiantao: regionIdFromGb('429004'),
  hongKong: regionIdFromGb('810000'),
  macau: regionIdFromGb('820000'),
} as const

/** Addresses and where the IP library puts them (checked once by hand against ip2region 2.3.0). */
export const IPS: Readonly<Record<string, string>> = {
  '202.96.134.133': R.shenzhen,
  '61.135.169.121': R.beijingCity,
  '116.228.111.18': R.shanghai,
  '61.144.56.100': R.guangzhou,
  '49.77.3.233': R.nanjing,
  '202.45.84.58': R.hongKong,
  '73.21.131.233': R.global,
  '10.1.2.3': R.global,
}
/** An Alibaba Cloud address (ISP 阿里云): a data centre, located in Shanghai. */
export const DC_IP = '47.100.1.1'
export const DC_REGION = R.shanghai

export const UA = {
  pc: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  bot: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
} as const

// ---------------------------------------------------------------------------------------------
// The shape of a dataset.

export interface SpotDef {
  spot_id: string
  spot_id_str: string
  publisher_id: string
  campaign_id: string
  /** dangerous_source_filtration as stored. */
  dsf: 0 | 1
  keywords: string[]
  tags: { impression: string; click: string }
  keywordTags: Map<string, { impression: string; click: string }>
}

export interface TargetDef {
  target_id: string
  tag_id: string
  panel_id: string
}

export interface CampaignDef {
  campaign_id: string
  start: string
  end: string
  panel_id: string
  spots: SpotDef[]
  targets: TargetDef[]
}

export interface MinisiteDef {
  minisite_id: string
  minisite_name: string
  campaign_ids: string[]
  events: { event_id: string; event_name: string }[]
}

export interface PersonDef {
  person_id: string
  weight: number
  home_region: string
  tags: string[]
  devices: { device: string; platform: 'pc' | 'mb' }[]
}

export interface PanelDef {
  panel_id: string
  persons: PersonDef[]
  /** The panel's tags in panel order, with their types. */
  tags: { tag_id: string; type_id: string }[]
}

export type Kind = 'imp' | 'clk' | 'evt'
export type IvtClass = 'valid' | 'bot' | 'dc' | 'dc-abnormal' | 'abnormal'

export interface RawEvent {
  /** Arrival position. */
  seq: number
  kind: Kind
  ts: number
  /** Impressions and clicks: their campaign, spot and keyword ('' none). */
  campaign_id: string
  spot_id: string
  keyword_id: string
  /** Minisite events: the minisite, the event and the tag's k= ('' none). */
  minisite_id: string
  event_id: string
  k: string
  identity: string
  platform: 'pc' | 'mb'
  sdk: 'none' | 'mm' | 'mz'
  /** Region the hit is expected to be located in. */
  region_id: string
  /** A declared bot (user agent), a data-centre address. */
  bot: boolean
  dc: boolean
  /** The invalid-traffic class this event was built to have. */
  expect: IvtClass
  via: 'import' | 'tag'
  ua: string
  ip: string
  /** Import: locate by region_id (true) or by ip (false). */
  byRegionColumn: boolean
  /** Import: no identity column; the engine derives it from ip and user agent. */
  hashIdentity: boolean
  note: string
}

export interface Dataset {
  seed: number
  t: TestEngine
  campaigns: CampaignDef[]
  spots: Map<string, SpotDef>
  minisites: MinisiteDef[]
  panels: Map<string, PanelDef>
  events: RawEvent[]
  regions: RegionSeed[]
  /** Days the tests use as `date`. */
  dates: { beforeStart: string; first: string; middle: string; today: string; end: string; afterEnd: string; late: string }
}

// ---------------------------------------------------------------------------------------------
// Random helpers.

type Rng = () => number

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!
const hex = (rng: Rng, n: number): string => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('')
const uuid = (rng: Rng): string => `${hex(rng, 8)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 4)}-${hex(rng, 12)}`
function weighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((s, [, w]) => s + w, 0)
  let x = rng() * total
  for (const [v, w] of items) if ((x -= w) < 0) return v
  return items.at(-1)![0]
}
/** A time on a local day, to the millisecond. */
const timeOn = (rng: Rng, day: string): number => wall(`${day}T00:00:00`) + Math.floor(rng() * DAY_MS)

export const CAMPAIGN_A = { start: '2025-01-12', end: '2025-01-25' }
export const CAMPAIGN_B = { start: '2025-01-14', end: '2025-01-22' }
const DAYS = Array.from({ length: 18 }, (_, i) => addDays('2025-01-10', i)) // 2025-01-10 .. 2025-01-27
const dayWeight = (d: string) => (d < CAMPAIGN_A.start ? 1 : d > CAMPAIGN_A.end ? 1.5 : 5)

const REGION_CHOICES: readonly (readonly [string, number])[] = [
  [R.shenzhen, 4], [R.guangzhou, 2], [R.guangdong, 1], [R.beijingCity, 3], [R.shanghai, 3], [R.hangzhou, 2], [R.zhejiang, 1],
  [R.nanjing, 1], [R.chengdu, 1], [R.xiantao, 0.5], [R.hongKong, 1], [R.macau, 0.3], [R.mainland, 0.7], [R.global, 1],
]
const HOME_CHOICES: readonly (readonly [string, number])[] = [
  [R.shenzhen, 4], [R.guangzhou, 2], [R.guangdong, 1], [R.beijingCity, 3], [R.shanghai, 3], [R.hangzhou, 2], [R.chengdu, 1], [R.hongKong, 1], [R.mainland, 0.5],
]

/** Tag types a person gets (one tag each, sometimes none); '0-17Y' is never given. */
const PERSON_TAGS: readonly (readonly [string, readonly string[], number])[] = [
  ['gender', ['male', 'female'], 0.97],
  ['age', ['18-24Y', '25-29Y', '30-34Y', '35-39Y', '40-44Y', '45-49Y', '50-54Y', '55-64Y', '65Y-plus'], 0.9],
  ['education', ['edu-junior-high', 'edu-high-school', 'edu-college', 'edu-bachelor', 'edu-master-plus'], 0.7],
  ['income', ['inc-lt3k', 'inc-3k-5k', 'inc-5k-8k', 'inc-8k-12k', 'inc-12k-20k', 'inc-20k-plus'], 0.6],
  ['city_tier', ['tier-1', 'tier-new1', 'tier-2', 'tier-3', 'tier-4-5'], 0.8],
  ['marital', ['single', 'married', 'married-with-kids'], 0.75],
]

const TARGET_EXPRESSIONS = ['female&25-29Y,30-34Y', 'male', '18-24Y,25-29Y,30-34Y&tier-1,tier-new1']

interface SpotSpec {
  publisher_name: string
  channel_name: string
  placement_name: string
  dsf?: 0 | 1
  keyword?: string
  withPlan?: boolean
}

const A_SPOTS: readonly SpotSpec[] = [
  { publisher_name: 'Sina', channel_name: 'news', placement_name: 'top banner' },
  { publisher_name: 'Sina', channel_name: 'sports', placement_name: 'video preroll', dsf: 0 },
  { publisher_name: 'Tencent', channel_name: 'video', placement_name: 'pause' },
  { publisher_name: 'Tencent', channel_name: 'news', placement_name: 'feed', dsf: 0 },
  { publisher_name: 'Baidu', channel_name: 'Bidding', placement_name: 'search brand', keyword: '牛奶^http://milk.example.com>酸奶^>奶粉^https://powder.example.com/p?x=1', withPlan: true },
  { publisher_name: 'Baidu', channel_name: 'Bidding', placement_name: 'search generic', keyword: 'yogurt^http://y.example.com>milk tea^', dsf: 1 },
]
const A_EXTRA_SPOTS: readonly SpotSpec[] = [
  { publisher_name: 'Sina', channel_name: 'home', placement_name: 'focus', dsf: 1 },
  { publisher_name: 'Tencent', channel_name: 'sports', placement_name: 'corner', dsf: 0 },
]
const B_SPOTS: readonly SpotSpec[] = [
  { publisher_name: 'Tencent', channel_name: 'news', placement_name: 'B banner' },
  { publisher_name: 'Sina', channel_name: 'sports', placement_name: 'B video', dsf: 0 },
]

// ---------------------------------------------------------------------------------------------
// Identities.

interface IdentityDef {
  identity: string
  platform: 'pc' | 'mb'
  home: string
  via: 'import' | 'tag'
  ua: string
  /** Import lines without an identity: the engine hashes ip and user agent. */
  hash?: { ip: string; ua: string }
}

const deviceValue = (identity: string) => identity.slice(identity.indexOf(':') + 1)
const hashIdentity = (ip: string, ua: string) => `amid:${createHash('sha256').update(`${ip}\n${ua}`).digest('hex').slice(0, 32)}`

// ---------------------------------------------------------------------------------------------
// Building.

interface Draft extends Omit<RawEvent, 'seq'> {}

function ev(partial: Partial<Draft> & Pick<Draft, 'kind' | 'ts' | 'identity' | 'platform' | 'region_id' | 'via' | 'ua'>): Draft {
  return {
    campaign_id: '', spot_id: '', keyword_id: '', minisite_id: '', event_id: '', k: '', sdk: 'none', bot: false, dc: false, expect: 'valid',
    ip: '', byRegionColumn: true, hashIdentity: false, note: '', ...partial,
  }
}

export interface BuildOptions {
  /** How many ordinary impressions and clicks (default 2400-3600). */
  events?: number
}

export async function buildDataset(seed: number, opts: BuildOptions = {}): Promise<Dataset> {
  const rng = prng(seed * 7919 + 13)
  const t = await makeEngine({ today: '2025-01-09' })
  const ok = (what: string, r: { status: number; raw: { body: string } }) => {
    if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.raw.body}`)
  }

  // Campaigns, spots (A's in two halves around B's, so A's spot ids are not contiguous), targets.
  const createCampaign = async (name: string, dates: { start: string; end: string }, platform: 'pc' | 'pm'): Promise<CampaignDef> => {
    const r = await t.post('/cms/v1/campaigns/create', { campaign_name: name, start_date: dates.start, end_date: dates.end, platform })
    ok('campaigns/create', r)
    const show = await t.get('/cms/v1/campaigns/show', { campaign_id: r.body.campaign_id })
    return { campaign_id: r.body.campaign_id, start: dates.start, end: dates.end, panel_id: show.body.linked_panels[0], spots: [], targets: [] }
  }
  const createSpot = async (c: CampaignDef, s: SpotSpec) => {
    const form: Record<string, string | number> = { campaign_id: c.campaign_id, publisher_name: s.publisher_name, channel_name: s.channel_name, placement_name: s.placement_name }
    if (s.keyword) form.keyword = s.keyword
    if (s.dsf !== undefined) form.dangerous_source_filtration = s.dsf
    const path = s.withPlan ? '/cms/v1/campaigns/create_spot_with_plan' : '/cms/v1/campaigns/create_spot'
    if (s.withPlan) Object.assign(form, { slot_begin: c.start, slot_duration: 7, est_impression: 70000 })
    const r = await t.post(path, form)
    ok(path, r)
  }
  const A = await createCampaign(`Reports A ${seed}`, CAMPAIGN_A, 'pc')
  const aSpecs = [...A_SPOTS, ...A_EXTRA_SPOTS.slice(0, Math.floor(rng() * 3))]
  for (let i = aSpecs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[aSpecs[i], aSpecs[j]] = [aSpecs[j]!, aSpecs[i]!]
  }
  const half = Math.ceil(aSpecs.length / 2)
  for (const s of aSpecs.slice(0, half)) await createSpot(A, s)
  const B = await createCampaign(`Reports B ${seed}`, CAMPAIGN_B, 'pm')
  for (const s of B_SPOTS) await createSpot(B, s)
  for (const s of aSpecs.slice(half)) await createSpot(A, s)
  const campaigns = [A, B]
  const spots = new Map<string, SpotDef>()
  for (const c of campaigns) {
    const list = await t.get('/cms/v1/campaigns/list_spots', { campaign_id: c.campaign_id, code_type: 'mma', show_filtration_status: 1 })
    ok('list_spots', list)
    for (const s of list.body as {
      spot_id: string; spot_id_str: string; publisher_id: string; dangerous_source_filtration: 0 | 1
      tracking_tags: { impression_url: string; click_url: string }
      keyword: { keywordId: number; tracking_tags: { impression_url?: string; click_url?: string }[] }[]
    }[]) {
      const def: SpotDef = {
        spot_id: s.spot_id, spot_id_str: s.spot_id_str, publisher_id: s.publisher_id, campaign_id: c.campaign_id, dsf: s.dangerous_source_filtration,
        keywords: s.keyword.map((k) => String(k.keywordId)),
        tags: { impression: s.tracking_tags.impression_url, click: s.tracking_tags.click_url },
        keywordTags: new Map(s.keyword.map((k) => [String(k.keywordId), { impression: k.tracking_tags[0]!.impression_url!, click: k.tracking_tags[1]!.click_url! }])),
      }
      c.spots.push(def)
      spots.set(def.spot_id, def)
    }
  }
  const nTargets = 2 + Math.floor(rng() * 2)
  for (const [i, tag_id] of TARGET_EXPRESSIONS.slice(0, nTargets).entries()) {
    const r = await t.post('/cms/v1/campaigns/publish_target', { campaign_id: A.campaign_id, target_name: `T${i + 1}`, tag_id })
    ok('publish_target', r)
    A.targets.push({ target_id: r.body.target_id, tag_id, panel_id: r.body.panel_id })
  }
  const tb = await t.post('/cms/v1/campaigns/publish_target', { campaign_id: B.campaign_id, target_name: 'TB', tag_id: 'female' })
  ok('publish_target', tb)
  B.targets.push({ target_id: tb.body.target_id, tag_id: 'female', panel_id: tb.body.panel_id })

  // Minisites: M1 credits campaign A only, M2 both.
  const minisites: MinisiteDef[] = []
  for (const [name, cids, events] of [['M1 shop', [A.campaign_id], 'home,product,checkout'], ['M2 promo', [A.campaign_id, B.campaign_id], 'landing,signup']] as const) {
    const r = await t.post('/local/v1/minisites/create', { minisite_name: name, campaign_id: cids.join(','), events })
    ok('minisites/create', r)
    minisites.push({ minisite_id: r.body.minisite_id, minisite_name: name, campaign_ids: [...cids], events: [] })
  }
  const siteList = (await t.get('/local/v1/minisites/list')).body as MinisiteDef[]
  for (const m of minisites) m.events = siteList.find((x) => x.minisite_id === m.minisite_id)!.events

  // Panels: A's (pc) gets persons; B's (pm) stays empty.
  const panels = new Map<string, PanelDef>()
  for (const c of campaigns) {
    if (panels.has(c.panel_id)) continue
    const show = await t.get('/cms/v1/panels/show', { panel_id: c.panel_id })
    ok('panels/show', show)
    panels.set(c.panel_id, { panel_id: c.panel_id, persons: [], tags: (show.body.tag_list as { tag_id: string; type_id: string }[]).map((x) => ({ tag_id: x.tag_id, type_id: x.type_id })) })
  }
  const panel = panels.get(A.panel_id)!

  // Identities: dedicated ones for the constructed cases, then the ordinary pool.
  const pcId = () => `amid:${hex(rng, 32)}`
  const mbId = () => (rng() < 0.8 ? `idfa:${uuid(rng)}` : `oaid:${hex(rng, 16)}`)
  const special = {
    burstPc: pcId(), burstMb: `idfa:${uuid(rng)}`, straddle: pcId(), clickBurst: pcId(),
    stable1: pcId(), stable2: pcId(), credit1: pcId(), credit2: `idfa:${uuid(rng)}`, credit3: pcId(), credit4: pcId(), credit5: pcId(), credit6: pcId(), credit7: pcId(),
  }
  const bots: IdentityDef[] = [
    ...Array.from({ length: 5 }, (): IdentityDef => ({ identity: pcId(), platform: 'pc', home: R.shenzhen, via: 'import', ua: UA.bot })),
    { identity: `idfa:${uuid(rng)}`, platform: 'mb', home: R.beijingCity, via: 'import', ua: UA.bot },
    ...Array.from({ length: 2 }, (): IdentityDef => ({ identity: pcId(), platform: 'pc', home: R.global, via: 'tag', ua: UA.bot })),
  ]
  const dcs: IdentityDef[] = [
    ...Array.from({ length: 5 }, (): IdentityDef => ({ identity: pcId(), platform: 'pc', home: DC_REGION, via: 'import', ua: UA.pc })),
    ...Array.from({ length: 2 }, (): IdentityDef => ({ identity: mbId(), platform: 'mb', home: DC_REGION, via: 'import', ua: UA.android })),
    { identity: pcId(), platform: 'pc', home: DC_REGION, via: 'tag', ua: UA.pc },
    { identity: `idfa:${uuid(rng)}`, platform: 'mb', home: DC_REGION, via: 'tag', ua: UA.iphone },
  ]

  // Persons: ~200, weights in eighths (exact binary fractions: sums do not depend on their order).
  const nPersons = 190 + Math.floor(rng() * 30)
  const personDevices: IdentityDef[] = []
  for (let i = 0; i < nPersons; i++) {
    const tags: string[] = []
    for (const [, list, p] of PERSON_TAGS) if (rng() < p) tags.push(pick(rng, list))
    const devices: PersonDef['devices'] = []
    const home = weighted(rng, HOME_CHOICES)
    const r = rng()
    if (r < 0.05) {
      // no device at all
    } else {
      if (r < 0.7) devices.push({ device: pcId(), platform: 'pc' })
      if (r > 0.4) devices.push({ device: mbId(), platform: 'mb' })
      if (rng() < 0.1) devices.push({ device: `oaid:${hex(rng, 16)}`, platform: 'mb' })
    }
    const person: PersonDef = { person_id: `p${seed}-${String(i).padStart(3, '0')}`, weight: 500 + Math.floor(rng() * 80_000 * 8) / 8, home_region: home, tags, devices }
    panel.persons.push(person)
    for (const d of devices) personDevices.push({ identity: d.device, platform: d.platform, home, via: rng() < 0.15 ? 'tag' : 'import', ua: d.platform === 'pc' ? UA.pc : UA.iphone })
  }
  // Persons owning the constructed identities: a burst device, a stable PC, a data-centre and a bot device, a credit case.
  const own = (person: PersonDef, device: string, platform: 'pc' | 'mb') => person.devices.push({ device, platform })
  own(panel.persons[0]!, special.burstMb, 'mb')
  own(panel.persons[1]!, special.stable1, 'pc')
  own(panel.persons[2]!, dcs[0]!.identity, 'pc')
  own(panel.persons[3]!, bots[0]!.identity, 'pc')
  own(panel.persons[4]!, special.credit2, 'mb')

  const extras: IdentityDef[] = [
    ...Array.from({ length: 130 }, (): IdentityDef => ({ identity: pcId(), platform: 'pc', home: weighted(rng, REGION_CHOICES), via: rng() < 0.12 ? 'tag' : 'import', ua: rng() < 0.5 ? UA.pc : UA.mac })),
    ...Array.from({ length: 130 }, (): IdentityDef => {
      const identity = mbId()
      return { identity, platform: 'mb', home: weighted(rng, REGION_CHOICES), via: rng() < 0.12 ? 'tag' : 'import', ua: identity.startsWith('oaid') ? UA.android : UA.iphone }
    }),
  ]
  const hashed: IdentityDef[] = [
    { ip: '202.96.134.133', ua: `${UA.pc} Edg/120.0.${seed}` },
    { ip: '116.228.111.18', ua: `${UA.mac} Hashed/${seed}` },
    { ip: '10.1.2.3', ua: `${UA.pc} Lan/${seed}` },
  ].map((h) => ({ identity: hashIdentity(h.ip, h.ua), platform: 'pc' as const, home: IPS[h.ip]!, via: 'import' as const, ua: h.ua, hash: h }))
  // A person's PC cookie in a phone browser: its hits are mobile, and the person has no mobile
  // device, so is in no mobile universe: those hits count in no mobile target or reach cell.
  const pcOnly = panel.persons.find((x) => x.devices.length > 0 && x.devices.every((d) => d.platform === 'pc'))!
  const phoneCookie: IdentityDef = { identity: pcId(), platform: 'mb', home: pcOnly.home_region, via: 'tag', ua: UA.iphone }
  own(pcOnly, phoneCookie.identity, 'pc')
  const pool = [...personDevices, ...extras, phoneCookie]

  const drafts: Draft[] = []
  const A_spots = A.spots
  const B_spots = B.spots
  const adHit = (id: IdentityDef, kind: 'imp' | 'clk', ts: number, c: CampaignDef, spot: SpotDef, extra: Partial<Draft> = {}): Draft => {
    const keyword = spot.keywords.length > 0 && rng() < 0.75 ? pick(rng, spot.keywords) : ''
    const sdk = id.platform === 'mb' ? weighted(rng, [['none', 4], ['mm', 3], ['mz', 3]] as const) : 'none'
    const located = locate(id)
    return ev({ kind, ts, campaign_id: c.campaign_id, spot_id: spot.spot_id, keyword_id: keyword, identity: id.identity, platform: id.platform, sdk, via: id.via, ua: id.ua, ...located, ...extra })
  }
  /** Where a hit of the identity comes from: mostly its home region, sent as region_id or as an address. */
  const locate = (id: IdentityDef): Pick<Draft, 'region_id' | 'ip' | 'byRegionColumn' | 'hashIdentity'> => {
    if (id.hash) return { region_id: id.home, ip: id.hash.ip, byRegionColumn: false, hashIdentity: true }
    const useIp = id.via === 'tag' ? rng() < 0.75 : rng() < 0.15
    if (useIp) {
      const ip = rng() < 0.6 ? Object.keys(IPS).find((a) => IPS[a] === id.home) ?? pick(rng, Object.keys(IPS)) : pick(rng, Object.keys(IPS))
      return { region_id: IPS[ip]!, ip, byRegionColumn: false, hashIdentity: false }
    }
    if (id.via === 'tag') return { region_id: R.global, ip: '', byRegionColumn: false, hashIdentity: false } // the socket, 127.0.0.1
    return { region_id: rng() < 0.8 ? id.home : weighted(rng, REGION_CHOICES), ip: '', byRegionColumn: true, hashIdentity: false }
  }
  const campaignFor = () => (rng() < 0.8 ? A : B)
  const spotOf = (c: CampaignDef) => pick(rng, c === A ? A_spots : B_spots)

  // Ordinary traffic: heavy and light identities, across days, hours, spots and keywords.
  const nEvents = opts.events ?? 2400 + Math.floor(rng() * 1200)
  for (let i = 0; i < nEvents; i++) {
    const id = i % 20 === 0 ? pick(rng, hashed) : pool[Math.floor(rng() ** 1.6 * pool.length)]!
    const c = campaignFor()
    drafts.push(adHit(id, rng() < 0.15 ? 'clk' : 'imp', timeOn(rng, weighted(rng, DAYS.map((d) => [d, dayWeight(d)] as const))), c, spotOf(c)))
  }
  // Bots and data-centre traffic.
  for (let i = 0; i < 70; i++) {
    const id = pick(rng, bots)
    const c = campaignFor()
    drafts.push(adHit(id, rng() < 0.2 ? 'clk' : 'imp', timeOn(rng, pick(rng, DAYS)), c, spotOf(c), { bot: true, expect: 'bot' }))
  }
  for (let i = 0; i < 90; i++) {
    const id = pick(rng, dcs)
    const c = campaignFor()
    const hit = adHit(id, rng() < 0.2 ? 'clk' : 'imp', timeOn(rng, pick(rng, DAYS)), c, spotOf(c), { dc: true, expect: 'dc' })
    drafts.push({ ...hit, ip: DC_IP, region_id: DC_REGION, byRegionColumn: false })
  }

  // Abnormal frequency, by construction.
  const plain = A_spots.filter((s) => s.keywords.length === 0)
  /** A hit of a constructed case: an impression unless told (imported ones from Shenzhen, tags from the socket). */
  const scripted = (identity: string, platform: 'pc' | 'mb', via: 'import' | 'tag', ts: number, spot: SpotDef, e: Partial<Draft> = {}, kind: 'imp' | 'clk' = 'imp'): Draft =>
    ev({ kind, ts, campaign_id: spot.campaign_id, spot_id: spot.spot_id, identity, platform, via, ua: platform === 'pc' ? UA.pc : UA.iphone, region_id: R.global, ...(via === 'import' ? { region_id: R.shenzhen } : {}), ...e })
  for (let i = 0; i < 40; i++) {
    // 40 impressions of one PC in five minutes over two spots: 31st..40th are abnormal
    drafts.push(scripted(special.burstPc, 'pc', 'import', wall('2025-01-15T10:00:05') + i * 7000, plain[i % 2]!, { expect: i >= 30 ? 'abnormal' : 'valid', note: 'burst' }))
    // the same on a panel person's phone
    drafts.push(scripted(special.burstMb, 'mb', 'import', wall('2025-01-18T21:01:00') + i * 6000, plain[2 % plain.length]!, { sdk: 'mm', region_id: R.beijingCity, expect: i >= 30 ? 'abnormal' : 'valid', note: 'burst' }))
  }
  // 36 impressions of one data-centre PC in four minutes on a spot that counts data centres: the
  // 31st..36th are abnormal there (the rule holds for data-centre hits too)
  const dcSpot = plain.find((s) => s.dsf === 0)!
  for (let i = 0; i < 36; i++) {
    const hit = scripted(dcs[0]!.identity, 'pc', 'import', wall('2025-01-19T16:40:10') + i * 6000, dcSpot, { dc: true, expect: i >= 30 ? 'dc-abnormal' : 'dc', note: 'data-centre burst' })
    drafts.push({ ...hit, ip: DC_IP, region_id: DC_REGION, byRegionColumn: false })
  }
  for (let i = 0; i < 50; i++) {
    // 50 impressions within 5 minutes across a 10-minute boundary (25 + 25): the 31st..50th are
    // abnormal (the window slides with each impression)
    const ts = i < 25 ? wall('2025-01-16T14:07:30') + i * 5000 : wall('2025-01-16T14:10:00') + (i - 25) * 5000
    drafts.push(scripted(special.straddle, 'pc', 'import', ts, plain[0]!, { expect: i >= 30 ? 'abnormal' : 'valid', note: 'straddle' }))
  }
  for (let i = 0; i < 13; i++) {
    // 5 impressions and 8 clicks in two minutes through the tags: the 6th..8th click are abnormal
    const click = i >= 5
    drafts.push(scripted(special.clickBurst, 'pc', 'tag', wall('2025-01-17T09:20:00') + i * 10_000, plain[1]!, { expect: click && i - 5 >= 5 ? 'abnormal' : 'valid', note: 'click burst' }, click ? 'clk' : 'imp'))
  }

  // The stable audience at its 24-hour edge.
  drafts.push(scripted(special.stable1, 'pc', 'import', wall('2025-01-13T09:00:00.000'), plain[0]!, { note: 'first' }))
  drafts.push(scripted(special.stable1, 'pc', 'import', wall('2025-01-14T08:59:59.999'), plain[0]!, { note: 'not yet stable' }))
  drafts.push(scripted(special.stable1, 'pc', 'import', wall('2025-01-14T09:00:00.000'), plain[1]!, { note: 'stable' }))
  drafts.push(scripted(special.stable1, 'pc', 'import', wall('2025-01-15T12:00:00.000'), plain[1]!, { note: 'stable' }, 'clk'))
  drafts.push(scripted(special.stable2, 'pc', 'tag', wall('2025-01-19T08:00:00.000'), plain[0]!, { note: 'first' }))
  drafts.push(scripted(special.stable2, 'pc', 'tag', wall('2025-01-20T08:00:00.000'), plain[0]!, { note: 'stable' }))

  // Minisite events.
  const [M1, M2] = minisites as [MinisiteDef, MinisiteDef]
  const evt = (id: IdentityDef, ts: number, site: MinisiteDef, e: Partial<Draft> = {}): Draft => {
    const located = locate(id)
    return ev({ kind: 'evt', ts, minisite_id: site.minisite_id, event_id: pick(rng, site.events).event_id, identity: id.identity, platform: id.platform, via: id.via, ua: id.ua, ...located, ...e })
  }
  const ordinary = drafts.filter((d) => !d.bot && !d.dc && d.note === '' && !d.hashIdentity)
  const byIdentity = new Map(pool.map((p) => [p.identity, p]))
  for (let i = 0; i < 160; i++) {
    const site = rng() < 0.6 ? M1 : M2
    const from = rng() < 0.8 ? pick(rng, ordinary) : null
    const fresh = pick(rng, extras)
    const id = from ? byIdentity.get(from.identity)! : rng() < 0.5 ? pick(rng, pool) : { ...fresh, identity: fresh.platform === 'pc' ? pcId() : `idfa:${uuid(rng)}` }
    const ts = from ? from.ts + Math.floor(rng() * 6 * DAY_MS) : timeOn(rng, pick(rng, DAYS))
    const k = id.via === 'tag' && site === M2 && rng() < 0.3 ? pick(rng, site.campaign_ids) : ''
    drafts.push(evt(id, ts, site, { k }))
  }
  for (let i = 0; i < 12; i++) {
    // weeks later: credited only when a touch lies within 30 days
    const id = byIdentity.get(pick(rng, ordinary).identity)!
    drafts.push(evt(id, timeOn(rng, addDays('2025-02-10', Math.floor(rng() * 8))), rng() < 0.5 ? M1 : M2))
  }
  for (let i = 0; i < 5; i++) drafts.push(evt(pick(rng, bots.filter((b) => b.via === 'import')), timeOn(rng, pick(rng, DAYS)), M1, { bot: true, expect: 'bot' }))

  // Credit at its edges (metrics.md: latest click, else latest impression, within 30 days, on a linked campaign).
  const credit = (identity: string, platform: 'pc' | 'mb', via: 'import' | 'tag'): IdentityDef => ({ identity, platform, home: R.shenzhen, via, ua: platform === 'pc' ? UA.pc : UA.iphone })
  const sA = plain[0]!
  const sA2 = plain[1]!
  const sB = B_spots[0]!
  const c1 = credit(special.credit1, 'pc', 'import')
  drafts.push(scripted(c1.identity, 'pc', 'import', wall('2025-01-16T10:00:00'), sA, { note: 'credit1' }, 'clk'))
  drafts.push(scripted(c1.identity, 'pc', 'import', wall('2025-01-16T11:00:00'), sB, { note: 'credit1' }, 'clk'))
  drafts.push(evt(c1, wall('2025-01-16T12:00:00'), M1, { note: 'credit1: the click on A, not the later click on B' }))
  const c2 = credit(special.credit2, 'mb', 'import')
  drafts.push(scripted(c2.identity, 'mb', 'import', wall('2025-01-17T10:00:00'), sA, { note: 'credit2' }))
  drafts.push(scripted(c2.identity, 'mb', 'import', wall('2025-01-17T11:00:00'), sB, { note: 'credit2' }))
  drafts.push(evt(c2, wall('2025-01-17T12:00:00'), M1, { note: 'credit2: the impression on A, not the later one on B' }))
  const c3 = credit(special.credit3, 'pc', 'tag')
  drafts.push(scripted(c3.identity, 'pc', 'tag', wall('2025-01-21T10:00:00'), sA2, { note: 'credit3' }, 'clk'))
  drafts.push(scripted(c3.identity, 'pc', 'tag', wall('2025-01-21T10:30:00'), sB, { note: 'credit3' }, 'clk'))
  drafts.push(evt(c3, wall('2025-01-21T11:00:00'), M2, { k: A.campaign_id, note: 'credit3: k=A, the click on A' }))
  const c4 = credit(special.credit4, 'pc', 'import')
  drafts.push(scripted(c4.identity, 'pc', 'import', wall('2025-01-12T10:00:00'), sA, { note: 'credit4' }))
  drafts.push(evt(c4, wall('2025-02-12T09:00:00'), M1, { note: 'credit4: 30 days and 23 hours later, not credited' }))
  const c5 = credit(special.credit5, 'pc', 'import')
  drafts.push(scripted(c5.identity, 'pc', 'import', wall('2025-01-14T10:00:00'), sA2, { note: 'credit5' }))
  drafts.push(evt(c5, wall('2025-02-12T09:00:00'), M1, { note: 'credit5: 28 days and 23 hours later, credited' }))
  const c6 = credit(special.credit6, 'pc', 'import')
  drafts.push(scripted(c6.identity, 'pc', 'import', wall('2025-01-15T10:00:00'), sA, { note: 'credit6' }, 'clk'))
  drafts.push(scripted(c6.identity, 'pc', 'import', wall('2025-01-18T10:00:00'), sA2, { note: 'credit6' }))
  drafts.push(evt(c6, wall('2025-01-19T10:00:00'), M1, { note: 'credit6: the earlier click wins over the later impression' }))
  const c7 = credit(special.credit7, 'pc', 'tag')
  drafts.push(evt(c7, wall('2025-01-19T15:00:00'), M2, { k: B.campaign_id, note: 'credit7: k=B without a touch: campaign B, no spot' }))

  // Arrival order: time order; equal times are moved apart by a millisecond.
  drafts.sort((a, b) => a.ts - b.ts)
  for (let i = 1; i < drafts.length; i++) if (drafts[i]!.ts <= drafts[i - 1]!.ts) drafts[i]!.ts = drafts[i - 1]!.ts + 1
  const events: RawEvent[] = drafts.map((d, seq) => ({ ...d, seq }))

  // Send: the panel, the import (time order), then the tag hits (time order, clock moved to each).
  await importPanel(t, panel)
  await importEvents(t, events.filter((e) => e.via === 'import'), spots)
  for (const e of events) if (e.via === 'tag') await sendTag(t, e, spots, minisites)
  t.clock.advance(wall('2025-02-21T12:00:00') - t.clock.now())
  t.token = await t.login()

  return {
    seed, t, campaigns, spots, minisites, panels, events, regions: buildRegions(),
    dates: { beforeStart: '2025-01-11', first: '2025-01-12', middle: '2025-01-16', today: '2025-01-20', end: '2025-01-25', afterEnd: '2025-01-27', late: '2025-02-20' },
  }
}

/** Replaces the persons of a panel through /local/v1/panels/persons/import. */
export async function importPanel(t: TestEngine, panel: PanelDef): Promise<void> {
  const body = panel.persons.map((p) => JSON.stringify(p)).join('\n')
  const r = await t.engine.handle({
    method: 'POST', path: '/local/v1/panels/persons/import', query: { access_token: t.token, panel_id: panel.panel_id, format: 'ndjson', mode: 'replace' },
    body, headers: { 'content-type': 'application/x-ndjson' },
  })
  const res = JSON.parse(r.body)
  if (r.status !== 200 || res.rejected !== 0 || res.imported !== panel.persons.length) throw new Error(`panel import: ${r.status} ${r.body.slice(0, 2000)}`)
}

/** ts as the import takes it: mostly ISO 8601 with +08:00, some in UTC (Z), some as epoch ms. */
function tsText(e: RawEvent): string {
  if (e.seq % 11 === 0) return String(e.ts)
  if (e.seq % 7 === 0) return new Date(e.ts).toISOString()
  return new Date(e.ts + ZONE_MS).toISOString().replace('Z', '+08:00')
}

/** Sends events through /local/v1/events/import (every one must be imported). */
export async function importEvents(t: TestEngine, list: RawEvent[], spots: Map<string, SpotDef>): Promise<void> {
  const lines = list.map((e) => {
    const o: Record<string, string> = { type: e.kind === 'imp' ? 'impression' : e.kind === 'clk' ? 'click' : 'event', ts: tsText(e), user_agent: e.ua, platform: e.platform }
    if (!e.hashIdentity) o.identity = e.identity
    if (e.kind === 'evt') Object.assign(o, { minisite_id: e.minisite_id, event_id: e.event_id })
    else Object.assign(o, { campaign_id: e.campaign_id, ...(e.seq % 5 === 0 ? { spot_id_str: spots.get(e.spot_id)!.spot_id_str } : { spot_id: e.spot_id }), ...(e.keyword_id ? { keyword_id: e.keyword_id } : {}) })
    if (e.sdk !== 'none') o.sdk = e.sdk
    if (e.byRegionColumn) o.region_id = e.region_id
    else if (e.ip) o.ip = e.ip
    return JSON.stringify(o)
  })
  const r = await t.engine.handle({
    method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' },
    body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' },
  })
  const job = JSON.parse(r.body)
  if (r.status !== 200 || job.state !== 'done' || job.rejected !== 0 || job.imported !== list.length) throw new Error(`event import: ${r.status} ${r.body.slice(0, 2000)}`)
}

/** One hit through the tracking endpoints, at its time. */
async function sendTag(t: TestEngine, e: RawEvent, spots: Map<string, SpotDef>, minisites: MinisiteDef[]): Promise<void> {
  t.clock.advance(e.ts - t.clock.now())
  if (t.clock.now() !== e.ts) throw new Error('the clock cannot go back')
  const value = deviceValue(e.identity)
  const cookie: Record<string, string> = e.identity.startsWith('amid:') ? { cookie: `amid=${value}` } : {}
  let path: string
  if (e.kind === 'evt') {
    const site = minisites.find((m) => m.minisite_id === e.minisite_id)!
    path = `/e/m=${site.minisite_id}&ev=${e.event_id}${e.k ? `&k=${e.k}` : ''}${e.identity.startsWith('idfa:') ? `&m5=${value}` : e.identity.startsWith('oaid:') ? `&m11=${value}` : ''}${e.ip ? `&ns=${e.ip}` : ''}`
  } else {
    const spot = spots.get(e.spot_id)!
    const tags = e.keyword_id ? spot.keywordTags.get(e.keyword_id)! : spot.tags
    path = new URL(e.kind === 'imp' ? tags.impression : tags.click).pathname
    if (e.identity.startsWith('idfa:')) path = path.replace('__IDFA__', value)
    if (e.identity.startsWith('oaid:')) path = path.replace('__OAID__', value)
    if (e.ip) path = path.replace('__IP__', e.ip)
  }
  // The SDK: impressions say sdk= in the query; clicks (whose o= may hold a landing page that would
  // take the query) carry the SDK's token in the user agent.
  const sdk = e.sdk !== 'none' && e.kind !== 'clk' ? `sdk=${e.sdk}` : ''
  const ua = e.sdk !== 'none' && e.kind === 'clk' ? `${e.ua} ${e.sdk === 'mm' ? 'MMA-SDK/2.1' : 'MiaozhenSDK/1.4'}` : e.ua
  const res = await t.engine.handle({
    method: 'GET', path, query: sdk ? { sdk: e.sdk } : {}, rawQuery: sdk, headers: { 'user-agent': ua, ...cookie }, remoteAddress: '127.0.0.1',
  })
  // recorded either way; the header says whether it counts in net (invalid traffic says its class)
  const said = res.headers['x-admonitor-counted'] ?? ''
  // (a hit on a day outside its campaign's dates is recorded, and says it counts in no report)
  if (said.startsWith("0; outside the campaign's dates (")) return
  if (e.expect === 'valid' ? said !== '1' : said !== '1' && !said.startsWith('0; invalid traffic (')) throw new Error(`tag hit not recorded as built: ${res.status} ${said} ${path}`)
}
