/**
 * What a push reads from the remote: a record as a pull stores it (so its hash compares with the
 * pulled copy), and the lookups that find a record an interrupted push may already have created
 * (campaign by its unique name, spot by GUID/CAGUID, target by name inside its campaign).
 */
import type { OutboxKind } from '../contract/endpoints-sync-push'
import type { RemoteClient } from './client'
import type { Params } from './outbox-params'
import { SPOT_FLAGS, TARGET_FLAGS, fetchAll, fetchShow, text } from './pull-fetch'
import type { Incoming } from './store'

type Rec = Record<string, unknown>

/** The record now, as a pull would store it; null when the remote no longer has it. */
export async function readRecord(client: RemoteClient, kind: OutboxKind, remoteId: string, campaignId: string): Promise<Incoming | null> {
  if (kind === 'campaign') return fetchShow(client, remoteId)
  const rows = kind === 'spot'
    ? await client.get('/cms/v1/campaigns/list_spots', { campaign_id: campaignId, spot_id: remoteId, ...SPOT_FLAGS })
    : await client.get('/cms/v1/campaigns/list_targets', { campaign_id: campaignId, target_id: remoteId, ...TARGET_FLAGS })
  const idKey = kind === 'spot' ? 'spot_id' : 'target_id'
  const r = Array.isArray(rows) ? (rows as Rec[]).find((x) => text(x[idKey]) === remoteId) : undefined
  if (!r) return null
  return { remote_id: remoteId, parent_id: campaignId, name: text(kind === 'spot' ? r.placement_name : r.target_name), record: r }
}

const same = (a: unknown, b: string | undefined) => b !== undefined && text(a).trim().toUpperCase() === b.trim().toUpperCase()

/**
 * The remote record an earlier, interrupted create of these parameters made, if any: a campaign
 * by its name (unique at the service), a spot by GUID (and CAGUID when given), else by channel and
 * placement name; a target by its name inside the campaign.
 */
export async function findCreated(client: RemoteClient, kind: OutboxKind, params: Params, campaignId: string, pageSize: number, taken: ReadonlySet<string>): Promise<string | undefined> {
  if (kind === 'campaign') {
    const name = params.campaign_name ?? ''
    const rows = await fetchAll(client, '/cms/v1/campaigns/list', { campaign_name: name }, 'offset', pageSize, (r) => text(r.campaign_id))
    return rows.map((r) => (r.campaign_name === name ? text(r.campaign_id) : '')).find((id) => id !== '')
  }
  if (kind === 'target') {
    const rows = await fetchAll(client, '/cms/v1/campaigns/list_targets', { campaign_id: campaignId }, 'offset', pageSize, (r) => text(r.target_id))
    return rows.map((r) => (r.target_name === params.target_name ? text(r.target_id) : '')).find((id) => id !== '')
  }
  const rows = await fetchAll(client, '/cms/v1/campaigns/list_spots', { campaign_id: campaignId }, 'offset', pageSize, (r) => text(r.spot_id))
  // a spot an earlier operation already made is someone else's match (two spots may share names)
  const byGuid = params.guid !== undefined && params.guid.trim() !== ''
  const match = (r: Rec) =>
    !taken.has(text(r.spot_id)) &&
    (byGuid
      ? same(r.GUID, params.guid) && (params.caguid === undefined || same(r.CAGUID, params.caguid))
      : r.placement_name === params.placement_name && r.channel_name === params.channel_name)
  return rows.map((r) => (match(r) ? text(r.spot_id) : '')).find((id) => id !== '')
}

/** Per-day plan changes that bring the remote spot's plan to the one queued (add missing days, update others). */
export function planSteps(params: Params, remotePlan: unknown): { add: Params | null; update: Params | null } {
  const dates = (params.add_slot ?? '').split(',').filter((d) => d !== '')
  const imp = (params.est_impression ?? '').split(',')
  const clk = (params.est_click ?? '').split(',')
  const have = new Map((Array.isArray(remotePlan) ? (remotePlan as Rec[]) : []).map((d) => [text(d.date), d]))
  const add: [string, string, string][] = []
  const update: [string, string, string][] = []
  dates.forEach((date, i) => {
    const day: [string, string, string] = [date, imp[i] ?? '0', clk[i] ?? '0']
    const h = have.get(date)
    if (!h) add.push(day)
    else if (text(h.est_impression) !== day[1] || text(h.est_click) !== day[2]) update.push(day)
  })
  const form = (days: [string, string, string][], key: string) =>
    days.length === 0 ? null : { [key]: days.map((d) => d[0]).join(','), est_impression: days.map((d) => d[1]).join(','), est_click: days.map((d) => d[2]).join(',') }
  return { add: form(add, 'add_slot'), update: form(update, 'update_slot') }
}
