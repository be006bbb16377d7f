/** What a report needs to know of a campaign: its days, spots, publishers, keywords, targets. */
import { toBase62 } from '../contract/base62'
import type { Db } from '../storage/db'
import { requireCampaign } from '../storage/repos/campaigns'
import { keywordSpotsOfCampaign, spotsOfCampaign } from '../storage/repos/spots'
import { targetsOfCampaign } from '../storage/repos/targets'
import { dayNumber } from '../time-zone'

export interface SpotMeta {
  spot_id: number
  spot_id_str: string
  publisher_id: number
  /** dangerous_source_filtration: data-centre traffic is left out of this spot's figures. */
  filtersDatacenter: boolean
}

export interface CampaignMeta {
  campaign_id: number
  /** Day numbers (days since 1970-01-01) of start_date and end_date. */
  start: number
  end: number
  panel_id: string
  /** Spots ordered by spot id. */
  spots: SpotMeta[]
  /** spot id -> index in `spots`. */
  slotOf: Map<number, number>
  /** Keywords: keyword id -> spot id. */
  keywords: Map<number, number>
  /** Targets ordered by id. */
  targets: { target_id: number; target_name: string; tag_id: string; panel_id: string }[]
}

/**
 * The campaign's metadata, read once per database version and day: a report computed afresh
 * after new hits (which change no row) runs no SQL for it. Readers must not change it.
 */
export function loadCampaignMeta(db: Db, campaignId: string, today: string): CampaignMeta {
  let kept = metas.get(db)
  if (!kept || kept.version !== db.version || kept.today !== today) metas.set(db, (kept = { version: db.version, today, byId: new Map() }))
  let meta = kept.byId.get(campaignId)
  if (!meta) kept.byId.set(campaignId, (meta = readCampaignMeta(db, campaignId, today)))
  return meta
}

const metas = new WeakMap<Db, { version: number; today: string; byId: Map<string, CampaignMeta> }>()

function readCampaignMeta(db: Db, campaignId: string, today: string): CampaignMeta {
  const c = requireCampaign(db, campaignId, today)
  const spots = spotsOfCampaign(db, c.campaign_id)
    .map((s) => ({ spot_id: s.spot_id, spot_id_str: toBase62(s.spot_id), publisher_id: s.publisher_id, filtersDatacenter: s.dangerous_source_filtration === 1 }))
  const keywords = new Map(keywordSpotsOfCampaign(db, c.campaign_id).map((k) => [k.keyword_id, k.spot_id]))
  const targets = targetsOfCampaign(db, c.campaign_id)
  return {
    campaign_id: c.campaign_id, start: dayNumber(c.start_date), end: dayNumber(c.end_date), panel_id: c.panel_id,
    spots, slotOf: new Map(spots.map((s, i) => [s.spot_id, i])), keywords, targets,
  }
}
