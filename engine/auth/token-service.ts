// spec §4.1, §5; RFC 6749 §4.3 (password grant), §5.1 (response), §5.2 (errors)
import { createHash } from 'node:crypto'
import { ApiError, E, badRequest, refuse } from '../contract/errors'
import type { TokenResponse } from '../contract/models'
import type { Clock } from '../clock'
import type { Random } from '../random'
import type { Db } from '../storage/db'
import { clientById, deleteToken, deleteTokensExcept, deleteTokensExpiredBefore, deleteTokensRefreshExpiredBefore, firstClient, firstUser, hasUser, insertAccount, insertToken, setFirstClientSecret, setFirstUserPassword, tokenByHash, userByName, type TokenRow } from '../storage/repos/accounts'
import { DUMMY_HASH, hashSecret, verifySecret } from './passwords'
import { ALL_SCOPES, parseScope, type Scope } from './scopes'
import { LoginThrottle } from './throttle'

export const TOKEN_LIFETIME_S = 3600
/** How long an expired token's row is kept, so that it is refused as expired rather than unknown. */
export const EXPIRED_KEPT_MS = 3_600_000

export interface AuthUser {
  id: number
  username: string
  scopes: readonly Scope[]
  /** The access token the caller sent. */
  token: string
}

export interface Credentials {
  username: string
  password: string
  client_id: string
  client_secret: string
}

export interface TokenRequest {
  grant_type?: string | undefined
  username?: string | undefined
  password?: string | undefined
  client_id?: string | undefined
  client_secret?: string | undefined
  scope?: string | undefined
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

const CACHE_MAX = 10_000

export class TokenService {
  private throttle = new LoginThrottle()
  /**
   * Tokens already looked up, by their text: the lookup (a hash and a query) was a quarter of the
   * cost of a cached answer. Only this service writes tokens, and it clears the map when it does;
   * expiry is checked on every use.
   */
  private known = new Map<string, TokenRow>()

  /**
   * Every token this process issued, by its text, until it expires (and EXPIRED_KEPT_MS more): a
   * token is valid once answered, also when the disk could not take its record (docs/storage.md,
   * "A full disk"); only such a token is gone after a restart. Kept in issue order.
   */
  private issued = new Map<string, TokenRow>()

  /** The secrets created by this start (first run), until account() has handed them out once. */
  private fresh: Credentials | null = null

  /** Whether the tokens of earlier runs were swept (once, at the first token issued). */
  private swept = false

  constructor(private readonly s: { db: Db; clock: Clock; random: Random }) {}

  private randomText(bytes: number): string {
    return Buffer.from(this.s.random.bytes(bytes)).toString('base64url')
  }

  private uuid(): string {
    const b = Buffer.from(this.s.random.bytes(16))
    b[6] = (b[6]! & 0x0f) | 0x40
    b[8] = (b[8]! & 0x3f) | 0x80
    const h = b.toString('hex')
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
  }

  /** Creates the local account and API client on first run; returns their secrets, shown once. */
  async ensureAccount(preset: Partial<Credentials> = {}): Promise<Credentials | null> {
    if (hasUser(this.s.db)) return null
    const creds: Credentials = {
      username: preset.username || 'admin',
      password: preset.password || this.randomText(18),
      client_id: preset.client_id || `admonitor-desk-${this.randomText(6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`,
      client_secret: preset.client_secret || this.randomText(32),
    }
    const pw = await hashSecret(creds.password, this.s.random.bytes(16))
    const cs = await hashSecret(creds.client_secret, this.s.random.bytes(16))
    const now = new Date(this.s.clock.now()).toISOString()
    const userNumber = String(1_000_000_000 + (Buffer.from(this.s.random.bytes(4)).readUInt32BE(0) % 9_000_000_000))
    this.s.db.tx(() => insertAccount(this.s.db, { username: creds.username, password_hash: pw, user_number: userNumber }, { client_id: creds.client_id, secret_hash: cs }, now))
    // Secrets the caller chose (preset) are not handed out again; generated ones are, once.
    this.fresh = { ...creds, password: preset.password ? '' : creds.password, client_secret: preset.client_secret ? '' : creds.client_secret }
    return creds
  }

  /** The local account and API client, without their secrets (stored only as hashes). */
  account(): { username: string; client_id: string; created_at: string; password_rotated_at: string; client_secret_rotated_at: string; first_run_password: string; first_run_client_secret: string } {
    const user = firstUser(this.s.db)
    const client = firstClient(this.s.db)
    if (!user || !client) throw new Error('no local account yet')
    const meta = (key: string, fallback: string) => this.s.db.meta(key) ?? fallback
    const fresh = this.fresh
    this.fresh = null
    return {
      username: user.username, client_id: client.client_id, created_at: user.created_at,
      password_rotated_at: meta('password_rotated_at', user.created_at), client_secret_rotated_at: meta('client_secret_rotated_at', client.created_at),
      first_run_password: fresh?.password ?? '', first_run_client_secret: fresh?.client_secret ?? '',
    }
  }

