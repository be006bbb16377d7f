/**
 * Every way a call to the remote can fail, classified once, with a message in plain words for
 * "Test connection" and the pull status. Messages name the host and the path, never the query
 * (it carries the access token) and never a secret.
 */
import type { RemoteProblem } from '../contract/endpoints-sync'

export class RemoteError extends Error {
  /** The remote's own `error_description`, when a token refusal carried one. */
  said = ''

  constructor(
    readonly problem: RemoteProblem,
    message: string,
    /** Worth trying again after a pause (5xx, timeouts, resets, cut-short bodies, rate limits). */
    readonly retryable: boolean,
    /** The remote's `error` code, when it sent one; for an address that cannot be reached, the network error's code. */
    readonly code = '',
    /** Milliseconds the remote asked us to wait (Retry-After). */
    readonly retryAfterMs = 0,
    /** A token refusal that came again after a new login: a refusal of the request itself. */
    readonly afterLogin = false,
  ) {
    super(scrubSecrets(message))
    this.name = 'RemoteError'
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
  if (name === 'TimeoutError' || TIMEOUT.has(code)) return new RemoteError('timeout', `${where} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} (${url.pathname}).`, true)
  if (code === 'ENOTFOUND' || code.startsWith('EAI_')) return new RemoteError('unreachable', `The address ${url.hostname} cannot be found (DNS: ${code}); check base_url and the network.`, true, code)
  if (UNREACHABLE.has(code)) return new RemoteError('unreachable', `Nothing answers at ${where} (${code === 'ECONNREFUSED' ? 'connection refused' : code}); check base_url and that the service is up.`, true, code)
  if (TLS.test(code)) return new RemoteError('tls', `The secure connection to ${where} failed (TLS: ${code}); check that the address is right and its certificate is trusted.`, false)
  if (RESET.has(code) || /terminated|other side closed/i.test(String((err as Error)?.message))) return new RemoteError('reset', `${where} closed the connection (${code || 'reset'}) during ${url.pathname}.`, true)
  return new RemoteError('unreachable', `Cannot reach ${where}: ${code || String((err as Error)?.message ?? err)}.`, true)
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
  if (status === 429) return new RemoteError('rate_limited', `The remote asked us to slow down (HTTP 429) on ${path}.`, true, code, wait)
  if (status >= 500) return new RemoteError('server_error', `The remote failed on ${path} (${said}).`, true, code, wait)
  if (status === 404) return new RemoteError('not_this_api', `The remote has no ${path} (HTTP 404): base_url does not point at this API.`, false, code)
  return new RemoteError('refused', `The remote refused ${path} (${said}).`, false, code)
}
