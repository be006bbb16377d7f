/** The outbox of a profile (sync_outbox) and the map of local ids to the remote ids pushes created (sync_id_map). */
import type { OutboxKind, OutboxOpName, OutboxState } from '../../contract/endpoints-sync-push'
import type { Db } from '../db'

export interface OpRow {
  op_id: number
  profile_id: number
  kind: OutboxKind
  op: OutboxOpName
  local_id: string
  parent_local_id: string
  parent_remote_id: string
  remote_id: string
  name: string
  params: string
  base: string
  base_hash: string
  state: OutboxState
  step: string
  attempts: number
  problem: string
  message: string
  /** The message's problem as JSON text ('' when it has none). */
  message_problem: string
  conflict: string
  created_at: string
  updated_at: string
}

const ORDER = "ORDER BY CASE kind WHEN 'campaign' THEN 0 WHEN 'spot' THEN 1 ELSE 2 END, op_id"

/** Operations of a profile (in a state) in the order a push sends them: campaigns, then spots, then targets. */
export const opsOf = (db: Db, profileId: number, state?: OutboxState): OpRow[] =>
  state === undefined
    ? db.query<OpRow>(`SELECT * FROM sync_outbox WHERE profile_id = ? ${ORDER}`, [profileId])
    : db.query<OpRow>(`SELECT * FROM sync_outbox WHERE profile_id = ? AND state = ? ${ORDER}`, [profileId, state])

export const opById = (db: Db, opId: number): OpRow | undefined => db.get<OpRow>('SELECT * FROM sync_outbox WHERE op_id = ?', [opId])

/** The operation of a profile for this local record, kind and operation, if one is queued. */
export const opOfLocal = (db: Db, profileId: number, kind: OutboxKind, op: OutboxOpName, localId: string): OpRow | undefined =>
  db.get<OpRow>('SELECT * FROM sync_outbox WHERE profile_id = ? AND kind = ? AND op = ? AND local_id = ?', [profileId, kind, op, localId])

/** Sets columns of an operation (names from OpRow, never from a request). */
export function updateOpColumns(db: Db, opId: number, cols: Partial<Omit<OpRow, 'op_id' | 'profile_id'>>): void {
  const entries = Object.entries(cols)
  db.run(`UPDATE sync_outbox SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE op_id = ?`, [...entries.map(([, v]) => v as string | number), opId])
}

/** Queues a pending operation; answers its id. */
export function insertPendingOp(
  db: Db,
  o: Pick<OpRow, 'profile_id' | 'kind' | 'op' | 'local_id' | 'parent_local_id' | 'parent_remote_id' | 'remote_id' | 'name' | 'params' | 'base' | 'base_hash'>,
  now: string,
): number {
  return db.run(
    `INSERT INTO sync_outbox (profile_id, kind, op, local_id, parent_local_id, parent_remote_id, remote_id, name, params, base, base_hash, state, step, attempts, problem, message, conflict, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', '', 0, '', '', '', ?, ?)`,
    [o.profile_id, o.kind, o.op, o.local_id, o.parent_local_id, o.parent_remote_id, o.remote_id, o.name, o.params, o.base, o.base_hash, now, now],
  ).lastId
}

export const deleteOpRow = (db: Db, opId: number): void => void db.run('DELETE FROM sync_outbox WHERE op_id = ?', [opId])

/** The remote id a push created for a local record (or `op:N`). */
export const remoteIdOf = (db: Db, profileId: number, kind: OutboxKind, localId: string): string | undefined =>
  db.scalar<string>('SELECT remote_id FROM sync_id_map WHERE profile_id = ? AND kind = ? AND local_id = ?', [profileId, kind, localId])

/** Records (or replaces) the remote id of a local record. */
export function upsertIdMap(db: Db, profileId: number, kind: OutboxKind, localId: string, remoteId: string, now: string): void {
  db.run('INSERT INTO sync_id_map (profile_id, kind, local_id, remote_id, mapped_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(profile_id, kind, local_id) DO UPDATE SET remote_id = excluded.remote_id, mapped_at = excluded.mapped_at', [profileId, kind, localId, remoteId, now])
}

/** Every remote id pushes of a profile created of a kind. */
export const mappedRemoteIds = (db: Db, profileId: number, kind: OutboxKind): string[] =>
  db.query<{ remote_id: string }>('SELECT remote_id FROM sync_id_map WHERE profile_id = ? AND kind = ?', [profileId, kind]).map((r) => r.remote_id)
