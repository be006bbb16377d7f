/** Pulled records of a remote profile (remote_records, docs/sync.md "Pull"), stored as JSON text with a content hash. */
import type { RemoteKind } from '../../contract/endpoints-sync'
import type { Limit } from '../../contract/params'
import type { Db } from '../db'
import { Where, limitSql } from './query'

/** A pulled record as stored. */
export interface RecordRow {
  kind: RemoteKind
  remote_id: string
  parent_id: string
  name: string
  record: string
  fetched_at: string
}

/** A record to store: its JSON text and the hash of its canonical form. */
export interface StoredRecord {
  parent_id: string
  remote_id: string
  name: string
  text: string
  hash: string
}

/** The stored hashes of a kind (of one parent, or of every parent when `parent` is null). */
export function recordHashes(db: Db, profileId: number, kind: RemoteKind, parent: string | null): { parent_id: string; remote_id: string; hash: string }[] {
  const where = parent === null ? '' : ' AND parent_id = ?'
  const args = parent === null ? [profileId, kind] : [profileId, kind, parent]
  return db.query<{ parent_id: string; remote_id: string; hash: string }>(`SELECT parent_id, remote_id, hash FROM remote_records WHERE profile_id = ? AND kind = ?${where}`, args)
}

export const recordHash = (db: Db, profileId: number, kind: RemoteKind, parentId: string, remoteId: string): string | undefined =>
  db.scalar<string>('SELECT hash FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ? AND remote_id = ?', [profileId, kind, parentId, remoteId])

export function insertRecord(db: Db, profileId: number, kind: RemoteKind, r: StoredRecord, now: string): void {
  db.run('INSERT INTO remote_records (profile_id, kind, parent_id, remote_id, name, record, hash, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [profileId, kind, r.parent_id, r.remote_id, r.name, r.text, r.hash, now])
}

export function updateRecord(db: Db, profileId: number, kind: RemoteKind, r: StoredRecord, now: string): void {
  db.run('UPDATE remote_records SET name = ?, record = ?, hash = ?, fetched_at = ? WHERE profile_id = ? AND kind = ? AND parent_id = ? AND remote_id = ?', [r.name, r.text, r.hash, now, profileId, kind, r.parent_id, r.remote_id])
}

/** Inserts a record or replaces the one of the same (kind, parent, id). */
export function upsertRecordRow(db: Db, profileId: number, kind: RemoteKind, r: StoredRecord, now: string): void {
  db.run(
    `INSERT INTO remote_records (profile_id, kind, parent_id, remote_id, name, record, hash, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(profile_id, kind, parent_id, remote_id) DO UPDATE SET name = excluded.name, record = excluded.record, hash = excluded.hash, fetched_at = excluded.fetched_at`,
    [profileId, kind, r.parent_id, r.remote_id, r.name, r.text, r.hash, now],
  )
}

export const deleteRecord = (db: Db, profileId: number, kind: RemoteKind, parentId: string, remoteId: string): void =>
  void db.run('DELETE FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ? AND remote_id = ?', [profileId, kind, parentId, remoteId])

/** Deletes a pulled campaign; answers how many rows went (0 or 1). */
export const deleteCampaignRecord = (db: Db, profileId: number, campaignId: string): number =>
  db.run("DELETE FROM remote_records WHERE profile_id = ? AND kind = 'campaign' AND remote_id = ?", [profileId, campaignId]).changes

/** Deletes the records of a kind under one parent; answers how many went. */
export const deleteChildRecords = (db: Db, profileId: number, kind: RemoteKind, parentId: string): number =>
  db.run('DELETE FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ?', [profileId, kind, parentId]).changes

/** Remote ids of the campaigns stored for a profile. */
export const storedCampaignIds = (db: Db, profileId: number): string[] =>
  db.query<{ remote_id: string }>("SELECT remote_id FROM remote_records WHERE profile_id = ? AND kind = 'campaign'", [profileId]).map((r) => r.remote_id)

const ORDER = 'ORDER BY length(remote_id), remote_id, parent_id'

/** The records a browse asks for (of a kind, a parent, a name pattern), in remote id order and the page. */
export function recordsOfList(db: Db, profileId: number, q: { kind: RemoteKind; name?: string | undefined; parent_id?: string | undefined; limit: Limit }): RecordRow[] {
  const w = new Where().eq('profile_id', profileId).eq('kind', q.kind).eq('parent_id', q.parent_id).pattern('name', q.name)
  const lim = limitSql(q.limit)
  return db.query<RecordRow>(`SELECT kind, remote_id, parent_id, name, record, fetched_at FROM remote_records${w.sql} ${ORDER}${lim.sql}`, [...w.params, ...lim.params])
}

/** Pulled campaigns matching a name pattern with the counts of their spots, targets and publishers, in remote id order and the page. */
export function campaignRecordsOfList(db: Db, profileId: number, name: string | undefined, limit: Limit): (RecordRow & { spots: number; targets: number; publishers: number })[] {
  const w = new Where().eq('c.profile_id', profileId).add("c.kind = 'campaign'").pattern('c.name', name)
  const lim = limitSql(limit)
  const count = (kind: string) => `(SELECT COUNT(*) FROM remote_records x WHERE x.profile_id = c.profile_id AND x.kind = '${kind}' AND x.parent_id = c.remote_id)`
  return db.query<RecordRow & { spots: number; targets: number; publishers: number }>(
    `SELECT c.remote_id, c.name, c.record, c.fetched_at, ${count('spot')} AS spots, ${count('target')} AS targets, ${count('publisher')} AS publishers
     FROM remote_records c${w.sql} ORDER BY length(c.remote_id), c.remote_id${lim.sql}`,
    [...w.params, ...lim.params],
  )
}

export const campaignRecord = (db: Db, profileId: number, campaignId: string): RecordRow | undefined =>
  db.get<RecordRow>("SELECT * FROM remote_records WHERE profile_id = ? AND kind = 'campaign' AND remote_id = ?", [profileId, campaignId])

/** The record texts of a kind under one parent, in remote id order. */
export const childRecordTexts = (db: Db, profileId: number, kind: RemoteKind, parentId: string): string[] =>
  db.query<{ record: string }>(`SELECT record FROM remote_records WHERE profile_id = ? AND kind = ? AND parent_id = ? ${ORDER}`, [profileId, kind, parentId]).map((r) => r.record)

/** The pulled records of a kind (of one parent when `parent` is not null) as (remote_id, name), by name. */
export function recordNames(db: Db, profileId: number, kind: RemoteKind, parent: string | null): { remote_id: string; name: string }[] {
  const sql = `SELECT remote_id, name FROM remote_records WHERE profile_id = ? AND kind = ?${parent === null ? '' : ' AND parent_id = ?'} ORDER BY name, remote_id`
  return db.query<{ remote_id: string; name: string }>(sql, parent === null ? [profileId, kind] : [profileId, kind, parent])
}

/** A pulled record of a kind by its remote id (whatever its parent). */
export const recordByRemoteId = (db: Db, profileId: number, kind: RemoteKind, remoteId: string): { parent_id: string; record: string; hash: string } | undefined =>
  db.get('SELECT parent_id, record, hash FROM remote_records WHERE profile_id = ? AND kind = ? AND remote_id = ?', [profileId, kind, remoteId])
