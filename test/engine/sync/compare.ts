/** Field-by-field comparison of what the remote answers with what a pull stored locally. */
import { expect } from 'vitest'
import type { TestEngine } from '../../helpers/make-engine'
import type { RemoteApi } from './remote'

const ALL = { limit: '0,100000' }
const SPOT_FLAGS = { show_plan: 1, show_filtration_status: 1, show_extInfo: 1, dm_info: 1 }
type Row = Record<string, unknown>

const byKey = (key: string) => (a: Row, b: Row) => String(a[key]).localeCompare(String(b[key]), 'en', { numeric: true })

/** What the remote has, read directly (one big page each). */
export async function remoteView(r: RemoteApi) {
  const list = (await r.get('/cms/v1/campaigns/list', ALL)).body as Row[]
  const campaigns: Record<string, Row> = {}
  for (const { campaign_id } of list) {
    const c = { campaign_id: String(campaign_id) }
    campaigns[c.campaign_id] = {
      campaign: (await r.get('/cms/v1/campaigns/show', { ...c, pmo_info: 1, dm_info: 1 })).body,
      spots: ((await r.get('/cms/v1/campaigns/list_spots', { ...c, ...SPOT_FLAGS, ...ALL })).body as Row[]).sort(byKey('spot_id')),
      targets: ((await r.get('/cms/v1/campaigns/list_targets', { ...c, show_tag: 1, ...ALL })).body as Row[]).sort(byKey('target_id')),
      publishers: ((await r.get('/cms/v1/campaigns/list_publishers', { ...c, ...ALL })).body as Row[]).sort(byKey('publisher_id')),
    }
  }
  const ref = async (path: string, key: string, q: Record<string, string> = {}) => ((await r.get(path, { ...ALL, ...q })).body as Row[]).sort(byKey(key))
  const panels = [...(await ref('/cms/v1/panels/list', 'panel_id', { platform: 'pc' })), ...(await ref('/cms/v1/panels/list', 'panel_id', { platform: 'pm' })), ...(await ref('/cms/v1/panels/list', 'panel_id', { platform: 'pmo' }))]
  const advertisers = await ref('/cms/v1/advertisers/list', 'advertiser_id')
  const brands: Row[] = []
  for (const a of advertisers) brands.push(...(await ref('/cms/v1/brands/list', 'brand_id', { advertiser_id: String(a.advertiser_id) })))
  const reference = {
    advertiser: advertisers, agency: await ref('/cms/v1/agencies/list', 'agency_id'), brand: brands.sort(byKey('brand_id')),
    product: await ref('/cms/v1/product/list', 'name'), program: await ref('/cms/v1/programs/list', 'name'),
    plmttype: await ref('/cms/v1/plmttype/list', 'name'), extensiontype: await ref('/cms/v1/extensiontype/list', 'name'),
    panel: panels.sort(byKey('panel_id')), region: await ref('/cms/v1/regions/list', 'region_id'),
  }
  return { campaigns, reference }
}

const KEYS: Record<string, string> = { advertiser: 'advertiser_id', agency: 'agency_id', brand: 'brand_id', product: 'name', program: 'name', plmttype: 'name', extensiontype: 'name', panel: 'panel_id', region: 'region_id' }

/** What the local engine stored for the profile, read through the local endpoints. */
export async function localView(l: TestEngine, profileId: string) {
  const p = { profile_id: profileId }
  const list = (await l.get('/local/v1/sync/campaigns/list', { ...p, ...ALL })).body as Row[]
  const campaigns: Record<string, Row> = {}
  for (const item of list) {
    const s = (await l.get('/local/v1/sync/campaigns/show', { ...p, campaign_id: String(item.campaign_id) })).body as Row
    campaigns[String(item.campaign_id)] = {
      campaign: s.campaign, spots: (s.spots as Row[]).sort(byKey('spot_id')), targets: (s.targets as Row[]).sort(byKey('target_id')), publishers: (s.publishers as Row[]).sort(byKey('publisher_id')),
    }
  }
  const reference: Record<string, Row[]> = {}
  for (const [kind, key] of Object.entries(KEYS)) {
    const rows = (await l.get('/local/v1/sync/records/list', { ...p, kind, ...ALL })).body as { record: Row }[]
    reference[kind] = rows.map((x) => x.record).sort(byKey(key))
  }
  return { campaigns, reference }
}

/** The local store holds exactly what the remote has, member by member. */
export async function expectSameAsRemote(remote: RemoteApi, local: TestEngine, profileId: string): Promise<void> {
  const [want, got] = [await remoteView(remote), await localView(local, profileId)]
  expect(Object.keys(got.campaigns).sort()).toEqual(Object.keys(want.campaigns).sort())
  for (const [id, c] of Object.entries(want.campaigns)) expect(got.campaigns[id], `campaign ${id}`).toEqual(c)
  for (const [kind, rows] of Object.entries(want.reference)) expect(got.reference[kind], kind).toEqual(rows)
}
