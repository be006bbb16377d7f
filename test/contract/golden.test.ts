/**
 * Golden answers: the engine's answers to a fixed sweep of requests, compared with the answers
 * recorded in test/contract/golden/answers.json (status, headers, body bytes). A refactor must
 * leave every one of them as it is; a change of behaviour re-records them, and the diff of the
 * fixture shows what it changed.
 *
 * The sweep, on one engine with a fixed clock and seeded randomness, in this order: a campaign with
 * planned spots, targets and a generated panel, measured by a seeded simulation over seven past
 * days; the shared fixture (test/fixtures/seed.ts); then every endpoint of the table with valid
 * parameters, each required one missing, each enumerated value, a value of the wrong form for each
 * typed parameter, the door's variants (callback=, suppress_response_codes=), reports on the
 * measured campaign, tracking hits, tokens, the door's refusals and finally the deletes.
 *
 * Re-record (after a change of behaviour that is meant):
 *   GOLDEN_RECORD=1 npx vitest run test/contract/golden.test.ts
 *
 * Bodies past 1 KiB (a report's past 8 KiB) are kept as their SHA-256, length and start (kept());
 * the others as they are.
 *
 * What varies from run to run is replaced before the comparison (steady()): the port of the seed's
 * short-lived HTTP door, wall-clock durations (`ms` members of the request log and of a rebuild)
 * and the process's start (`started_at` of the local status).
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import type { EngineRequest, EngineResponse } from '../../engine/contract/envelope'
import { makeEngine, type Reply, type TestEngine } from '../helpers/make-engine'
import { seed, textBody, validParams, type Fixture } from '../fixtures/seed'
import { goldenRequests, type GoldenRequest } from './golden/requests'

const FILE = new URL('./golden/answers.json', import.meta.url)
const RECORD = process.env.GOLDEN_RECORD === '1'

/** One recorded answer: the request's name, status, headers and body as sent. */
interface Answer {
  name: string
  status: number
  headers: Record<string, string>
  /** The body as UTF-8 text, or `base64:` and its bytes for a binary answer (kept()). */
  body: string
}

/** Bodies longer than this are kept as their SHA-256, length and start (kept()); a report's, longer than REPORT_LONG. */
const LONG = 1024
const REPORT_LONG = 8192

/**
 * A body as the fixture keeps it: as it is, or past LONG characters (the OpenAPI document, the
 * region lists, the larger reports) as its SHA-256, length and first 200 characters, so that the
 * fixture stays small and a change of any byte still changes what is compared. A report's rows
 * are kept whole up to REPORT_LONG: the metric catalogue's test reads the metric names they hold
 * (test/engine/reports/metrics-catalogue.test.ts).
 */
function kept(name: string, body: string): string {
  const most = name.startsWith('reports.') ? REPORT_LONG : LONG
  return body.length <= most ? body : `sha256:${createHash('sha256').update(body).digest('hex')} length:${body.length} start:${body.slice(0, 200)}`
}

function bodyOf(res: EngineResponse): string {
  if (res.bytes && res.body === '') return `base64:${Buffer.from(res.bytes).toString('base64')}`
  return res.body
}

let t: TestEngine
let answers: Answer[]

beforeAll(async () => {
  t = await makeEngine()
  const measured = await measuredCampaign(t)
  const f: Fixture = await seed(t)
  const port = await doorPort(t)
  const steady = (s: string) => s.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:DOOR').replace(/"ms":\d+/g, '"ms":0').replace(/"started_at":"[^"]*"/g, '"started_at":"START"')
  const requests = goldenRequests({ f, valid: validParams(f), measured, token: t.token, textBody: (id) => textBody(id, f) })
  answers = []
  let last: EngineResponse | undefined
  for (const r of requests) {
    const res = (last = await send(r, last))
    const headers = Object.fromEntries(Object.entries(res.headers).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, steady(v)]))
    answers.push({ name: r.name, status: res.status, headers, body: kept(r.name, steady(bodyOf(res))) })
  }
  if (RECORD) writeFileSync(FILE, `[\n${answers.map((a) => JSON.stringify(a)).join(',\n')}\n]\n`)
}, 120_000)

async function send(r: GoldenRequest, last: EngineResponse | undefined): Promise<EngineResponse> {
  const req: EngineRequest = typeof r.request === 'function' ? await r.request(t, last) : r.request
  return t.engine.handle(req)
}

/** The port of the seed's HTTP door, from the profile it pulled through (its base_url). */
async function doorPort(t: TestEngine): Promise<string> {
  const r = await t.get('/local/v1/sync/profiles/list')
  const live = (r.body as { name: string; base_url: string }[]).find((p) => p.name === 'Fixture remote')
  return new URL(live!.base_url).port
}

