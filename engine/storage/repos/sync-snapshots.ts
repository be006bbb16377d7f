/** Report snapshots as stored (remote_snapshots, docs/sync.md): one row per fetch, in series. */
import type { SnapshotReport } from '../../contract/endpoints-sync'
import type { Limit } from '../../contract/params'
import type { Db } from '../db'
import { Where, limitSql } from './query'

export interface SnapshotRow {
  snapshot_id: number
  profile_id: number
  report: SnapshotReport
  campaign_id: string
  date: string
  params: string
  fetched_at: string
  version: string
  progress_date: string
  items: number
  body: string
  hash: string
}

/** Every column of a snapshot but its body: lists and comparisons of snapshots never read it. */
export type SnapshotHead = Omit<SnapshotRow, 'body'>
const HEAD_COLUMNS = 'snapshot_id, profile_id, report, campaign_id, date, params, fetched_at, version, progress_date, items, hash'

/** A snapshot with the id and hash of the one before it in its series. */
export type WithPrev = SnapshotHead & { prev_id: number | null; prev_hash: string | null }

/** A series: one report of one campaign, date and parameters (`key`, a sorted query string), in one profile. */
export interface SnapshotSeries {
  profileId: number
  report: SnapshotReport
  campaign_id: string
  date: string
  key: string
}

/** The newest snapshot of a series older than `before` (any, by default): the columns asked for, through the series index. */
function newest<T extends object>(db: Db, columns: string, k: SnapshotSeries, before = Number.MAX_SAFE_INTEGER): T | undefined {
  return db.get<T>(
    `SELECT ${columns} FROM remote_snapshots WHERE profile_id = ? AND report = ? AND campaign_id = ? AND date = ? AND params = ? AND snapshot_id < ? ORDER BY snapshot_id DESC LIMIT 1`,
    [k.profileId, k.report, k.campaign_id, k.date, k.key, before],
  )
}

/** The id and hash of the newest snapshot of a series older than `before` (any, by default). */
export const newestIdAndHash = (db: Db, k: SnapshotSeries, before?: number): { snapshot_id: number; hash: string } | undefined =>
  newest<{ snapshot_id: number; hash: string }>(db, 'snapshot_id, hash', k, before)

/** The hash of the newest snapshot of a series. */
export const newestHash = (db: Db, k: SnapshotSeries): string | undefined => newest<{ hash: string }>(db, 'hash', k)?.hash

/** The newest snapshot of a series, body included. */
export const newestSnapshot = (db: Db, k: SnapshotSeries): SnapshotRow | undefined => newest<SnapshotRow>(db, '*', k)

export const snapshotHead = (db: Db, id: number): SnapshotHead | undefined => db.get<SnapshotHead>(`SELECT ${HEAD_COLUMNS} FROM remote_snapshots WHERE snapshot_id = ?`, [id])

/** The body of a snapshot that exists. */
export const snapshotBody = (db: Db, id: number): string => db.get<{ body: string }>('SELECT body FROM remote_snapshots WHERE snapshot_id = ?', [id])!.body

/** Inserts a snapshot; answers its id. */
export function insertSnapshot(db: Db, s: Omit<SnapshotRow, 'snapshot_id'>): number {
  return db.run(
    'INSERT INTO remote_snapshots (profile_id, report, campaign_id, date, params, fetched_at, version, progress_date, items, body, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [s.profile_id, s.report, s.campaign_id, s.date, s.params, s.fetched_at, s.version, s.progress_date, s.items, s.body, s.hash],
  ).lastId
}

/** Snapshots with their previous one, by LAG over each series (for lists of many). */
const WITH_PREV = `SELECT ${HEAD_COLUMNS},
  LAG(snapshot_id) OVER series AS prev_id, LAG(hash) OVER series AS prev_hash
  FROM remote_snapshots`
const SERIES_WINDOW = 'WINDOW series AS (PARTITION BY profile_id, report, campaign_id, params, date ORDER BY snapshot_id)'

/** A profile's snapshots (of a report, of a campaign), newest first, each with its previous one. */
export function snapshotsOfList(db: Db, profileId: number, q: { report?: SnapshotReport | undefined; campaign_id?: string | undefined; limit: Limit }): WithPrev[] {
  const w = new Where().eq('profile_id', profileId).eq('report', q.report).eq('campaign_id', q.campaign_id?.trim())
  const lim = limitSql(q.limit)
  // the filters keep whole series (profile, report, campaign), so LAG sees every earlier snapshot
  return db.query<WithPrev>(`${WITH_PREV}${w.sql} ${SERIES_WINDOW} ORDER BY snapshot_id DESC${lim.sql}`, [...w.params, ...lim.params])
}

/** How many snapshots a profile has. */
export const countSnapshots = (db: Db, profileId: number): number => db.scalar<number>('SELECT COUNT(*) FROM remote_snapshots WHERE profile_id = ?', [profileId]) ?? 0
