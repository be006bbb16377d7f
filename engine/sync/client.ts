/**
 * The client of the real service (DESIGN §4, docs/sync.md): password-grant login at
 * `<auth_url>/oauth/token`, a fresh login when the token expires or is refused (the service has
 * no refresh grant), requests paced to a minimum interval, and retries with exponential backoff
 * on 5xx, 429, timeouts, resets and cut-short bodies; other 4xx are not retried. `fetch` and the
 * clock are passed in, so tests can inject faults and time.
 */
import type { Clock } from '../clock'
import { RemoteError, httpError, isTokenRefusal, keyed, networkError, neverSent } from './remote-error'
import type { RemoteSecrets } from './secrets'

export interface RemoteProfile {
  base_url: string
  auth_url: string
  username: string
  client_id: string
}

export interface ClientOptions {
  fetch?: typeof fetch
  /** Minimum milliseconds between two requests (default 200). */
  pacingMs?: number
  /** Attempts after the first for a failure worth retrying (default 4). */
  retries?: number
  /** First pause before a retry, doubled each time, at most 30 s (default 500). */
  backoffMs?: number
  /** Milliseconds a request may take, body included (default 30 s). */
  timeoutMs?: number
}

export interface ClientStats {
  requests: number
  logins: number
  retries: number
}

interface Answer {
  status: number
  text: string
  json: unknown
  /** True when the body was not JSON (or was cut short). */
  notJson: boolean
  type: string
  retryAfter: string | null
  location: string | null
}

const MAX_BACKOFF_MS = 30_000
const RENEW_EARLY_MS = 60_000

export class RemoteClient {
  readonly stats: ClientStats = { requests: 0, logins: 0, retries: 0 }
  scope = ''
  private token: { value: string; expiresAt: number } | null = null
  private last = Number.NEGATIVE_INFINITY
  private readonly opts: Required<ClientOptions>

  constructor(
    private readonly profile: RemoteProfile,
    private readonly secrets: () => Promise<RemoteSecrets>,
    private readonly clock: Clock,
    opts: ClientOptions = {},
    /** Cancels the request in flight and every later one. */
    private readonly signal?: AbortSignal,
  ) {
    this.opts = { fetch: opts.fetch ?? globalThis.fetch, pacingMs: opts.pacingMs ?? 200, retries: opts.retries ?? 4, backoffMs: opts.backoffMs ?? 500, timeoutMs: opts.timeoutMs ?? 30_000 }
  }

