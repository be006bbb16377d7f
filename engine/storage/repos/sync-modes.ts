/** How each endpoint group is answered (sync_modes) and the remote's answers kept for offline use (sync_answers). */
import type { Db } from '../db'

/** A group's mode row (`T`: the caller's narrower form, with its own types of group and mode). */
export interface StoredMode {
  endpoint_group: string
  mode: string
  profile_id: number
  updated_at: string
}

/** Every group's mode row. */
export const allModes = <T extends StoredMode>(db: Db): T[] => db.query<T>('SELECT * FROM sync_modes')

/** Every group's mode and profile (what routing reads). */
export const modeRoutes = <T extends Omit<StoredMode, 'updated_at'>>(db: Db): T[] => db.query<T>('SELECT endpoint_group, mode, profile_id FROM sync_modes')

export const deleteMode = (db: Db, group: string): void => void db.run('DELETE FROM sync_modes WHERE endpoint_group = ?', [group])

/** Sets a group's mode and profile. */
export function upsertMode(db: Db, group: string, mode: string, profileId: number, now: string): void {
  db.run('INSERT INTO sync_modes (endpoint_group, mode, profile_id, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(endpoint_group) DO UPDATE SET mode = excluded.mode, profile_id = excluded.profile_id, updated_at = excluded.updated_at', [group, mode, profileId, now])
}

/** The groups that forward to a profile, by name. */
export const groupsForwardingTo = (db: Db, profileId: number): string[] =>
  db.query<{ endpoint_group: string }>("SELECT endpoint_group FROM sync_modes WHERE profile_id = ? AND mode = 'forward' ORDER BY endpoint_group", [profileId]).map((r) => r.endpoint_group)

/** How many answers of a group are kept for a profile. */
export const countAnswers = (db: Db, profileId: number, group: string): number =>
  db.scalar<number>('SELECT COUNT(*) FROM sync_answers WHERE profile_id = ? AND endpoint_group = ?', [profileId, group]) ?? 0

/** Keeps (or replaces) the answer of a path and query. */
export function upsertAnswer(db: Db, a: { profile_id: number; endpoint_group: string; path: string; query: string; body: string; fetched_at: string }): void {
  db.run(
    'INSERT INTO sync_answers (profile_id, endpoint_group, path, query, body, fetched_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(profile_id, path, query) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at',
    [a.profile_id, a.endpoint_group, a.path, a.query, a.body, a.fetched_at],
  )
}

/** The kept answer of a path and query. */
export const answerOf = (db: Db, profileId: number, path: string, query: string): { body: string; fetched_at: string } | undefined =>
  db.get<{ body: string; fetched_at: string }>('SELECT body, fetched_at FROM sync_answers WHERE profile_id = ? AND path = ? AND query = ?', [profileId, path, query])
