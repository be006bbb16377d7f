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
    const row = this.db.get<{ campaign_id: number; campaign_name: string; publisher_name: string; placement_type: string; landing_page: string; dsf: number; start_date: string; end_date: string }>(
      `SELECT s.campaign_id, c.campaign_name, c.start_date, c.end_date, p.publisher_name, s.placement_type, s.landing_page, s.dangerous_source_filtration AS dsf
       FROM spots s JOIN campaigns c ON c.campaign_id = s.campaign_id JOIN publishers p ON p.publisher_id = s.publisher_id WHERE s.spot_id = ?`, [spotId])
    const info = row ? {
      campaign_id: row.campaign_id,
      campaign: { campaign_id: row.campaign_id, campaign_name: row.campaign_name },
      spot: { spot_id_str: toBase62(spotId), publisher_name: row.publisher_name, placement_type: row.placement_type, landing_page: row.landing_page },
      keywords: new Map(this.db.query<{ keyword_id: number; keyword_name: string; landing_page: string }>(
        'SELECT keyword_id, keyword_name, landing_page FROM keywords WHERE spot_id = ?', [spotId]).map((k) => [k.keyword_id, k])),
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
    const exists = this.db.scalar('SELECT 1 FROM minisites WHERE minisite_id = ?', [id])
    const info = exists ? {
      events: new Set(this.db.query<{ event_id: number }>('SELECT event_id FROM minisite_events WHERE minisite_id = ?', [id]).map((r) => r.event_id)),
      campaigns: new Set(this.db.query<{ campaign_id: number }>('SELECT campaign_id FROM minisite_campaigns WHERE minisite_id = ?', [id]).map((r) => r.campaign_id)),
    } : null
    this.sites.set(id, info)
    return info
  }
  /** The whole of what an import checks, as of now (a long import keeps it: spots added meanwhile are not known). */
  snapshot(): LookupSnapshot {
    const keywords = this.lists('SELECT spot_id AS id, keyword_id AS v FROM keywords')
    const events = this.lists('SELECT minisite_id AS id, event_id AS v FROM minisite_events')
    const campaigns = this.lists('SELECT minisite_id AS id, campaign_id AS v FROM minisite_campaigns')
    return {
      spots: this.db.query<{ spot_id: number; campaign_id: number }>('SELECT spot_id, campaign_id FROM spots').map((r) => [r.spot_id, r.campaign_id, keywords.get(r.spot_id) ?? []]),
      minisites: this.db.query<{ minisite_id: number }>('SELECT minisite_id FROM minisites').map((r) => [r.minisite_id, events.get(r.minisite_id) ?? [], campaigns.get(r.minisite_id) ?? []]),
    }
  }

  /** id -> values of a query of (id, v) rows. */
  private lists(sql: string): Map<number, number[]> {
    const m = new Map<number, number[]>()
    for (const r of this.db.query<{ id: number; v: number }>(sql)) {
      const list = m.get(r.id)
      if (list) list.push(r.v)
      else m.set(r.id, [r.v])
    }
    return m
  }
}
