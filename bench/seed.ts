/**
 * Seeds the bench data through engine.handle() (the same path as every door): 10,000 campaigns
 * and one campaign with 3,000 spots, each with a 30-day plan, keywords on every fifth.
 */
import type { Engine } from '../engine/index'
import type { EngineResponse } from '../engine/contract/envelope'
import type { SeedInfo } from './protocol'

export const BENCH_ACCOUNT = { username: 'bench', password: 'bench-password', client_id: 'bench-client', client_secret: 'bench-client-secret' }
export const CAMPAIGNS = 10_000
export const SPOTS = 3_000
const PUBLISHERS = ['Tencent Video', 'iQIYI', 'Youku', 'Weibo', 'Baidu']
const PLAN_DAYS = 30
/** Creates in flight at once: the persister writes all waiting journal records with one fsync. */
const CREATE_WAVE = 250

type Form = Record<string, string>

const dayOf2099 = (n: number) => new Date(Date.UTC(2099, 0, 1 + n)).toISOString().slice(0, 10)

function post(engine: Engine, path: string, form: Form, token?: string): Promise<EngineResponse> {
  const body = new URLSearchParams({ ...form, ...(token ? { access_token: token } : {}) }).toString()
  return engine.handle({ method: 'POST', path, query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
}

function postJson(engine: Engine, path: string, json: unknown, token: string): Promise<EngineResponse> {
  return engine.handle({ method: 'POST', path, query: { access_token: token }, body: JSON.stringify(json), headers: { 'content-type': 'application/json' } })
}

function ok(r: EngineResponse, what: string): Record<string, unknown> {
  if (r.status !== 200) throw new Error(`${what} answered ${r.status}: ${r.body.slice(0, 300)}`)
  return JSON.parse(r.body) as Record<string, unknown>
}

export async function login(engine: Engine): Promise<string> {
  const a = BENCH_ACCOUNT
  const body = ok(await post(engine, '/oauth/token', { grant_type: 'password', ...a }), 'login')
  return String(body.access_token)
}

/** Campaign i: a distinct name, start dates spread over 2099, 10 to 60 days long. */
function campaignForm(i: number): Form {
  const start = i % 365
  return { campaign_name: `bench campaign ${String(i).padStart(5, '0')} ${PUBLISHERS[i % 5]}`, start_date: dayOf2099(start), end_date: dayOf2099(Math.min(start + 10 + (i % 51), 364)) }
}

async function createCampaigns(engine: Engine, token: string): Promise<void> {
  for (let first = 0; first < CAMPAIGNS; first += CREATE_WAVE) {
    const wave = Array.from({ length: Math.min(CREATE_WAVE, CAMPAIGNS - first) }, (_, k) => first + k)
    const answers = await Promise.all(wave.map((i) => post(engine, '/cms/v1/campaigns/create', campaignForm(i), token)))
    answers.forEach((r, k) => ok(r, `campaigns/create #${first + k}`))
  }
}

/** Spot i of the spot campaign (2099-01-01..2099-03-31): plan on 30 days from 2099-01-01. */
export function spotItem(i: number): Record<string, string | number | number[] | string[]> {
  const keyworded = i % 5 === 0
  return {
    publisher_name: PUBLISHERS[i % PUBLISHERS.length]!,
    channel_name: keyworded ? 'Bidding' : ['news', 'video', 'homepage'][i % 3]!,
    placement_name: `placement ${String(i).padStart(4, '0')}`,
    ...(keyworded ? { keyword: `kw${i} alpha^https://example.com/a/${i}>kw${i} beta^` } : {}),
    landing_page: `https://example.com/landing/${i}`,
    add_slot: Array.from({ length: PLAN_DAYS }, (_, d) => dayOf2099(d)),
    est_impression_day: Array.from({ length: PLAN_DAYS }, (_, d) => 1000 + ((i * 7 + d * 13) % 900)),
    est_click_day: Array.from({ length: PLAN_DAYS }, (_, d) => 10 + ((i + d) % 40)),
  }
}

/** create_spot_with_plan has no add_slot: the same 30 days as slot_begin + slot_duration with totals. */
function withPlanForm(campaignId: string, i: number): Form {
  const item = spotItem(i)
  const sum = (k: string) => String((item[k] as number[]).reduce((a, b) => a + b, 0))
  const form: Form = { campaign_id: campaignId, slot_begin: dayOf2099(0), slot_duration: String(PLAN_DAYS), est_impression: sum('est_impression_day'), est_click: sum('est_click_day') }
  for (const [k, v] of Object.entries(item)) if (typeof v === 'string') form[k] = v
  return form
}

async function createSpots(engine: Engine, token: string, campaignId: string): Promise<SeedInfo['spotMethod']> {
  const spots = Array.from({ length: SPOTS }, (_, i) => spotItem(i))
  const r = await postJson(engine, '/cms/v1/campaigns/batch_create_spot_with_plan', { campaign_id: campaignId, spots }, token)
  if (r.status === 200) return 'batch_create_spot_with_plan'
  console.error(`[bench] batch_create_spot_with_plan answered ${r.status} (${r.body.slice(0, 200)}); falling back to create_spot_with_plan`)
  for (let i = 0; i < SPOTS; i++) ok(await post(engine, '/cms/v1/campaigns/create_spot_with_plan', withPlanForm(campaignId, i), token), `create_spot_with_plan #${i}`)
  return 'create_spot_with_plan loop'
}

/** Seeds an empty engine; returns the token and the id of the campaign with the spots. */
export async function seed(engine: Engine): Promise<SeedInfo> {
  const token = await login(engine)
  const t0 = performance.now()
  await createCampaigns(engine, token)
  const t1 = performance.now()
  const spotCampaign = ok(await post(engine, '/cms/v1/campaigns/create', { campaign_name: 'bench spots campaign', start_date: dayOf2099(0), end_date: dayOf2099(89) }, token), 'spot campaign')
  const spotCampaignId = String(spotCampaign.campaign_id)
  const spotMethod = await createSpots(engine, token, spotCampaignId)
  const t2 = performance.now()
  return { token, spotCampaignId, campaigns: CAMPAIGNS + 1, spots: SPOTS, spotMethod, campaignsMs: t1 - t0, spotsMs: t2 - t1 }
}
