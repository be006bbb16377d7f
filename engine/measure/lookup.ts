/**
 * What tracking endpoints need to know of spots and minisites, cached until the next database
 * write (a hit must not cost a query): campaign and spot of a tag, keyword landing pages,
 * minisite events and linked campaigns.
 */
import { toBase62 } from '../contract/base62'
import type { Db } from '../storage/db'
import { eventIdsOf, linkedCampaigns, minisiteExists } from '../storage/repos/minisites'
import { allSpotsAndMinisites, keywordsOfSpot, spotForHits } from '../storage/repos/tracking-lookups'
import type { TagCampaign, TagKeyword, TagSpot } from '../tracking/tags'

export interface SpotInfo {
  campaign_id: number
  campaign: TagCampaign
  spot: TagSpot
  keywords: Map<number, TagKeyword>
  /** The spot leaves data-centre hits out of its figures (dangerous_source_filtration=1). */
  filtersDataCentres: boolean
  /** The campaign's dates (YYYY-MM-DD): a hit on a day outside them counts in no report. */
  start_date: string
  end_date: string
}

export interface MinisiteInfo {
  events: Set<number>
  campaigns: Set<number>
}

/** What an import checks of spots and minisites (TrackingLookup, or a SnapshotLookup in an import worker). */
export interface ImportLookup {
  spot(spotId: number): { campaign_id: number; keywords: { has(keyword: number): boolean } } | null
  minisite(id: number): MinisiteInfo | null
}

/** Every spot's campaign and keywords, every minisite's events and linked campaigns, as plain data. */
export interface LookupSnapshot {
  spots: [spot: number, campaign: number, keywords: number[]][]
  minisites: [minisite: number, events: number[], campaigns: number[]][]
}

/** An ImportLookup over a snapshot: what an import worker, which has no database, checks lines against. */
export class SnapshotLookup implements ImportLookup {
  private readonly spots = new Map<number, { campaign_id: number; keywords: Set<number> }>()
  private readonly sites = new Map<number, MinisiteInfo>()

  constructor(s: LookupSnapshot) {
    for (const [spot, campaign, keywords] of s.spots) this.spots.set(spot, { campaign_id: campaign, keywords: new Set(keywords) })
    for (const [id, events, campaigns] of s.minisites) this.sites.set(id, { events: new Set(events), campaigns: new Set(campaigns) })
  }

  spot(spotId: number): { campaign_id: number; keywords: Set<number> } | null {
    return this.spots.get(spotId) ?? null
  }

  minisite(id: number): MinisiteInfo | null {
    return this.sites.get(id) ?? null
  }
}

export class TrackingLookup implements ImportLookup {
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
    const row = spotForHits(this.db, spotId)
    const info = row ? {
      campaign_id: row.campaign_id,
      campaign: { campaign_id: row.campaign_id, campaign_name: row.campaign_name },
      spot: { spot_id_str: toBase62(spotId), publisher_name: row.publisher_name, placement_type: row.placement_type, landing_page: row.landing_page },
      keywords: new Map(keywordsOfSpot(this.db, spotId).map((k) => [k.keyword_id, k])),
      filtersDataCentres: row.dsf === 1,
      start_date: row.start_date,
      end_date: row.end_date,
    } : null
    if (this.spots.size > 100_000) this.spots.clear()
    this.spots.set(spotId, info)
    return info
  }

  minisite(id: number): MinisiteInfo | null {
    this.fresh()
    if (this.sites.has(id)) return this.sites.get(id)!
    const info = minisiteExists(this.db, id) ? { events: new Set(eventIdsOf(this.db, id)), campaigns: new Set(linkedCampaigns(this.db, id)) } : null
    this.sites.set(id, info)
    return info
  }
  /** The whole of what an import checks, as of now (a long import keeps it: spots added meanwhile are not known). */
  snapshot(): LookupSnapshot {
    return allSpotsAndMinisites(this.db)
  }
}