  /**
   * Replaces the password and/or the client secret by new random ones and returns them (shown
   * once), and revokes every token but the caller's (`keep`): a token taken with the old secrets
   * stops working at once, while the screen that rotated stays signed in.
   */
  async rotate(what: 'password' | 'client_secret' | 'both', keep = ''): Promise<{ username: string; client_id: string; password: string; client_secret: string }> {
    const password = what === 'client_secret' ? '' : this.randomText(18)
    const secret = what === 'password' ? '' : this.randomText(32)
    const pw = password ? await hashSecret(password, this.s.random.bytes(16)) : ''
    const cs = secret ? await hashSecret(secret, this.s.random.bytes(16)) : ''
    const now = new Date(this.s.clock.now()).toISOString()
    const setMeta = (key: string) => this.s.db.setMeta(key, now)
    this.s.db.tx(() => {
      if (pw) setFirstUserPassword(this.s.db, pw), setMeta('password_rotated_at')
      if (cs) setFirstClientSecret(this.s.db, cs), setMeta('client_secret_rotated_at')
      deleteTokensExcept(this.s.db, keep ? sha256(keep) : '')
    })
    this.known.clear()
    for (const t of this.issued.keys()) if (t !== keep) this.issued.delete(t)
    this.fresh = null
    const { username, client_id } = this.account()
    return { username, client_id, password, client_secret: secret }
  }

  /**
   * Checks the account's current password (asked again before its secrets are replaced through
   * the HTTP door). Wrong ones are slowed as failed logins are, on a count of their own: a token's
   * holder guessing here does not slow the owner's sign-ins.
   */
  async confirmPassword(password: string | undefined): Promise<void> {
    if (!password) throw badRequest('auth.passwordRequired', { param: 'password' })
    const user = firstUser(this.s.db)
    const keys = [`r:${user?.username ?? ''}`]
    const now = this.s.clock.now()
    const wait = this.throttle.begin(keys, now)
    try {
      if (wait > 0) await this.s.clock.sleep(wait)
      if (!(await verifySecret(password, user?.password_hash ?? DUMMY_HASH)) || !user) {
        this.throttle.fail(keys, now)
        throw badRequest('auth.passwordWrong', { param: 'password' })
      }
      this.throttle.succeed(keys)
    } finally {
      this.throttle.end(keys)
    }
  }

  /** Revokes one access token (signing out); answers how many were revoked (0 or 1). */
  revoke(token: string): number {
    const changes = this.s.db.tx(() => deleteToken(this.s.db, sha256(token)))
    this.known.clear()
    // (a token whose record never reached the disk is in memory only)
    return this.issued.delete(token) ? Math.max(changes, 1) : changes
  }

  /** The password grant, checked in RFC 6749 order: grant, client, grant support, user, scope. */
  async token(req: TokenRequest, remoteAddress = ''): Promise<TokenResponse> {
    const grant = req.grant_type?.trim()
    if (!grant) throw badRequest('param.required', { param: 'grant_type' })
    if (!req.client_id || !req.client_secret) throw refuse(E.invalidClient, 'auth.clientMissing', {})
    const now = this.s.clock.now()
    const clientKeys = [`c:${req.client_id}`, `a:${remoteAddress}`]
    const userKeys = [`u:${req.username ?? ''}`, `a:${remoteAddress}`]
    // One wait per attempt, as long as the worst count among its client, user and address.
    const keys = [...clientKeys, ...userKeys]
    const wait = this.throttle.begin(keys, now)
    try {
      if (wait > 0) await this.s.clock.sleep(wait)
      return await this.checked({ ...req, client_id: req.client_id, client_secret: req.client_secret }, grant, clientKeys, userKeys, now)
    } finally {
      this.throttle.end(keys)
    }
  }

