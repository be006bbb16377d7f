/** What a tracking hit is checked against: a spot with its campaign and keywords, all spots and minisites at once. */
import type { Db } from '../db'
import { allMinisiteIds, listsOf, minisiteCampaignLists, minisiteEventLists } from './minisites'

/** A spot with what its hits need of its campaign and publisher. */
export interface SpotForHits {
  campaign_id: number
  campaign_name: string
  start_date: string
  end_date: string
  publisher_name: string
  placement_type: string
  landing_page: string
  /** dangerous_source_filtration */
  dsf: number
}

export function spotForHits(db: Db, spotId: number): SpotForHits | undefined {
  return db.get<SpotForHits>(
    `SELECT s.campaign_id, c.campaign_name, c.start_date, c.end_date, p.publisher_name, s.placement_type, s.landing_page, s.dangerous_source_filtration AS dsf
       FROM spots s JOIN campaigns c ON c.campaign_id = s.campaign_id JOIN publishers p ON p.publisher_id = s.publisher_id WHERE s.spot_id = ?`, [spotId])
}

export const keywordsOfSpot = (db: Db, spotId: number): { keyword_id: number; keyword_name: string; landing_page: string }[] =>
  db.query('SELECT keyword_id, keyword_name, landing_page FROM keywords WHERE spot_id = ?', [spotId])

/**
 * Every spot as [spot, campaign, keyword ids] and every minisite as [minisite, event ids,
 * campaign ids]: what a long import checks its hits against.
 */
export function allSpotsAndMinisites(db: Db): { spots: [number, number, number[]][]; minisites: [number, number[], number[]][] } {
  const keywords = listsOf(db, 'SELECT spot_id AS id, keyword_id AS v FROM keywords')
  const events = minisiteEventLists(db)
  const campaigns = minisiteCampaignLists(db)
  return {
    spots: db.query<{ spot_id: number; campaign_id: number }>('SELECT spot_id, campaign_id FROM spots').map((r) => [r.spot_id, r.campaign_id, keywords.get(r.spot_id) ?? []]),
    minisites: allMinisiteIds(db).map((id) => [id, events.get(id) ?? [], campaigns.get(id) ?? []]),
  }
}
