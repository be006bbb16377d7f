/** The local account, its API client and their tokens (spec §4.1): stored hashes, never secrets. */
import type { Db } from '../db'

/** A stored access token with its user's name (what authentication reads). */
export interface TokenRow {
  user_id: number
  username: string
  scope: string
  expires_at: number
}

export const hasUser = (db: Db): boolean => Boolean(db.scalar<number>('SELECT COUNT(*) FROM users'))

/** Inserts the first user and API client together (the caller holds the transaction). */
export function insertAccount(db: Db, user: { username: string; password_hash: string; user_number: string }, client: { client_id: string; secret_hash: string }, createdAt: string): void {
  db.run('INSERT INTO users(username, password_hash, user_number, created_at) VALUES (?,?,?,?)', [user.username, user.password_hash, user.user_number, createdAt])
  db.run('INSERT INTO clients(client_id, secret_hash, created_at) VALUES (?,?,?)', [client.client_id, client.secret_hash, createdAt])
}

/** The first user (the local account), with the columns asked for. */
export function firstUser(db: Db): { id: number; username: string; password_hash: string; user_number: string; created_at: string } | undefined {
  return db.get('SELECT id, username, password_hash, user_number, created_at FROM users ORDER BY id LIMIT 1')
}

/** The first API client (the local one). */
export function firstClient(db: Db): { id: number; client_id: string; created_at: string } | undefined {
  return db.get('SELECT id, client_id, created_at FROM clients ORDER BY id LIMIT 1')
}

export function userByName(db: Db, username: string): { id: number; username: string; password_hash: string; user_number: string } | undefined {
  return db.get('SELECT id, username, password_hash, user_number FROM users WHERE username = ?', [username])
}

export function clientById(db: Db, clientId: string): { id: number; secret_hash: string } | undefined {
  return db.get('SELECT id, secret_hash FROM clients WHERE client_id = ?', [clientId])
}

export const setFirstUserPassword = (db: Db, hash: string): void => void db.run('UPDATE users SET password_hash = ? WHERE id = (SELECT MIN(id) FROM users)', [hash])
export const setFirstClientSecret = (db: Db, hash: string): void => void db.run('UPDATE clients SET secret_hash = ? WHERE id = (SELECT MIN(id) FROM clients)', [hash])

/** Deletes every token but the one of this hash; answers how many went. */
export const deleteTokensExcept = (db: Db, tokenHash: string): number => db.run('DELETE FROM tokens WHERE token_hash <> ?', [tokenHash]).changes
export const deleteToken = (db: Db, tokenHash: string): number => db.run('DELETE FROM tokens WHERE token_hash = ?', [tokenHash]).changes
export const deleteTokensExpiredBefore = (db: Db, at: number): void => void db.run('DELETE FROM tokens WHERE expires_at < ?', [at])
export const deleteTokensRefreshExpiredBefore = (db: Db, at: number): void => void db.run('DELETE FROM tokens WHERE refresh_expires_at < ?', [at])

export function insertToken(db: Db, row: { token_hash: string; user_id: number; client_id: number; scope: string; expires_at: number; refresh_hash: string; refresh_expires_at: number }): void {
  db.run('INSERT INTO tokens(token_hash, user_id, client_id, scope, expires_at, refresh_hash, refresh_expires_at) VALUES (?,?,?,?,?,?,?)', [
    row.token_hash, row.user_id, row.client_id, row.scope, row.expires_at, row.refresh_hash, row.refresh_expires_at,
  ])
}

export function tokenByHash(db: Db, tokenHash: string): TokenRow | undefined {
  return db.get<TokenRow>('SELECT t.user_id, u.username, t.scope, t.expires_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?', [tokenHash])
}