  /** The client, grant, user and scope checks of a token request whose client credentials are given. */
  private async checked(req: TokenRequest & { client_id: string; client_secret: string }, grant: string, clientKeys: string[], userKeys: string[], now: number): Promise<TokenResponse> {
    const client = clientById(this.s.db, req.client_id)
    if (!(await verifySecret(req.client_secret, client?.secret_hash ?? DUMMY_HASH)) || !client) {
      this.throttle.fail(clientKeys, now)
      throw refuse(E.invalidClient, 'auth.clientWrong', {})
    }
    if (grant === 'client_credentials' || grant === 'refresh_token')
      throw refuse(E.unsupportedGrantType, 'auth.grantUnavailable', { grant })
    if (grant !== 'password') throw refuse(E.unsupportedGrantType, 'auth.grantUnknown', { grant })
    if (!req.username) throw badRequest('param.required', { param: 'username' })
    if (!req.password) throw badRequest('param.required', { param: 'password' })
    const scopes = parseScope(req.scope)
    const user = userByName(this.s.db, req.username)
    if (!(await verifySecret(req.password, user?.password_hash ?? DUMMY_HASH)) || !user) {
      this.throttle.fail(userKeys, now)
      throw refuse(E.invalidGrant, 'auth.passwordGrant', {})
    }
    this.throttle.succeed([...userKeys, ...clientKeys])
    return this.issue(user, client.id, scopes)
  }

  /**
   * A token for the local account without its password, for callers inside this process only
   * (the command line, the desktop shell); never reachable through a door.
   */
  issueLocal(): TokenResponse {
    const user = firstUser(this.s.db)
    const client = firstClient(this.s.db)
    if (!user || client === undefined) throw new Error('no local account yet')
    return this.issue(user, client.id, ALL_SCOPES)
  }

  private issue(user: { id: number; username: string; user_number: string }, clientId: number, scopes: readonly Scope[]): TokenResponse {
    const access = `2.${this.randomText(32)}`
    const refresh = this.uuid()
    const now = this.s.clock.now()
    this.known.clear()
    // A token is kept as long as its access token lives, and EXPIRED_KEPT_MS more (so that it is
    // refused as expired, not as unknown): the refresh grant is unavailable (spec §4.1), so its
    // refresh token can never be used. Rows kept longer by earlier versions (for the refresh
    // token's 30 days) are swept once, by their access expiry.
    const expires = now + TOKEN_LIFETIME_S * 1000
    try {
      this.s.db.tx(() => {
        if (!this.swept) deleteTokensExpiredBefore(this.s.db, now - EXPIRED_KEPT_MS)
        deleteTokensRefreshExpiredBefore(this.s.db, now)
        insertToken(this.s.db, {
          token_hash: sha256(access), user_id: user.id, client_id: clientId, scope: scopes.join(' '), expires_at: expires, refresh_hash: sha256(refresh), refresh_expires_at: expires + EXPIRED_KEPT_MS,
        })
      })
      this.swept = true
    } catch (err) {
      // a full disk refuses the write before it starts: the token lives in `issued` only
      if (!(err instanceof ApiError && err.def === E.insufficientStorage)) throw err
    }
    this.keep(access, { user_id: user.id, username: user.username, scope: scopes.join(' '), expires_at: expires }, now)
    return {
      access_token: access, token_type: 'bearer', expires_in: TOKEN_LIFETIME_S, refresh_token: refresh,
      scope: scopes.join(' '), uid: user.id, uname: user.username, user_number: user.user_number,
    }
  }

  private keep(token: string, row: TokenRow, now: number): void {
    for (const [t, r] of this.issued) {
      if (r.expires_at + EXPIRED_KEPT_MS >= now) break
      this.issued.delete(t)
    }
    this.issued.set(token, row)
  }

  private lookup(token: string): TokenRow | undefined {
    const row = tokenByHash(this.s.db, sha256(token))
    if (row) {
      if (this.known.size >= CACHE_MAX) this.known.clear()
      this.known.set(token, row)
    }
    return row
  }

  /** The caller behind a token, or the error that refuses it. */
  authenticate(token: string | undefined, need: Scope): AuthUser {
    if (!token) throw refuse(E.tokenRequired, 'token.required', {})
    const row = this.known.get(token) ?? this.lookup(token) ?? this.issued.get(token)
    const bearer = { 'www-authenticate': 'Bearer error="invalid_token"' }
    if (!row) throw refuse(E.invalidToken, 'token.unknown', { path: '/oauth/token' }, bearer)
    if (row.expires_at <= this.s.clock.now())
      throw refuse(E.invalidToken, 'token.expired', { at: new Date(row.expires_at).toISOString(), path: '/oauth/token' }, bearer)
    const scopes = row.scope.split(' ').filter((s): s is Scope => (ALL_SCOPES as readonly string[]).includes(s))
    if (!scopes.includes(need)) throw refuse(E.accessDenied, 'token.scope', { scope: row.scope, need })
    return { id: row.user_id, username: row.username, scopes, token }
  }
}
