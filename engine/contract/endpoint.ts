/** The shape of one row of the endpoint table, and the helpers that build rows. */
import type { HttpMethod } from './envelope'
import type { ParamsShape } from './params'
import type { Schema } from './schema'

/**
 * What a caller needs to be allowed in: a token carrying that scope, or nothing (`none`:
 * the token endpoint, the OpenAPI document, and later the tracking endpoints).
 * Scope per endpoint is not in the spec (§5.7); ours: /cms -> cms, /admonitor -> admonitor,
 * /local -> local.
 */
export type Auth = 'cms' | 'admonitor' | 'local' | 'none'

export interface EndpointMeta {
  summary: string
  /** Where the endpoint is defined: a section of interface.md or vendor-notes.md, or 'local'. */
  spec: string
  /**
   * GET answers may be served from the response cache until the next database write (true), or
   * until the next write or the next recorded event ('measure': reports).
   */
  cache?: boolean | 'measure'
  /** The body: none (GET), form (spec §4.3), json (batch), or text (file uploads: CSV, NDJSON). */
  body?: 'none' | 'form' | 'json' | 'text'
  /** For JSON bodies: the codecs of each item of `spots`. */
  item?: ParamsShape
  /** Other paths that reach the same endpoint (vendor spellings). */
  aliases?: readonly string[]
  /** Every path under this prefix reaches the endpoint too (tracking tags carry their parameters in the path). */
  prefix?: string
  /** The handler reads the request itself (tracking): no parameter decoding, no ignored-parameter header. */
  rawParams?: boolean
  /** Content types of a successful answer that is not JSON (files, pixels, redirects). */
  produces?: readonly string[]
}

export interface EndpointDef<P extends ParamsShape = ParamsShape, R = unknown> extends EndpointMeta {
  readonly method: HttpMethod
  readonly path: string
  readonly auth: Auth
  readonly params: P
  readonly response: Schema<R>
  readonly body: 'none' | 'form' | 'json' | 'text'
}

export function get<const P extends ParamsShape, R>(path: string, auth: Auth, params: P, response: Schema<R>, meta: EndpointMeta): EndpointDef<P, R> {
  return { method: 'GET', path, auth, params, response, ...meta, body: 'none' }
}

export function post<const P extends ParamsShape, R>(path: string, auth: Auth, params: P, response: Schema<R>, meta: EndpointMeta): EndpointDef<P, R> {
  return { method: 'POST', path, auth, params, response, ...meta, body: meta.body ?? 'form' }
}
