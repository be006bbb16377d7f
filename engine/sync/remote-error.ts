/**
 * Every way a call to the remote can fail, classified once, with a message in plain words for
 * "Test connection" and the pull status. Messages name the host and the path, never the query
 * (it carries the access token) and never a secret.
 */
import type { RemoteProblem } from '../contract/endpoints-sync'
import { describe, problem as keyOf, type ArgsOf, type Problem, type ProblemKey } from '../contract/problems'

/** A message from the problem catalogue: its English, and its key with the arguments. */
export interface Keyed {
  text: string
  keyed: Problem
}

/** Problem `key` with `args` as a RemoteError's message (engine/contract/problems.ts, `remote.*`). */
export const keyed = <K extends ProblemKey>(key: K, args: ArgsOf<K>): Keyed => ({ text: describe(key, args), keyed: keyOf(key, args) })

export class RemoteError extends Error {
  /** The remote's own `error_description`, when a token refusal carried one. */
  said = ''
  /** The message's problem (its arguments without secrets), or null for a message of no key (a fault's own words). */
  readonly keyed: Problem | null

  constructor(
    readonly problem: RemoteProblem,
    message: string | Keyed,
    /** Worth trying again after a pause (5xx, timeouts, resets, cut-short bodies, rate limits). */
    readonly retryable: boolean,
    /** The remote's `error` code, when it sent one; for an address that cannot be reached, the network error's code. */
    readonly code = '',
    /** Milliseconds the remote asked us to wait (Retry-After). */
    readonly retryAfterMs = 0,
    /** A token refusal that came again after a new login: a refusal of the request itself. */
    readonly afterLogin = false,
  ) {
    super(scrubSecrets(typeof message === 'string' ? message : message.text))
    this.name = 'RemoteError'
    this.keyed = typeof message === 'string' ? null : scrubbed(message.keyed)
  }
}

/**
 * A message with the values of secret-bearing query members cut out (`access_token=…`), whatever
 * the text came from: a Location, a network error's text, a remote's own description. Messages
 * are shown and kept (pull and push history); a token in one would read the remote.
 */
export function scrubSecrets(message: string): string {
  return message.replace(/\b(access_token|refresh_token|password|client_secret)=[^&#\s'"]*/gi, '$1=…')
}

/** `p` with secret-bearing query members cut out of its arguments, nested problems included. */
function scrubbed(p: Problem): Problem {
  const args = Object.fromEntries(Object.entries(p.args).map(([k, v]) => [k, typeof v === 'string' ? scrubSecrets(v) : typeof v === 'number' ? v : scrubbed(v)]))
  return { key: p.key, args }
}

const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL'])
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])
const TLS = /CERT|TLS|SSL|EPROTO|ERR_OSSL/

/** The first error code along the cause chain (undici wraps the socket error in "fetch failed"). */
function codeOf(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined, depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string') return e.code
    const first = Array.isArray(e.errors) ? (e.errors[0] as { code?: unknown } | undefined) : undefined
    if (typeof first?.code === 'string') return first.code
    e = e.cause as typeof e
  }
  return ''
}

/** A failed fetch (no HTTP answer, or the body broke off) in plain words. */
export function networkError(err: unknown, url: URL, timeoutMs: number): RemoteError {
  const name = (err as { name?: string } | null)?.name
  const code = codeOf(err)
  const where = url.host
  if (name === 'TimeoutError' || TIMEOUT.has(code)) return new RemoteError('timeout', keyed('remote.timeout', { host: where, wait: timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`, path: url.pathname }), true)
  if (code === 'ENOTFOUND' || code.startsWith('EAI_')) return new RemoteError('unreachable', keyed('remote.dns', { host: url.hostname, code }), true, code)
  if (UNREACHABLE.has(code)) return new RemoteError('unreachable', code === 'ECONNREFUSED' ? keyed('remote.connRefused', { host: where }) : keyed('remote.noAnswer', { host: where, code }), true, code)
  if (TLS.test(code)) return new RemoteError('tls', keyed('remote.tls', { host: where, code }), false)
  if (RESET.has(code) || /terminated|other side closed/i.test(String((err as Error)?.message))) return new RemoteError('reset', keyed('remote.reset', { host: where, code: code || 'reset', path: url.pathname }), true)
  return new RemoteError('unreachable', keyed('remote.cannotReach', { host: where, said: code || String((err as Error)?.message ?? err) }), true)
}

/**
 * The request cannot have reached the remote: no connection was made (DNS, refused, no route), or
 * the remote answered 429. Only these are safe to repeat for a write.
 */
export const neverSent = (e: RemoteError): boolean => e.problem === 'rate_limited' || (e.problem === 'unreachable' && (UNREACHABLE.has(e.code) || e.code.startsWith('EAI_')))

/**
 * The codes with which a remote may refuse a token: `access_denied` is the vendor's for an expired
 * or unknown token (vendor-notes §1.4; it also means "no permission on the campaign", which a new
 * login does not change), `token_required` its example, `invalid_token` RFC 6750's.
 */
export const TOKEN_REFUSALS: readonly string[] = ['access_denied', 'invalid_token', 'token_required']

/** The remote may have refused the token: log in again (once) and repeat the request. */
export const isTokenRefusal = (status: number, code: string): boolean => status === 401 || TOKEN_REFUSALS.includes(code)

/**
 * The remote refused the request itself (a 4xx other than a token refusal, or a token refusal that
 * a new login did not end): sending it again will not help. `orAbsent`: a path the remote does not have (404) counts too.
 */
export const isRefusal = (err: unknown, orAbsent = false): err is RemoteError =>
  err instanceof RemoteError && ((orAbsent && err.problem === 'not_this_api') || (err.problem === 'refused' && (err.afterLogin || !isTokenRefusal(0, err.code))))

/** An HTTP answer that is an error, from the status and the `{error, error_description}` body. */
export function httpError(status: number, body: unknown, path: string, retryAfter: string | null): RemoteError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; error_description?: unknown }
  const code = typeof b.error === 'string' ? b.error : ''
  const said = code ? `${code}${typeof b.error_description === 'string' ? `: ${b.error_description}` : ''}` : `HTTP ${status}`
  const wait = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : 0
  if (status === 429) return new RemoteError('rate_limited', keyed('remote.slowDown', { path }), true, code, wait)
  if (status >= 500) return new RemoteError('server_error', keyed('remote.failed', { path, said }), true, code, wait)
  if (status === 404) return new RemoteError('not_this_api', keyed('remote.noPath', { path }), false, code)
  return new RemoteError('refused', keyed('remote.refused', { path, said }), false, code)
}
