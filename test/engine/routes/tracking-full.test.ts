// docs/measurement.md "Capacity", through the tracking routes: a campaign's partition holds at most
// Ingest.capacity events (67,108,864; lowered here). A hit beyond it is answered as a tag expects (the
// GIF, the click's redirect to its landing page) but not counted, the answer saying why; the other
// campaigns go on counting. (test/engine/measure/ingest.test.ts covers the ingest itself.)
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import type { EngineRequest } from '../../../engine/contract/envelope'
import { makeEngine, toReply, type Reply, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign } from './spot-helpers'

const CAPACITY = 4
const LANDING = 'https://shop.example/full'
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

let t: TestEngine
let browsers = 0

/** A tag's request, its macros left empty, from a browser of its own (one browser's hits would be abnormal frequency). */
async function hit(url: string): Promise<Reply> {
  const filled = url.replace(/__[A-Z0-9]+__/g, '').replace(/^https?:\/\/[^/]+/, '')
  const q = filled.indexOf('?')
  const rawQuery = q < 0 ? '' : filled.slice(q + 1)
  const req: EngineRequest = {
    method: 'GET', path: q < 0 ? filled : filled.slice(0, q), query: Object.fromEntries(new URLSearchParams(rawQuery)), rawQuery,
    headers: { 'user-agent': UA, cookie: `amid=${(++browsers).toString(16).padStart(32, '0')}` }, remoteAddress: '10.0.0.9',
  }
  return toReply(await t.engine.handle(req))
}

/** A campaign with one spot, and its impression and click tags. */
async function campaignWithTags(): Promise<{ campaign: string; impression: string; click: string }> {
  const campaign = await newCampaign(t)
  expect((await createSpot(t, campaign, { landing_page: LANDING })).status).toBe(200)
  const spots = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: campaign })).body as { tracking_tags: { impression_url: string; click_url: string } }[]
  return { campaign, impression: spots[0]!.tracking_tags.impression_url, click: spots[0]!.tracking_tags.click_url }
}

const events = async (campaign: string): Promise<number> =>
  ((await t.get(endpoints['measurement.status'].path)).body.campaigns as { campaign_id: string; events: number }[]).find((c) => c.campaign_id === campaign)?.events ?? 0

beforeAll(async () => {
  t = await makeEngine()
  // (the ingest's limit, as its own tests lower it: 2^26 hits would take minutes)
  Object.defineProperty(t.engine.measure.ingest, 'capacity', { value: CAPACITY })
})

describe('a full campaign, through the tracking routes', () => {
  it('answers the GIF and the redirect past its capacity without counting, saying why, and other campaigns go on', async () => {
    const full = await campaignWithTags()
    const other = await campaignWithTags()
    for (let i = 0; i < CAPACITY; i++) expect((await hit(full.impression)).headers['x-admonitor-counted']).toBe('1')
    const imp = await hit(full.impression)
    expect(imp.raw.status).toBe(200)
    expect(imp.headers['content-type']).toBe('image/gif')
    expect(decodeURIComponent(imp.headers['x-admonitor-counted']!)).toBe(`0; campaign ${full.campaign} is full: it holds ${CAPACITY} events, the most one campaign can hold (docs/measurement.md)`)
    // a click still takes the visitor to the landing page
    const clk = await hit(full.click)
    expect(clk.raw.status).toBe(302)
    expect(clk.headers.location!.startsWith(LANDING)).toBe(true)
    expect(decodeURIComponent(clk.headers['x-admonitor-counted']!)).toMatch(/^0; campaign \d+ is full/)
    expect(await events(full.campaign)).toBe(CAPACITY)
    expect((await hit(other.impression)).headers['x-admonitor-counted']).toBe('1')
    expect(await events(other.campaign)).toBe(1)
  })
})
