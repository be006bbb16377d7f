/**
 * A second engine started as "the remote": memory storage, its own fake clock and its own HTTP
 * door on port 0, holding a few campaigns with spots (plans, keywords), targets and publishers.
 */
import { startHttpDoor, type HttpDoor } from '../../../engine/server/http'
import type { SyncOptions } from '../../../engine/sync/service'
import { ACCOUNT, DATES, makeEngine, type TestEngine } from '../../helpers/make-engine'
import { OTHER_READINGS, READINGS, seedCampaign, startVendor, type Readings } from './vendor-remote'

export interface Remote {
  t: TestEngine
  door: HttpDoor
  url: string
  campaignIds: string[]
}

export async function addCampaign(t: TestEngine, n: number): Promise<string> {
  const c = await t.post('/cms/v1/campaigns/create', {
    campaign_name: `Remote campaign ${n}`, start_date: DATES.tomorrow, end_date: DATES.nextMonth, advertiser_id: 1, brand_id: 1, agency_id: 2,
    orderid: `ORD-${n}`, schedulingCode: `SC-${n}`, linked_tvcaids: '[12,34]', panel_type: 'pmo', description: `campaign ${n} 说明`,
  })
  if (c.status !== 200) throw new Error(c.raw.body)
  const campaign_id = c.body.campaign_id as string
  const calls = [
    t.post('/cms/v1/campaigns/create_spot', { campaign_id, publisher_name: 'Sina', channel_name: 'news', placement_name: `banner ${n}`, landing_page: 'https://example.com/a', guid: `G${n}` }),
    t.post('/cms/v1/campaigns/create_spot_with_plan', {
      campaign_id, publisher_name: 'Baidu', channel_name: 'Bidding', placement_name: `search ${n}`, keyword: '牛奶^https://example.com/milk>母乳^',
      slot_begin: DATES.tomorrow, slot_duration: 3, est_impression: 900, est_click: 30,
    }),
    t.post('/cms/v1/campaigns/create_spot', { campaign_id, publisher_name: 'Sina', channel_name: 'sports', placement_name: `video ${n}`, placement_type: 'video' }),
    t.post('/cms/v1/campaigns/publish_target', { campaign_id, target_name: 'Women', tag_id: 'female' }),
    t.post('/cms/v1/campaigns/publish_target', { campaign_id, target_name: 'Men 25-29', tag_id: 'male&25-29Y' }),
  ]
  for (const r of await Promise.all(calls)) if (r.status !== 200) throw new Error(r.raw.body)
  return campaign_id
}

export async function startRemote(campaigns = 3): Promise<Remote> {
  const t = await makeEngine()
  const campaignIds: string[] = []
  for (let n = 1; n <= campaigns; n++) campaignIds.push(await addCampaign(t, n))
  const door = await startHttpDoor(t.engine, { port: 0 })
  t.engine.settings.publicUrl = door.url
  return { t, door, url: door.url, campaignIds }
}

export async function stopRemote(r: Remote): Promise<void> {
  await r.door.close()
  await r.t.engine.close()
}

/** Fast sync settings for tests: no pacing, tiny pages (so paging is exercised), quick retries. */
export const FAST: SyncOptions = { pacingMs: 0, backoffMs: 1, pageSize: 2, timeoutMs: 5000 }

/** A local engine with a profile pointing at `url`. */
export async function localWithProfile(url: string, sync: SyncOptions = FAST, engine = {}): Promise<{ local: TestEngine; profileId: string }> {
  const local = await makeEngine({ engine: { sync, ...engine } })
  const r = await local.post('/local/v1/sync/profiles/create', { name: 'Real service', base_url: url, ...ACCOUNT })
  if (r.status !== 200) throw new Error(r.raw.body)
  return { local, profileId: r.body.profile_id as string }
}

/** What a test reads and writes at a remote directly (a second engine, or the vendor stand-in). */
export interface RemoteApi {
  get(path: string, query?: Record<string, string | number>): Promise<{ status: number; body: any }> // eslint-disable-line @typescript-eslint/no-explicit-any
  post(path: string, form?: Record<string, string | number>): Promise<{ status: number; body: any }> // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A remote under test with `campaigns` campaigns of its own. */
export interface AnyRemote {
  t: RemoteApi
  url: string
  close(): Promise<void>
}

async function vendorWith(campaigns: number, readings: Readings): Promise<AnyRemote> {
  const v = await startVendor(readings)
  for (let n = 1; n <= campaigns; n++) seedCampaign(v.data, n)
  return { t: v, url: v.url, close: () => v.close() }
}

/**
 * The remotes the sync tests run against: a second engine (which shares this engine's
 * assumptions), and the vendor stand-in (vendor-remote.ts) in each reading of what vendor-notes
 * leaves ambiguous.
 */
export const REMOTES: [string, (campaigns: number) => Promise<AnyRemote>][] = [
  ['a second engine', async (n) => {
    const r = await startRemote(n)
    return { t: r.t, url: r.url, close: () => stopRemote(r) }
  }],
  ['the vendor stand-in', (n) => vendorWith(n, READINGS)],
  ['the vendor stand-in, other readings', (n) => vendorWith(n, OTHER_READINGS)],
]
