/**
 * What a pull reads from the remote (spec §4.2, §4.5): every page of each list, each campaign's
 * details with its spots (plans, keywords), targets (tags) and publishers, and the reference lists.
 */
import type { RemoteKind } from '../contract/endpoints-sync'
import type { RemoteClient } from './client'
import { problem, type Told } from '../contract/problems'
import { RemoteError, isRefusal, keyed } from './remote-error'
import { toldOf } from './said'
import type { Incoming } from './store'

type Rec = Record<string, unknown>

/** A member as text: strings kept, numbers written out, anything else ''. */
export const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

/** How a pull reads spots and targets (and a push reads them back, so their hashes compare). */
export const SPOT_FLAGS = { show_plan: '1', show_filtration_status: '1', show_extInfo: '1', dm_info: '1' }
export const TARGET_FLAGS = { show_tag: '1' }

/**
 * Every page of a list. `offset` lists take M = start row, `page` lists M = page number
 * (spec §4.5); whether pages count from 0 or 1 is ambiguous (vendor-notes §1.3), so page 1 may
 * repeat page 0 without ending the walk, and records are kept once by key. A page that brings
 * nothing new ends the walk too (a service that ignores `limit` cannot loop us forever).
 */
export async function fetchAll(client: RemoteClient, path: string, params: Record<string, string>, paging: 'offset' | 'page', size: number, key: (r: Rec) => string): Promise<Rec[]> {
  const out = new Map<string, Rec>()
  for (let page = 0; ; page++) {
    const m = paging === 'offset' ? page * size : page
    const rows = await client.get(path, { ...params, limit: `${m},${size}` })
    if (!Array.isArray(rows)) throw new RemoteError('bad_response', keyed('remote.notList', { path }), false)
    let added = 0
    for (const r of rows as Rec[]) {
      const k = r !== null && typeof r === 'object' ? key(r) : ''
      if (k !== '' && !out.has(k)) {
        out.set(k, r)
        added++
      }
    }
    if (rows.length < size || (added === 0 && !(paging === 'page' && page === 1))) break
  }
  return [...out.values()]
}

export interface RefList {
  kind: RemoteKind
  path: string
  paging: 'offset' | 'page'
  id: string
  name: string
  /** One walk per parameter set (panels: one per platform). */
  variants?: Record<string, string>[]
}

/** The reference lists (spec §4.5). Brands are listed per advertiser (advertiser_id is required). */
export const REFERENCE: readonly RefList[] = [
  { kind: 'advertiser', path: '/cms/v1/advertisers/list', paging: 'offset', id: 'advertiser_id', name: 'advertiser_name' },
  { kind: 'agency', path: '/cms/v1/agencies/list', paging: 'offset', id: 'agency_id', name: 'agency_name' },
  { kind: 'product', path: '/cms/v1/product/list', paging: 'page', id: 'name', name: 'name' },
  { kind: 'program', path: '/cms/v1/programs/list', paging: 'page', id: 'name', name: 'name' },
  { kind: 'plmttype', path: '/cms/v1/plmttype/list', paging: 'page', id: 'name', name: 'name' },
  { kind: 'extensiontype', path: '/cms/v1/extensiontype/list', paging: 'page', id: 'name', name: 'name' },
  { kind: 'panel', path: '/cms/v1/panels/list', paging: 'offset', id: 'panel_id', name: 'panel_name', variants: [{ platform: 'pc', lang: 'en' }, { platform: 'pm', lang: 'en' }, { platform: 'pmo', lang: 'en' }] },
  { kind: 'region', path: '/cms/v1/regions/list', paging: 'offset', id: 'region_id', name: 'region_name', variants: [{ lang: 'en' }] },
]

const incoming = (rows: Rec[], id: string, name: string, parent = ''): Incoming[] =>
  rows.map((r) => ({ remote_id: text(r[id]), parent_id: parent, name: text(r[name]) || text(r[id]), record: r }))

export type ReferenceSets = { kind: RemoteKind; rows: Incoming[] }[]

