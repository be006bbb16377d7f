/**
 * Remote profiles (DESIGN §4): where the real service is and who logs in. The row holds no
 * secret; `secret_ref` names the encrypted entry in secrets.json (see secrets.ts).
 */
import { badRequest } from '../contract/errors'
import type { Db } from '../storage/db'
import { allProfiles, deleteProfileRow, insertProfileRow, otherProfileNamed, profileById, updateProfileRow } from '../storage/repos/sync-profiles'
import { deleteUnfinishedPulls, lastPullFinishedAt } from '../storage/repos/sync-runs'
import type { RemoteProfile } from './client'
import type { SecretVault } from './secrets'

export interface ProfileRow extends RemoteProfile {
  profile_id: number
  name: string
  secret_ref: string
  created_at: string
  updated_at: string
}

export interface ProfileFields {
  name?: string | undefined
  base_url?: string | undefined
  auth_url?: string | undefined
  username?: string | undefined
  client_id?: string | undefined
}

/** The wire form: secrets only as "is one stored". */
export function toProfile(db: Db, row: ProfileRow, vault: SecretVault) {
  const has = vault.has(row.secret_ref)
  const last = lastPullFinishedAt(db, row.profile_id)
  return {
    profile_id: String(row.profile_id), name: row.name, base_url: row.base_url, auth_url: row.auth_url, username: row.username, client_id: row.client_id,
    has_password: has.password, has_client_secret: has.client_secret, created_at: row.created_at, updated_at: row.updated_at, last_pull_at: last ?? '',
  }
}

export const listProfiles = (db: Db): ProfileRow[] => allProfiles(db)

export function requireProfile(db: Db, id: string | number): ProfileRow {
  const row = profileById(db, Number(id))
  if (!row) throw badRequest('profile.none', { param: 'profile_id', id: String(id) })
  return row
}

/** base_url without a trailing slash, query or fragment: paths are appended to it. */
export function normalizeBase(url: string, name: string): string {
  const u = new URL(url)
  if (u.username || u.password) throw badRequest('profile.urlCredentials', { param: name })
  // (every call adds its own query; one written here would be dropped, not sent)
  if (u.search !== '' || u.hash !== '') throw badRequest('profile.urlQuery', { param: name, got: url })
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`
}

/** Refuses a name another profile has (checked again inside the write). */
export function checkName(db: Db, name: string, except: number): void {
  const other = otherProfileNamed(db, name, except)
  if (other !== undefined) throw badRequest('profile.nameTaken', { param: 'name', profile: String(other) })
}

/** Inserts a profile (the secrets are stored by the caller first, under `ref`). */
export function insertProfile(db: Db, f: Required<ProfileFields>, ref: string, now: string): ProfileRow {
  return db.tx(() => {
    checkName(db, f.name, 0)
    return requireProfile(db, insertProfileRow(db, { ...f, secret_ref: ref }, now))
  })
}

/** Updates the fields given; `secretRef` names the profile's secrets entry from now on. */
export function updateProfile(db: Db, row: ProfileRow, f: ProfileFields, now: string, secretRef = row.secret_ref): ProfileRow {
  const next = { ...row, ...Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) } as ProfileRow
  return db.tx(() => {
    checkName(db, next.name, row.profile_id)
    updateProfileRow(db, row.profile_id, { name: next.name, base_url: next.base_url, auth_url: next.auth_url, username: next.username, client_id: next.client_id, secret_ref: secretRef }, now)
    // Pointed at another service or account, the profile must not resume a pull begun elsewhere.
    const moved = (['base_url', 'auth_url', 'username', 'client_id'] as const).some((k) => next[k] !== row[k])
    if (moved) deleteUnfinishedPulls(db, row.profile_id)
    return requireProfile(db, row.profile_id)
  })
}

/** Deletes the profile with everything pulled with it (ON DELETE CASCADE). */
export function deleteProfile(db: Db, id: number): void {
  db.tx(() => deleteProfileRow(db, id))
}