  /** Logs in with the password grant (retrying what is worth retrying). */
  async login(): Promise<void> {
    const s = await this.secrets()
    const form = new URLSearchParams({ grant_type: 'password', username: this.profile.username, password: s.password, client_id: this.profile.client_id, client_secret: s.client_secret })
    const url = new URL(`${this.profile.auth_url}/oauth/token`)
    const t = await this.retrying(async () => {
      this.stats.logins++
      return readToken(await this.send(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() }), url)
    })
    this.scope = t.scope
    this.token = { value: t.access_token, expiresAt: this.clock.now() + Math.max(0, t.expires_in * 1000 - RENEW_EARLY_MS) }
  }

  /** The login in progress, which requests sent together without a live token share. */
  private loggingIn: Promise<void> | null = null

  private loginOnce(): Promise<void> {
    return (this.loggingIn ??= this.login().finally(() => (this.loggingIn = null)))
  }

  /** GET `path` of base_url with `params`; the parsed JSON answer. */
  async get(path: string, params: Record<string, string> = {}): Promise<unknown> {
    const init = { method: 'GET', headers: { accept: 'application/json' } }
    return this.withToken(path, params, (url) => this.retrying(async () => readJson(await this.send(url, init), path)))
  }

  /**
   * POST a form to `path` of base_url; the parsed JSON answer. A write is retried only when it
   * cannot have reached the remote (nothing answered at the address) or the remote asked us to
   * slow down: after a timeout, a reset or a 5xx it may have been applied, and the push
   * reconciles instead of sending it again (docs/sync.md "Push").
   */
  async post(path: string, form: Record<string, string>): Promise<unknown> {
    const init = { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }
    return this.withToken(path, {}, (url) => this.retrying(async () => readJson(await this.send(url, init), path), neverSent))
  }

  /** Runs `request` on `path` of base_url with `query` and a live token; a refused token is renewed once. */
  private async withToken(path: string, query: Record<string, string>, request: (url: URL) => Promise<unknown>): Promise<unknown> {
    let relogged = false
    for (;;) {
      if (!this.token || this.clock.now() >= this.token.expiresAt) await this.loginOnce()
      const used = this.token
      const url = new URL(`${this.profile.base_url}${path}`)
      for (const [k, v] of Object.entries({ ...query, access_token: used!.value })) url.searchParams.set(k, v)
      try {
        return await request(url)
      } catch (err) {
        if (!(err instanceof RemoteError) || err.problem !== 'refused' || !isTokenRefusal(0, err.code)) throw err
        // refused again with a token just issued: the request itself is refused (access_denied also means "no permission")
        if (relogged) throw new RemoteError('refused', keyed('remote.refusedAfterLogin', { path, said: `${err.code}${err.said ? `: ${err.said}` : ''}` }), false, err.code, 0, true)
        // the token expired or was ended at the remote (revoked, a restart there, clock skew): log in once more and go on
        relogged = true
        // (a request sent beside this one may have logged in again already)
        if (this.token === used) this.token = null
      }
    }
  }

  private async retrying<T>(once: () => Promise<T>, worth: (e: RemoteError) => boolean = (e) => e.retryable): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once()
      } catch (err) {
        if (!(err instanceof RemoteError) || !err.retryable || !worth(err) || attempt >= this.opts.retries) throw err
        this.stats.retries++
        const pause = Math.max(err.retryAfterMs, Math.min(MAX_BACKOFF_MS, this.opts.backoffMs * 2 ** attempt))
        await this.pause(pause)
        this.checkCancelled()
      }
    }
  }

  /** Sleeps, but a cancel ends the pause at once. */
  private async pause(ms: number): Promise<void> {
    const signal = this.signal
    if (!signal) return this.clock.sleep(ms)
    if (signal.aborted) return
    let stop = () => undefined as void
    const aborted = new Promise<void>((resolve) => {
      stop = resolve
      signal.addEventListener('abort', stop, { once: true })
    })
    await Promise.race([this.clock.sleep(ms), aborted])
    signal.removeEventListener('abort', stop)
  }

  private checkCancelled(): void {
    if (this.signal?.aborted) throw new RemoteError('cancelled', keyed('remote.cancelled', {}), false)
  }

  /** One request: paced, with a timeout covering the body; network failures classified. */
  private async send(url: URL, init: RequestInit): Promise<Answer> {
    this.checkCancelled()
    // the start is reserved before the wait: requests sent together (forwarded days) keep the pacing between them
    const now = this.clock.now()
    const at = Math.max(now, this.last + this.opts.pacingMs)
    this.last = at
    if (at > now) await this.pause(at - now)
    this.checkCancelled()
    // (a pause that ran late moves the next start on with it)
    this.last = Math.max(this.last, this.clock.now())
    this.stats.requests++
    const timeout = AbortSignal.timeout(this.opts.timeoutMs)
    const signal = this.signal ? AbortSignal.any([this.signal, timeout]) : timeout
    try {
      // raced against the signal too: a fetch that ignores it must not hang the pull
      const res = await abortable(this.opts.fetch(url, { ...init, signal, redirect: 'manual' }), signal)
      const text = await abortable(res.text(), signal)
      let json: unknown
      let notJson = false
      try {
        json = JSON.parse(text)
      } catch {
        notJson = true
      }
      return { status: res.status, text, json, notJson, type: res.headers.get('content-type') ?? '', retryAfter: res.headers.get('retry-after'), location: res.headers.get('location') }
    } catch (err) {
      this.checkCancelled()
      throw networkError(err, url, this.opts.timeoutMs)
    }
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason)
    signal.addEventListener('abort', stop, { once: true })
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

