/** Minisites, their events and the campaigns linked to them (vendor-notes §1.8). */
import type { Db } from '../db'

export interface MinisiteRow {
  minisite_id: number
  minisite_name: string
}

export interface MinisiteEventRow {
  minisite_id: number
  event_id: number
  event_name: string
}

export const minisiteById = (db: Db, id: number): MinisiteRow | undefined => db.get<MinisiteRow>('SELECT minisite_id, minisite_name FROM minisites WHERE minisite_id = ?', [id])
export const minisiteExists = (db: Db, id: number): boolean => Boolean(db.scalar('SELECT 1 FROM minisites WHERE minisite_id = ?', [id]))
/** The id of the minisite of this name, if any. */
export const minisiteIdByName = (db: Db, name: string): number | undefined => db.scalar<number>('SELECT minisite_id FROM minisites WHERE minisite_name = ?', [name])
export const allMinisites = (db: Db): MinisiteRow[] => db.query<MinisiteRow>('SELECT minisite_id, minisite_name FROM minisites ORDER BY minisite_id')
export const allMinisiteIds = (db: Db): number[] => db.query<{ minisite_id: number }>('SELECT minisite_id FROM minisites').map((r) => r.minisite_id)

/** Inserts a minisite; answers its id. */
export const insertMinisite = (db: Db, name: string, createdAt: string): number => db.run('INSERT INTO minisites(minisite_name, created_at) VALUES (?,?)', [name, createdAt]).lastId
export const renameMinisite = (db: Db, id: number, name: string): void => void db.run('UPDATE minisites SET minisite_name = ? WHERE minisite_id = ?', [name, id])
export const deleteMinisite = (db: Db, id: number): void => void db.run('DELETE FROM minisites WHERE minisite_id = ?', [id])

export const eventNamesOf = (db: Db, minisite: number): string[] => db.query<{ event_name: string }>('SELECT event_name FROM minisite_events WHERE minisite_id = ?', [minisite]).map((r) => r.event_name)
export const eventIdsOf = (db: Db, minisite: number): number[] => db.query<{ event_id: number }>('SELECT event_id FROM minisite_events WHERE minisite_id = ?', [minisite]).map((r) => r.event_id)
/** The events of a minisite in id order. */
export const eventsOf = (db: Db, minisite: number): { event_id: number; event_name: string }[] =>
  db.query<{ event_id: number; event_name: string }>('SELECT event_id, event_name FROM minisite_events WHERE minisite_id = ? ORDER BY event_id', [minisite])
/** Every minisite's events in event id order. */
export const allMinisiteEvents = (db: Db): MinisiteEventRow[] => db.query<MinisiteEventRow>('SELECT minisite_id, event_id, event_name FROM minisite_events ORDER BY event_id')
/** The highest event id of a minisite, 0 when it has none. */
export const lastEventId = (db: Db, minisite: number): number => Number(db.scalar<number>('SELECT COALESCE(MAX(event_id), 0) FROM minisite_events WHERE minisite_id = ?', [minisite]) ?? 0)
export const insertEvent = (db: Db, minisite: number, eventId: number, name: string): void => void db.run('INSERT INTO minisite_events(minisite_id, event_id, event_name) VALUES (?,?,?)', [minisite, eventId, name])
export const countEvents = (db: Db, minisite: number): number => Number(db.scalar<number>('SELECT COUNT(*) FROM minisite_events WHERE minisite_id = ?', [minisite]))

/** The campaigns linked to a minisite, in id order when `ordered`. */
export const linkedCampaigns = (db: Db, minisite: number, ordered = false): number[] =>
  db.query<{ campaign_id: number }>(`SELECT campaign_id FROM minisite_campaigns WHERE minisite_id = ?${ordered ? ' ORDER BY campaign_id' : ''}`, [minisite]).map((r) => r.campaign_id)
/** Every link of a minisite to a campaign, in campaign id order. */
export const allMinisiteLinks = (db: Db): { minisite_id: number; campaign_id: number }[] =>
  db.query<{ minisite_id: number; campaign_id: number }>('SELECT minisite_id, campaign_id FROM minisite_campaigns ORDER BY campaign_id')
/** Replaces the campaigns linked to a minisite. */
export function setLinkedCampaigns(db: Db, minisite: number, campaignIds: readonly number[]): void {
  db.run('DELETE FROM minisite_campaigns WHERE minisite_id = ?', [minisite])
  for (const id of campaignIds) db.run('INSERT INTO minisite_campaigns(minisite_id, campaign_id) VALUES (?,?)', [minisite, id])
}

/** The spots of the campaigns linked to a minisite (the spots its events can be credited to). */
export const spotsOfLinkedCampaigns = (db: Db, minisite: number): { spot_id: number; publisher_id: number; campaign_id: number }[] =>
  db.query('SELECT s.spot_id, s.publisher_id, s.campaign_id FROM spots s JOIN minisite_campaigns m ON m.campaign_id = s.campaign_id WHERE m.minisite_id = ?', [minisite])
/** The targets of the campaigns linked to a minisite, in target id order. */
export const targetsOfLinkedCampaigns = (db: Db, minisite: number): { target_id: number; tag_id: string; panel_id: string }[] =>
  db.query('SELECT t.target_id, t.tag_id, t.panel_id FROM targets t JOIN minisite_campaigns m ON m.campaign_id = t.campaign_id WHERE m.minisite_id = ? ORDER BY t.target_id', [minisite])

/** (minisite, event id) and (minisite, campaign id) pairs, each as a list per minisite. */
export function minisiteEventLists(db: Db): Map<number, number[]> {
  return listsOf(db, 'SELECT minisite_id AS id, event_id AS v FROM minisite_events')
}
export function minisiteCampaignLists(db: Db): Map<number, number[]> {
  return listsOf(db, 'SELECT minisite_id AS id, campaign_id AS v FROM minisite_campaigns')
}

/** id -> values of a query of (id, v) rows, in the order the rows come. */
export function listsOf(db: Db, sql: string): Map<number, number[]> {
  const m = new Map<number, number[]>()
  for (const r of db.query<{ id: number; v: number }>(sql)) {
    const list = m.get(r.id)
    if (list) list.push(r.v)
    else m.set(r.id, [r.v])
  }
  return m
}