/** One reference list of REFERENCE, every page (and variant). */
export async function fetchList(client: RemoteClient, l: RefList, size: number): Promise<Incoming[]> {
  const rows = new Map<string, Rec>()
  for (const v of l.variants ?? [{}]) for (const r of await fetchAll(client, l.path, v, l.paging, size, (x) => text(x[l.id]))) rows.set(text(r[l.id]), r)
  return incoming([...rows.values()], l.id, l.name)
}

/** The brands of each advertiser, each with its advertiser as parent. */
export async function fetchBrands(client: RemoteClient, advertisers: readonly Pick<Incoming, 'remote_id'>[], size: number): Promise<Incoming[]> {
  const brands: Incoming[] = []
  for (const a of advertisers) {
    const rows = await fetchAll(client, '/cms/v1/brands/list', { advertiser_id: a.remote_id }, 'offset', size, (x) => text(x.brand_id))
    brands.push(...incoming(rows, 'brand_id', 'brand_name', a.remote_id))
  }
  return brands
}

/** Every reference list, brands of every advertiser included; `notes` names the lists skipped. */
export async function fetchReference(client: RemoteClient, size: number, notes: Told[]): Promise<ReferenceSets> {
  const sets: ReferenceSets = []
  const one = async (kind: RemoteKind, read: () => Promise<Incoming[]>) => {
    try {
      sets.push({ kind, rows: await read() })
    } catch (err) {
      // a list the remote refuses (absent, not permitted) is skipped, not fatal; the rest goes on
      if (!isRefusal(err, true)) throw err
      notes.push(problem('pull.listSkipped', { records: kind, reason: toldOf(err) }))
    }
  }
  for (const l of REFERENCE) await one(l.kind, () => fetchList(client, l, size))
  const advertisers = sets.find((s) => s.kind === 'advertiser')
  if (advertisers) await one('brand', () => fetchBrands(client, advertisers.rows, size))
  return sets
}

/** The ids of every campaign of the remote account, in order. */
export async function fetchCampaignIds(client: RemoteClient, size: number): Promise<string[]> {
  const rows = await fetchAll(client, '/cms/v1/campaigns/list', {}, 'offset', size, (r) => text(r.campaign_id))
  return rows.map((r) => text(r.campaign_id)).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
}

export interface RemoteCampaignData {
  campaign: Incoming
  spots: Incoming[]
  targets: Incoming[]
  publishers: Incoming[]
}

/** A campaign as a pull stores it (campaigns/show with pmo_info and dm_info); null when the remote no longer has it. */
export async function fetchShow(client: RemoteClient, id: string): Promise<Incoming | null> {
  try {
    const show = (await client.get('/cms/v1/campaigns/show', { campaign_id: id, pmo_info: '1', dm_info: '1' })) as Rec
    return { remote_id: id, parent_id: '', name: text(show.campaign_name), record: show }
  } catch (err) {
    if (err instanceof RemoteError && err.code === 'invalid_campaign_id') return null
    throw err
  }
}

/** One campaign with everything under it, or null when the remote no longer has it. */
export async function fetchCampaign(client: RemoteClient, id: string, size: number): Promise<RemoteCampaignData | null> {
  const campaign = await fetchShow(client, id)
  if (!campaign) return null
  const c = { campaign_id: id }
  const spots = await fetchAll(client, '/cms/v1/campaigns/list_spots', { ...c, ...SPOT_FLAGS }, 'offset', size, (r) => text(r.spot_id))
  const targets = await fetchAll(client, '/cms/v1/campaigns/list_targets', { ...c, ...TARGET_FLAGS }, 'offset', size, (r) => text(r.target_id))
  const publishers = await fetchAll(client, '/cms/v1/campaigns/list_publishers', c, 'offset', size, (r) => text(r.publisher_id))
  return {
    campaign,
    spots: incoming(spots, 'spot_id', 'placement_name', id),
    targets: incoming(targets, 'target_id', 'target_name', id),
    publishers: incoming(publishers, 'publisher_id', 'publisher_name', id),
  }
}