const looksJson = (a: Answer) => /json/i.test(a.type) || /^\s*[[{]/.test(a.text)

/** A redirect is not followed (the query carries the token): the address should be the target. */
function checkRedirect(a: Answer, where: string): void {
  if (a.status >= 300 && a.status < 400)
    throw new RemoteError('not_this_api', a.location ? keyed('remote.redirect', { where, status: a.status, location: withoutQuery(a.location) }) : keyed('remote.redirectElsewhere', { where, status: a.status }), false)
}

/**
 * A Location as a message may show it: scheme, host and path, never the query or the fragment.
 * A redirect that keeps the query (http to https) hands back the access token it was sent.
 */
export function withoutQuery(location: string): string {
  const cut = location.search(/[?#]/)
  return cut < 0 ? location : location.slice(0, cut)
}

/** A token refusal; the remote's own words are kept for the message of one that persists. */
function tokenRefused(path: string, code: string, body: unknown): RemoteError {
  const said = (body as { error_description?: unknown } | null)?.error_description
  const e = new RemoteError('refused', keyed('remote.tokenRefused', { path, code }), false, code)
  e.said = typeof said === 'string' ? said : ''
  return e
}

/** An API answer: JSON on 200; a cut-short JSON body is retried; errors classified. */
function readJson(a: Answer, path: string): unknown {
  checkRedirect(a, path)
  if (a.status === 200 && !a.notJson) {
    const code = (a.json as { error?: unknown } | null)?.error
    // vendor-notes §1.2: with suppress_response_codes errors come back as 200
    if (typeof code === 'string' && isTokenRefusal(200, code)) throw tokenRefused(path, code, a.json)
    return a.json
  }
  if (a.status === 200) {
    if (looksJson(a)) throw new RemoteError('bad_response', keyed('remote.cutShort', { path }), true)
    throw new RemoteError('not_this_api', keyed('remote.notJson', { path }), false)
  }
  const code = (a.json as { error?: unknown } | null)?.error
  const text = typeof code === 'string' ? code : ''
  if (isTokenRefusal(a.status, text)) throw tokenRefused(path, text || 'invalid_token', a.json)
  throw httpError(a.status, a.json, path, a.retryAfter)
}

interface Token {
  access_token: string
  expires_in: number
  scope: string
}

/** The token answer (spec §4.1): bad credentials and bad clients named as such. */
function readToken(a: Answer, url: URL): Token {
  const where = `${url.host}${url.pathname}`
  checkRedirect(a, where)
  const body = (a.json ?? {}) as { access_token?: unknown; expires_in?: unknown; scope?: unknown; error?: unknown; error_description?: unknown }
  if (a.status === 200 && !a.notJson && typeof body.access_token === 'string' && body.access_token !== '') {
    return { access_token: body.access_token, expires_in: typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600, scope: typeof body.scope === 'string' ? body.scope : '' }
  }
  if (a.status === 200 && a.notJson && looksJson(a)) throw new RemoteError('bad_response', keyed('remote.cutShort', { path: where }), true)
  if (a.status >= 500 || a.status === 429) throw httpError(a.status, a.json, url.pathname, a.retryAfter)
  if (a.notJson || a.status === 404 || (a.status === 200 && typeof body.error !== 'string'))
    throw new RemoteError('not_this_api', keyed(a.notJson ? 'remote.notOAuthJson' : 'remote.notOAuth', { where, status: a.status }), false)
  const code = typeof body.error === 'string' ? body.error : ''
  if (code === 'invalid_grant') throw new RemoteError('bad_credentials', keyed('remote.badGrant', {}), false, code)
  if (code === 'invalid_client') throw new RemoteError('bad_client', keyed('remote.badClient', {}), false, code)
  if (code === 'unsupported_grant_type') throw new RemoteError('not_this_api', keyed('remote.noPasswordGrant', { where }), false, code)
  throw httpError(a.status, a.json, url.pathname, a.retryAfter)
}
