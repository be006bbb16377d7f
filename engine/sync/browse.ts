/** Offline reading of pulled records (the local endpoints under /local/v1/sync/). */
import { badRequest } from '../contract/errors'
import type { RemoteKind } from '../contract/endpoints-sync'
import type { Limit } from '../contract/params'
import type { Db } from '../storage/db'
import { Where, limitSql } from '../storage/repos/query'

interface RecordRow {
  kind: RemoteKind
  remote_id: string
  parent_id: string
  name: string
  record: string
  fetched_at: string
}

const ORDER = 'ORDER BY length(remote_id), remote_id, parent_id'

export interface RecordQuery {
  kind: RemoteKind
  name?: string | undefined
  parent_id?: string | undefined
  limit: Limit
}

export function listRecords(db: Db, profileId: number, q: RecordQuery) {
  const w = new Where().eq('profile_id', profileId).eq('kind', q.kind).eq('parent_id', q.parent_id).pattern('name', q.name)
  const lim = limitSql(q.limit)
  const rows = db.query<RecordRow>(`SELECT kind, remote_id, parent_id, name, record, fetched_at FROM remote_records${w.sql} ${ORDER}${lim.sql}`, [...w.params, ...lim.params])
  return rows.map((r) => ({ kind: r.kind, remote_id: r.remote_id, parent_id: r.parent_id, name: r.name, profile_id: String(profileId), fetched_at: r.fetched_at, record: JSON.parse(r.record) as unknown }))
}

export function listCampaigns(db: Db, profileId: number, name: string | undefined, limit: Limit) {
  const w = new Where().eq('c.profile_id', profileId).add("c.kind = 'campaign'").pattern('c.name', name)
  const lim = limitSql(limit)
  const count = (kind: string) => `(SELECT COUNT(*) FROM remote_records x WHERE x.profile_id = c.profile_id AND x.kind = '${kind}' AND x.parent_id = c.remote_id)`
  const rows = db.query<RecordRow & { spots: number; targets: number; publishers: number }>(
    `SELECT c.remote_id, c.name, c.record, c.fetched_at, ${count('spot')} AS spots, ${count('target')} AS targets, ${count('publisher')} AS publishers
     FROM remote_records c${w.sql} ORDER BY length(c.remote_id), c.remote_id${lim.sql}`,
    [...w.params, ...lim.params],
  )
  return rows.map((r) => ({
    campaign_id: r.remote_id, campaign_name: r.name, profile_id: String(profileId), fetched_at: r.fetched_at,
    spots: r.spots, targets: r.targets, publishers: r.publishers, campaign: JSON.parse(r.record) as unknown,
  }))
}

export function showCampaign(db: Db, profileId: number, campaignId: string) {
  const c = db.get<RecordRow>("SELECT * FROM remote_records WHERE profile_id = ? AND kind = 'campaign' AND remote_id = ?", [profileId, campaignId])
  if (!c) throw badRequest('browse.noPulledCampaign', { param: 'campaign_id', profile: String(profileId), id: String(campaignId) })
  const children = (kind: RemoteKind) =>
    db.query<RecordRow>(`SELECT record FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ? ${ORDER}`, [profileId, kind, campaignId]).map((r) => JSON.parse(r.record) as unknown)
  return {
    campaign_id: campaignId, profile_id: String(profileId), fetched_at: c.fetched_at, campaign: JSON.parse(c.record) as unknown,
    spots: children('spot'), targets: children('target'), publishers: children('publisher'),
  }
}
