/** Remote profiles as stored (sync_profiles): where the real service is and who logs in; no secret, only `secret_ref`. */
import type { Db } from '../db'

/** A profile's row. */
export interface StoredProfile {
  profile_id: number
  name: string
  base_url: string
  auth_url: string
  username: string
  client_id: string
  secret_ref: string
  created_at: string
  updated_at: string
}

/** The fields a profile is written with. */
export type ProfileColumns = Pick<StoredProfile, 'name' | 'base_url' | 'auth_url' | 'username' | 'client_id' | 'secret_ref'>

/** Every profile by name. */
export const allProfiles = (db: Db): StoredProfile[] => db.query<StoredProfile>('SELECT * FROM sync_profiles ORDER BY name, profile_id')

export const profileById = (db: Db, id: number): StoredProfile | undefined => db.get<StoredProfile>('SELECT * FROM sync_profiles WHERE profile_id = ?', [id])

/** The id of another profile (not `except`) of this name, if any. */
export const otherProfileNamed = (db: Db, name: string, except: number): number | undefined =>
  db.scalar<number>('SELECT profile_id FROM sync_profiles WHERE name = ? AND profile_id <> ?', [name, except])

/** Inserts a profile; answers its id. */
export const insertProfileRow = (db: Db, f: ProfileColumns, now: string): number =>
  db.run(
    'INSERT INTO sync_profiles (name, base_url, auth_url, username, client_id, secret_ref, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [f.name, f.base_url, f.auth_url, f.username, f.client_id, f.secret_ref, now, now],
  ).lastId

export function updateProfileRow(db: Db, id: number, f: ProfileColumns, now: string): void {
  db.run('UPDATE sync_profiles SET name = ?, base_url = ?, auth_url = ?, username = ?, client_id = ?, secret_ref = ?, updated_at = ? WHERE profile_id = ?', [
    f.name, f.base_url, f.auth_url, f.username, f.client_id, f.secret_ref, now, id,
  ])
}

/** Deletes a profile with everything pulled with it (ON DELETE CASCADE). */
export const deleteProfileRow = (db: Db, id: number): void => void db.run('DELETE FROM sync_profiles WHERE profile_id = ?', [id])

/** The secret_ref of every profile. */
export const allSecretRefs = (db: Db): string[] => db.query<{ secret_ref: string }>('SELECT secret_ref FROM sync_profiles').map((r) => r.secret_ref)
