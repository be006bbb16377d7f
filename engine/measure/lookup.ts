/**
 * What tracking endpoints need to know of spots and minisites, cached until the next database
 * write (a hit must not cost a query): campaign and spot of a tag, keyword landing pages,
 * minisite events and linked campaigns.
 */
import { toBase62 } from '../contract/base62'
import type { Db } from '../storage/db'
import type { TagCampaign, TagKeyword, TagSpot } from '../tracking/tags'

export interface SpotInfo {
  campaign_id: number
  campaign: TagCampaign
  spot: TagSpot
  keywords: Map<number, TagKeyword>
}

export interface MinisiteInfo {
  events: Set<number>
  campaigns: Set<number>
}

export class TrackingLookup {
  private version = -1
  private spots = new Map<number, SpotInfo | null>()
  private sites = new Map<number, MinisiteInfo | null>()

  constructor(private readonly db: Db) {}

  private fresh(): void {
    if (this.db.version === this.version) return
    this.version = this.db.version
    this.spots.clear()
    this.sites.clear()
  }

  spot(spotId: number): SpotInfo | null {
    this.fresh()
    if (this.spots.has(spotId)) return this.spots.get(spotId)!
    const row = this.db.get<{ campaign_id: number; campaign_name: string; publisher_name: string; placement_type: string; landing_page: string }>(
      `SELECT s.campaign_id, c.campaign_name, p.publisher_name, s.placement_type, s.landing_page
       FROM spots s JOIN campaigns c ON c.campaign_id = s.campaign_id JOIN publishers p ON p.publisher_id = s.publisher_id WHERE s.spot_id = ?`, [spotId])
    const info = row ? {
      campaign_id: row.campaign_id,
      campaign: { campaign_id: row.campaign_id, campaign_name: row.campaign_name },
      spot: { spot_id_str: toBase62(spotId), publisher_name: row.publisher_name, placement_type: row.placement_type, landing_page: row.landing_page },
      keywords: new Map(this.db.query<{ keyword_id: number; keyword_name: string; landing_page: string }>(
        'SELECT keyword_id, keyword_name, landing_page FROM keywords WHERE spot_id = ?', [spotId]).map((k) => [k.keyword_id, k])),
    } : null
    if (this.spots.size > 100_000) this.spots.clear()
    this.spots.set(spotId, info)
    return info
  }

  minisite(id: number): MinisiteInfo | null {
    this.fresh()
    if (this.sites.has(id)) return this.sites.get(id)!
    const exists = this.db.scalar('SELECT 1 FROM minisites WHERE minisite_id = ?', [id])
    const info = exists ? {
      events: new Set(this.db.query<{ event_id: number }>('SELECT event_id FROM minisite_events WHERE minisite_id = ?', [id]).map((r) => r.event_id)),
      campaigns: new Set(this.db.query<{ campaign_id: number }>('SELECT campaign_id FROM minisite_campaigns WHERE minisite_id = ?', [id]).map((r) => r.campaign_id)),
    } : null
    this.sites.set(id, info)
    return info
  }
}
