/**
 * Demo data for a first look (docs/demo.md): a panel, a campaign that started two weeks ago with
 * six spots (one of keywords), plans, targets and a minisite, and simulated traffic up to today.
 * Created through the API like anything else, except the campaign's past start date, which the
 * API refuses for new campaigns and is set afterwards.
 */
import type { EngineRequest } from './contract/envelope'
import { IVT, KIND, flagIvt, flagPlatform, type Hit } from './measure/types'
import type { Measurement } from './measure/service'
import { dayDate, dayNumber, utcOfWall, zoneOffset } from './runtime'
import type { Db } from './storage/db'

type Call = (method: 'GET' | 'POST', path: string, params?: Record<string, string | number>) => Promise<Record<string, unknown>>

export interface DemoResult {
  campaign_id: string
  minisite_id: string
  hits: number
}

const SPOTS = [
  { publisher_name: '腾讯视频 Tencent Video', channel_name: '电视剧', placement_name: '前贴片 15s', placement_type: 'video', adposition_type: '贴片-前贴', est: 60_000 },
  { publisher_name: '爱奇艺 iQIYI', channel_name: '综艺', placement_name: '中插 15s', placement_type: 'video', adposition_type: '贴片-中插', est: 40_000 },
  { publisher_name: '抖音 Douyin', channel_name: '推荐流', placement_name: '信息流原生', placement_type: 'display', adposition_type: '信息流', est: 80_000 },
  { publisher_name: '微博 Weibo', channel_name: '首页', placement_name: '开屏', placement_type: 'display', adposition_type: '开屏', est: 30_000 },
  { publisher_name: '今日头条 Toutiao', channel_name: '推荐', placement_name: '信息流大图', placement_type: 'display', adposition_type: '信息流', est: 35_000 },
]

async function createSpots(call: Call, campaignId: string, from: string, days: number): Promise<void> {
  for (const s of SPOTS) {
    const { est, ...fields } = s
    await call('POST', '/cms/v1/campaigns/create_spot_with_plan', {
      campaign_id: campaignId, ...fields, landing_page: 'https://www.example.com/haifeisi', vending_model: '程序化购买-PDB',
      slot_begin: from, slot_duration: days, est_impression: est * days, est_click: Math.round(est * days * 0.006),
    })
  }
  await call('POST', '/cms/v1/campaigns/create_spot_with_plan', {
    campaign_id: campaignId, publisher_name: '百度 Baidu', channel_name: 'Bidding', placement_name: '搜索推广', placement_type: 'search',
    keyword: '去屑洗发水^https://www.example.com/haifeisi/anti-dandruff>海飞丝^https://www.example.com/haifeisi>洗发水推荐^',
    slot_begin: from, slot_duration: days, est_impression: 12_000 * days, est_click: 420 * days,
  })
}

/** Minisite page views of some clickers: home, then product, then checkout, fewer at each step. */
function minisiteHits(minisite: number, campaign: number, clicks: Hit[]): Hit[] {
  const out: Hit[] = []
  clicks.forEach((c, i) => {
    if (i % 3 !== 0) return
    const steps = i % 9 === 0 ? 3 : i % 6 === 0 ? 2 : 1
    for (let e = 1; e <= steps; e++) out.push({ ...c, kind: KIND.minisite, ts: c.ts + e * 20_000, keyword: 0, minisite, event: e, campaign })
  })
  return out
}

/** The clicks of a campaign (up to `max`), back as hits, from its columns. */
function clicksOf(measure: Measurement, campaign: number, timeZone: string, max: number): Hit[] {
  const clicks: Hit[] = []
  const part = measure.columns.campaign(campaign)
  for (let i = 0; part && i < part.n && clicks.length < max; i++) {
    if (part.kind[i] !== KIND.click || flagIvt(part.flags[i]!) !== IVT.valid) continue
    const local = part.day[i]! * 86_400_000 + part.hour[i]! * 3_600_000 + 1_800_000
    clicks.push({
      kind: KIND.click, ts: utcOfWall(local, (ms) => zoneOffset(timeZone, ms)), campaign, spot: part.spot[i]!, keyword: 0, identity: measure.identities.texts[part.identity[i]!]!,
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
  const start = dayDate(dayNumber(today) - 14)
  const end = dayDate(dayNumber(today) + 16)
  const summary = await call('GET', '/local/v1/panels/persons/summary', { panel_id: 'china-pc-2026' })
  if (Number(summary.persons) === 0) await call('POST', '/local/v1/panels/generate', { panel_id: 'china-pc-2026', persons: 20_000, seed: 7 })
  // a second demo the same day gets names of its own (campaign and minisite names are unique)
  const base = `Demo · 海飞丝 Head & Shoulders spring launch ${today}`
  let suffix = ''
  for (let n = 2; db.scalar('SELECT 1 FROM campaigns WHERE campaign_name = ?', [`${base}${suffix}`]); n++) suffix = ` (${n})`
  const name = `${base}${suffix}`
  const campaign = String((await call('POST', '/cms/v1/campaigns/create', {
    campaign_name: name, start_date: today, end_date: end, advertiser_id: 1, brand_id: 1, agency_id: 1, slot_type: 'display+search',
    description: 'Demo campaign: simulated traffic of the last two weeks.', extensiontype: '产品推广活动-新品上市',
  })).campaign_id)
  // The API refuses past start dates for new campaigns; the demo needs a history to show.
  db.tx(() => db.run('UPDATE campaigns SET start_date = ? WHERE campaign_id = ?', [start, Number(campaign)]))
  await createSpots(call, campaign, start, 31)
  for (const [target_name, tag_id] of [['女性 25-34 Women 25-34', 'female&25-29Y,30-34Y'], ['男性 18-24 Men 18-24', 'male&18-24Y'], ['高收入 High income', 'inc-12k-20k,inc-20k-plus']]) {
    await call('POST', '/cms/v1/campaigns/publish_target', { campaign_id: campaign, target_name: target_name!, tag_id: tag_id! })
  }
  const minisite = String((await call('POST', '/local/v1/minisites/create', { minisite_name: `海飞丝 site ${today}${suffix}`, campaign_id: campaign, events: 'home,product,checkout' })).minisite_id)
  const job = await call('POST', '/local/v1/simulate/run', { campaign_id: campaign, from_date: start, to_date: today, seed: 42, scale: 0.2 })
  await measure.ingest.add(minisiteHits(Number(minisite), Number(campaign), clicksOf(measure, Number(campaign), timeZone, 20_000)))
  return { campaign_id: campaign, minisite_id: minisite, hits: Number(job.imported) }
}
