/**
 * Demo data for a first look (docs/demo.md): a panel, a campaign that started two weeks ago with
 * six spots (one of keywords), plans, targets and a minisite, and simulated traffic up to today.
 * Created through the API like anything else, except the campaign's past start date, which the
 * API refuses for new campaigns and is set afterwards.
 */
import type { EngineRequest } from './contract/envelope'
import { IVT, KIND, flagIvt, flagPlatform, type Hit } from './measure/types'
import type { Measurement } from './measure/service'
import { unit } from './measure/simulate/hash'
import { dayDate, dayNumber, utcOfWall, zoneOffset } from './time-zone'
import type { Db } from './storage/db'
import { campaignIdByName, updateCampaignColumns } from './storage/repos/campaigns'

type Call = (method: 'GET' | 'POST', path: string, params?: Record<string, string | number>) => Promise<Record<string, unknown>>
type CallJson = (path: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>

export interface DemoResult {
  campaign_id: string
  minisite_id: string
  hits: number
  /** What the simulation made: its hits, clients by kind, shared addresses, prefetches, invalid traffic (the job's message). */
  message: string
}

/**
 * The spots and what each delivers a day: the plan is what the simulation delivers (scale 1), so
 * "plan against actual" reads as delivered. Their media lean their audiences differently
 * (docs/simulator.md, "Audience profiles"): 小红书 beauty to women, Douyin to the young, Toutiao to
 * the older, Tencent Video and iQIYI as the population is.
 */
const SPOTS = [
  { publisher_name: '腾讯视频 Tencent Video', channel_name: '电视剧', placement_name: '前贴片 15s', placement_type: 'video', adposition_type: '贴片-前贴', est: 12_000, ctr: 0.006 },
  { publisher_name: '爱奇艺 iQIYI', channel_name: '综艺', placement_name: '中插 15s', placement_type: 'video', adposition_type: '贴片-中插', est: 8_000, ctr: 0.006 },
  { publisher_name: '抖音 Douyin', channel_name: '推荐流', placement_name: '信息流原生', placement_type: 'display', adposition_type: '信息流', est: 16_000, ctr: 0.006 },
  { publisher_name: '小红书 Xiaohongshu', channel_name: '美妆', placement_name: '开屏', placement_type: 'display', adposition_type: '开屏', est: 6_000, ctr: 0.006 },
  { publisher_name: '今日头条 Toutiao', channel_name: '推荐', placement_name: '信息流大图', placement_type: 'display', adposition_type: '信息流', est: 7_000, ctr: 0.006 },
]
const SEARCH = { est: 2_400, ctr: 0.035 }
/** Plan days vary around a spot's daily volume: more at weekends, ±DAY_VARIATION otherwise (fixed by spot and day). */
const WEEKEND = 1.12
const DAY_VARIATION = 0.06
const SEED = 42

/** The plan of a spot: its dates and per-date impressions and clicks around `est` a day. */
function dailyPlan(from: string, days: number, est: number, ctr: number, spot: number): { add_slot: string[]; est_impression_day: number[]; est_click_day: number[] } {
  const add_slot: string[] = []
  const est_impression_day: number[] = []
  const est_click_day: number[] = []
  for (let i = 0; i < days; i++) {
    const day = dayNumber(from) + i
    const weekday = (day + 4) % 7 // 1970-01-01 was a Thursday; 0 is Sunday
    const n = Math.round(est * (weekday === 0 || weekday === 6 ? WEEKEND : 1) * (1 + DAY_VARIATION * (2 * unit(SEED, spot, day) - 1)))
    add_slot.push(dayDate(day))
    est_impression_day.push(n)
    est_click_day.push(Math.round(n * ctr))
  }
  return { add_slot, est_impression_day, est_click_day }
}

async function createSpots(callJson: CallJson, campaignId: string, from: string, days: number): Promise<void> {
  const spots: Record<string, unknown>[] = SPOTS.map(({ est, ctr, ...fields }, i) => ({
    ...fields, landing_page: 'https://www.example.com/haifeisi', vending_model: '程序化购买-PDB', ...dailyPlan(from, days, est, ctr, i),
  }))
  spots.push({
    publisher_name: '百度 Baidu', channel_name: 'Bidding', placement_name: '搜索推广', placement_type: 'search',
    keyword: '去屑洗发水^https://www.example.com/haifeisi/anti-dandruff>海飞丝^https://www.example.com/haifeisi>洗发水推荐^',
    ...dailyPlan(from, days, SEARCH.est, SEARCH.ctr, SPOTS.length),
  })
  await callJson('/cms/v1/campaigns/batch_create_spot_with_plan', { campaign_id: campaignId, spots })
}

/**
 * The minisite's funnel: of the valid clicks, LANDED reach the home page, PRODUCT of those go on
 * to a product page and CHECKOUT of those to the checkout (about 3% of home views, where real
 * e-commerce landing pages convert in low single digits).
 */
const LANDED = 0.7
const PRODUCT = 0.4
const CHECKOUT = 0.08

/**
 * Minisite page views of clickers (exported for its tests), each after its click: the columns keep
 * a click's hour, not its second, so the visit starts within a minute after that hour ends. Views
 * at or after `now` are left out (today's visitors still to come).
 */
export function minisiteHits(minisite: number, campaign: number, clicks: Hit[], now: number): Hit[] {
  const out: Hit[] = []
  clicks.forEach((c, i) => {
    if (unit(SEED, i, 0) >= LANDED) return
    const steps = unit(SEED, i, 1) >= PRODUCT ? 1 : unit(SEED, i, 2) >= CHECKOUT ? 2 : 3
    let ts = c.ts + Math.floor(5_000 + 55_000 * unit(SEED, i, 3))
    for (let e = 1; e <= steps && ts < now; e++) {
      out.push({ ...c, kind: KIND.minisite, ts, keyword: 0, minisite, event: e, campaign })
      ts += Math.floor(20_000 + 160_000 * unit(SEED, i, 3 + e))
    }
  })
  return out.sort((a, b) => a.ts - b.ts)
}

/** The valid clicks of a campaign (up to `max`), back as hits stamped at the end of their hour. */
function clicksOf(measure: Measurement, campaign: number, timeZone: string, max: number): Hit[] {
  const clicks: Hit[] = []
  const part = measure.columns.campaign(campaign)
  for (let i = 0; part && i < part.n && clicks.length < max; i++) {
    if (part.kind[i] !== KIND.click || flagIvt(part.flags[i]!) !== IVT.valid) continue
    const hourStart = utcOfWall(part.day[i]! * 86_400_000 + part.hour[i]! * 3_600_000, (ms) => zoneOffset(timeZone, ms))
    clicks.push({
      kind: KIND.click, ts: hourStart + 3_600_000, campaign, spot: part.spot[i]!, keyword: 0, identity: measure.identities.text(part.identity[i]!),
      platform: flagPlatform(part.flags[i]!), sdk: 0, region: part.region[i]!, ivt: IVT.valid,
    })
  }
  return clicks
}

/** Creates the demo through `handle` (with a local token) and `db`; returns what it made. */
export async function loadDemo(handle: (r: EngineRequest) => Promise<{ status: number; body: string }>, token: string, db: Db, measure: Measurement, today: string, timeZone: string): Promise<DemoResult> {
  const call: Call = async (method, path, params = {}) => {
    const fields = Object.fromEntries(Object.entries({ ...params, access_token: token }).map(([k, v]) => [k, String(v)]))
    const r = await handle(method === 'GET' ? { method, path, query: fields } : { method, path, query: {}, body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    if (r.status !== 200) throw new Error(`demo: ${path} answered ${r.status} ${r.body}`)
    return JSON.parse(r.body) as Record<string, unknown>
  }
  const callJson: CallJson = async (path, body) => {
    const r = await handle({ method: 'POST', path, query: { access_token: token }, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
    if (r.status !== 200) throw new Error(`demo: ${path} answered ${r.status} ${r.body}`)
    return JSON.parse(r.body) as Record<string, unknown>
  }
  const start = dayDate(dayNumber(today) - 14)
  const end = dayDate(dayNumber(today) + 16)
  const summary = await call('GET', '/local/v1/panels/persons/summary', { panel_id: 'china-pc-2026' })
  if (Number(summary.persons) === 0) await call('POST', '/local/v1/panels/generate', { panel_id: 'china-pc-2026', persons: 20_000, seed: 7 })
  // a second demo the same day gets names of its own (campaign and minisite names are unique)
  const base = `Demo · 海飞丝 Head & Shoulders spring launch ${today}`
  let suffix = ''
  for (let n = 2; campaignIdByName(db, `${base}${suffix}`) !== undefined; n++) suffix = ` (${n})`
  const name = `${base}${suffix}`
  const campaign = String((await call('POST', '/cms/v1/campaigns/create', {
    campaign_name: name, start_date: today, end_date: end, advertiser_id: 1, brand_id: 1, agency_id: 1, slot_type: 'display+search',
    description: 'Demo campaign: simulated traffic of the last two weeks.', extensiontype: '产品推广活动-新品上市',
  })).campaign_id)
  // The API refuses past start dates for new campaigns; the demo needs a history to show.
  db.tx(() => updateCampaignColumns(db, Number(campaign), { start_date: start }))
  await createSpots(callJson, campaign, start, 31)
  for (const [target_name, tag_id] of [['女性 25-34 Women 25-34', 'female&25-29Y,30-34Y'], ['男性 18-24 Men 18-24', 'male&18-24Y'], ['高收入 High income', 'inc-12k-20k,inc-20k-plus']]) {
    await call('POST', '/cms/v1/campaigns/publish_target', { campaign_id: campaign, target_name: target_name!, tag_id: tag_id! })
  }
  const minisite = String((await call('POST', '/local/v1/minisites/create', { minisite_name: `海飞丝 site ${today}${suffix}`, campaign_id: campaign, events: 'home,product,checkout' })).minisite_id)
  const job = await call('POST', '/local/v1/simulate/run', { campaign_id: campaign, from_date: start, to_date: today, seed: SEED, wait: 1 })
  // the simulation stopped at its start (`until` = now): the visits stop there too
  const now = Date.parse(String(job.started_at))
  await measure.ingest.add(minisiteHits(Number(minisite), Number(campaign), clicksOf(measure, Number(campaign), timeZone, 20_000), now))
  return { campaign_id: campaign, minisite_id: minisite, hits: Number(job.imported), message: String(job.message) }
}