/**
 * A campaign measured over seven past days: planned display and keyword spots, two targets, a
 * generated panel of each platform, and a seeded simulation of its traffic. Made with the clock a
 * week back (campaigns start today or later), then the clock is put back.
 */
async function measuredCampaign(t: TestEngine): Promise<{ campaign_id: string; spot_id: string; publisher_id: string; target_id: string; minisite_id: string }> {
  const week = 7 * 86_400_000
  t.clock.advance(-week)
  const ok = (r: Reply): Reply => {
    if (r.status !== 200) throw new Error(`golden setup failed: ${r.raw.body}`)
    return r
  }
  const c = ok(await t.post('/cms/v1/campaigns/create', { campaign_name: 'Golden measured campaign', start_date: '2025-01-03', end_date: '2025-01-20', advertiser_id: 1, brand_id: 1, agency_id: 1 }))
  const campaign_id = c.body.campaign_id as string
  const plan = { slot_begin: '2025-01-03', slot_duration: 18 }
  const s = ok(await t.post('/cms/v1/campaigns/create_spot_with_plan', { campaign_id, publisher_name: 'Tencent', channel_name: 'video', placement_name: 'pre-roll', landing_page: 'https://example.com/v', est_impression: 3000, est_click: 30, ...plan }))
  ok(await t.post('/cms/v1/campaigns/create_spot_with_plan', { campaign_id, publisher_name: 'Douyin', channel_name: 'feed', placement_name: 'feed card', landing_page: 'https://example.com/d', est_impression: 2000, est_click: 20, ...plan }))
  ok(await t.post('/cms/v1/campaigns/create_spot_with_plan', { campaign_id, publisher_name: 'Baidu', channel_name: 'Bidding', placement_name: 'search', keyword: '洗发水^https://example.com/k', est_impression: 500, est_click: 25, ...plan }))
  const target = ok(await t.post('/cms/v1/campaigns/publish_target', { campaign_id, target_name: 'Women 25-34', tag_id: 'female&25-29Y,30-34Y' }))
  ok(await t.post('/cms/v1/campaigns/publish_target', { campaign_id, target_name: 'Men 18-24', tag_id: 'male&18-24Y' }))
  const site = ok(await t.post('/local/v1/minisites/create', { minisite_name: 'Golden site', campaign_id, events: 'home,product,checkout' }))
  t.clock.advance(week)
  ok(await t.post('/local/v1/panels/generate', { panel_id: 'china-pc-2026', persons: 2000, seed: 7 }))
  ok(await t.post('/local/v1/panels/generate', { panel_id: 'china-pm-2025', persons: 1000, seed: 8 }))
  ok(await t.post('/local/v1/simulate/run', { campaign_id, from_date: '2025-01-03', to_date: '2025-01-09', seed: 42, scale: 1, wait: 1 }))
  return { campaign_id, spot_id: s.body.spot_id, publisher_id: s.body.publisher_id, target_id: target.body.target_id, minisite_id: site.body.minisite_id }
}

describe('golden answers', () => {
  it('asks the recorded requests, in order', () => {
    expect(new Set(answers.map((a) => a.name)).size, 'request names are unique').toBe(answers.length)
    if (RECORD) return
    const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as Answer[]
    expect(answers.map((a) => a.name)).toEqual(recorded.map((a) => a.name))
  })

  it('answers each as recorded: status, headers and body bytes', () => {
    if (RECORD) return
    const recorded = new Map((JSON.parse(readFileSync(FILE, 'utf8')) as Answer[]).map((a) => [a.name, a]))
    const differ: string[] = []
    for (const a of answers) {
      const was = recorded.get(a.name)
      if (!was) continue
      if (a.status !== was.status) differ.push(`${a.name}: status ${a.status}, recorded ${was.status}`)
      if (JSON.stringify(a.headers) !== JSON.stringify(was.headers)) differ.push(`${a.name}: headers ${JSON.stringify(a.headers)}, recorded ${JSON.stringify(was.headers)}`)
      if (a.body !== was.body) differ.push(`${a.name}: body differs from byte ${firstDifference(a.body, was.body)}: ${excerpt(a.body, was.body)}`)
    }
    expect(differ, `${differ.length} answers differ from the recorded ones (re-record with GOLDEN_RECORD=1 only for a change of behaviour that is meant)`).toEqual([])
  })
})

function firstDifference(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}

function excerpt(a: string, b: string): string {
  const i = firstDifference(a, b)
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 40), i + 80))
  return `now ${around(a)}, recorded ${around(b)}`
}
