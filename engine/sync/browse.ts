/** Offline reading of pulled records (the local endpoints under /local/v1/sync/). */
import { badRequest } from '../contract/errors'
import type { RemoteKind } from '../contract/endpoints-sync'
import type { Limit } from '../contract/params'
import type { Db } from '../storage/db'
import { campaignRecord, campaignRecordsOfList, childRecordTexts, recordsOfList } from '../storage/repos/sync-records'

export interface RecordQuery {
  kind: RemoteKind
  name?: string | undefined
  parent_id?: string | undefined
  limit: Limit
}

export function listRecords(db: Db, profileId: number, q: RecordQuery) {
  const rows = recordsOfList(db, profileId, q)
  return rows.map((r) => ({ kind: r.kind, remote_id: r.remote_id, parent_id: r.parent_id, name: r.name, profile_id: String(profileId), fetched_at: r.fetched_at, record: JSON.parse(r.record) as unknown }))
}

export function listCampaigns(db: Db, profileId: number, name: string | undefined, limit: Limit) {
  const rows = campaignRecordsOfList(db, profileId, name, limit)
  return rows.map((r) => ({
    campaign_id: r.remote_id, campaign_name: r.name, profile_id: String(profileId), fetched_at: r.fetched_at,
    spots: r.spots, targets: r.targets, publishers: r.publishers, campaign: JSON.parse(r.record) as unknown,
  }))
}

export function showCampaign(db: Db, profileId: number, campaignId: string) {
  const c = campaignRecord(db, profileId, campaignId)
  if (!c) throw badRequest('browse.noPulledCampaign', { param: 'campaign_id', profile: String(profileId), id: String(campaignId) })
  const children = (kind: RemoteKind) =>
    childRecordTexts(db, profileId, kind, campaignId).map((r) => JSON.parse(r) as unknown)
  return {
    campaign_id: campaignId, profile_id: String(profileId), fetched_at: c.fetched_at, campaign: JSON.parse(c.record) as unknown,
    spots: children('spot'), targets: children('target'), publishers: children('publisher'),
  }
}
