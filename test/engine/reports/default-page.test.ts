// Reports without `limit` answer the spec's default page, 0,500 (spec §4.4: "limit (O, M,N,
// default 0,500)"): the first 500 spots of a larger campaign, total_spot_num saying how many
// there are; a `limit` reaches the others.
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { REPORT_DEFAULT_PAGE } from '../../../engine/contract/report-rules'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

const N = REPORT_DEFAULT_PAGE + 3
let t: TestEngine
let cid: string

beforeAll(async () => {
  t = await makeEngine()
  cid = (await t.post(endpoints['campaigns.create'].path, { campaign_name: 'many spots', start_date: '2025-01-10', end_date: '2025-01-31' })).body.campaign_id as string
  const spots = Array.from({ length: N }, (_, i) => ({ publisher_name: `Pub ${i % 3}`, channel_name: 'news', placement_name: `spot ${i}` }))
  const r = await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, { campaign_id: cid, spots })
  expect(r.status, r.raw.body).toBe(200)
})

/** The distinct spots of an answer's rows (a spot has a row per audience). */
const spotIds = (body: { items: { attributes: { spot_id: string } }[] }) => [...new Set(body.items.map((i) => Number(i.attributes.spot_id)))]

describe('the default page of spots', () => {
  it.each([
    ['basic', endpoints['reports.basic_show'].path, { metrics: 'acc', with_null: '1' }],
    ['reach', endpoints['reports.reach_show'].path, { with_null: '1' }],
  ])('%s/show (with_null: rows without figures) answers the first 500 spots without limit, and the rest with one', async (_name, path, extra) => {
    const base = { campaign_id: cid, date: '2025-01-10', by_position: 'spot', ...extra }
    const first = await t.get(path, base)
    expect(first.status, first.raw.body).toBe(200)
    expect(first.body.total_spot_num).toBe(N)
    const ids = spotIds(first.body)
    expect(ids).toHaveLength(REPORT_DEFAULT_PAGE)
    const rest = await t.get(path, { ...base, limit: `${REPORT_DEFAULT_PAGE},3` })
    expect(rest.status, rest.raw.body).toBe(200)
    expect(new Set([...ids, ...spotIds(rest.body)]).size).toBe(N)
  })

  it('answers every publisher when there are fewer than 500', async () => {
    const r = await t.get(endpoints['reports.basic_show'].path, { campaign_id: cid, date: '2025-01-10', by_position: 'publisher', metrics: 'acc', with_null: '1' })
    expect(new Set(r.body.items.map((i: { attributes: { publisher_id: string } }) => i.attributes.publisher_id)).size).toBe(3)
  })
})

describe('the size of one answer', () => {
  it('refuses an answer of more than 250,000 rows, naming limit and how to narrow it, before it is built', async () => {
    for (const [name, tag] of [['women', 'female'], ['men', 'male']] as const) {
      const r = await t.post(endpoints['campaigns.publish_target'].path, { campaign_id: cid, target_name: name, tag_id: tag })
      expect(r.status, r.raw.body).toBe(200)
    }
    // 503 spots x the cities x 2 targets, every cell a row with with_null
    const ask = (path: string, extra: Record<string, string>) => t.get(path, { campaign_id: cid, date: '2025-01-10', by_position: 'spot', by_region: 'level2', by_audience: 'target', limit: `0,${N}`, ...extra })
    for (const path of [endpoints['reports.basic_show'].path, endpoints['reports.reach_show'].path]) {
      const big = await ask(path, { with_null: '1', ...(path.includes('basic') ? { metrics: 'acc' } : {}) })
      expect(big.status, path).toBe(400)
      expect(big.body.error_description).toMatch(/^The 'limit' would give an answer of \d+ rows \(503 positions x \d+ regions x 2 targets\), more than the 250000 one answer holds: page the positions with limit/)
      // without with_null only the cells with data are rows: none here
      expect((await ask(path, path.includes('basic') ? { metrics: 'acc' } : {})).status).toBe(200)
    }
  })
})
