/**
 * From a door's request to raw parameters: query string and body merged, the body parsed by
 * its content type, the token found, the shared parameters (callback, suppress_response_codes)
 * taken out. Everything here answers bad input with a 400, never a throw of another kind.
 */
import { E, badRequest, refuse } from './contract/errors'
import type { EndpointDef } from './contract/endpoint'
import type { EngineRequest } from './contract/envelope'
import { DOOR_PARAMS } from './contract/envelope'

/** Largest body accepted (event and panel files; a 3000-spot batch is a few MiB). */
export const MAX_BODY_BYTES = 64 << 20
/** Largest form or flat JSON body (1,000 keywords with 2 KiB landing pages, percent-encoded, fit). */
export const FORM_BODY_BYTES = 8 << 20
/** Largest body of the JSON batch endpoint (3,000 spots). */
export const JSON_BODY_BYTES = 16 << 20
/**
 * Largest body read before the caller's token is known: the token endpoint's form, and a form
 * that may carry its access_token in the body. Anything larger needs the token in the query or an
 * Authorization header first (dispatch/admit.ts createAdmit).
 */
export const OPEN_BODY_BYTES = 256 << 10

/** How many body bytes a door may read for a request, and which limit it is (the 413's problem: door.tooLarge*). */
export interface Admitted {
  bytes: number
  /** The endpoint's limit, the limit before the token is known (`open`), or the server's. */
  why: 'endpoint' | 'open' | 'server'
}

export type RawParams = Map<string, string[]>

export interface ParsedRequest {
  params: RawParams
  json: unknown
  /** The raw body of 'text' endpoints (file uploads), '' otherwise. */
  text: string
  token: string | undefined
}

function add(into: RawParams, name: string, value: string): void {
  const list = into.get(name)
  if (list) list.push(value)
  else into.set(name, [value])
}

function fromQuery(query: EngineRequest['query']): RawParams {
  const out: RawParams = new Map()
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) add(out, k, x)
  return out
}

/**
 * A flat JSON object as form parameters: scalars as text, an array of scalars as the comma list
 * the form would send (`events: ["home","buy"]` as `home,buy`; the array's JSON text was split
 * at its commas into `["home"` and `"buy"]`). A nested object, or an array holding one, is
 * refused naming the parameter (taken as its JSON text, `campaign_name: {"a":1}` would name a
 * campaign `{"a":1}`).
 */
function fromJsonObject(value: unknown, into: RawParams): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('body.notObject', { param: 'body' })
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue
    if (Array.isArray(v) ? !v.every(isScalar) : typeof v === 'object') throw badRequest('body.nested', { param: k })
    add(into, k, Array.isArray(v) ? listText(k, v) : String(v))
  }
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

function listText(name: string, items: readonly (string | number | boolean)[]): string {
  const texts = items.map(String)
  if (texts.some((t) => t.includes(','))) throw badRequest('body.listCommas', { param: name })
  return texts.join(',')
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw badRequest('body.badJson', { param: 'body', detail: (err as Error).message })
  }
}

const LOCAL_PREFIX = '/local/'

/** The shared parameters every endpoint takes (vendor-notes §1.2). */
export interface Common {
  callback: string | null
  suppress: boolean
}

/**
 * callback and suppress_response_codes, from the query, or from the query and the body once it is
 * read (`params`): "present at all" in either counts (docs/api.md); the body's are never dropped.
 */
export function commonParams(req: EngineRequest, params?: RawParams): Common {
  // (from the query object itself when the body is not read yet: every tracking hit comes here)
  const cb = params ? params.get('callback')?.[0] : req.query.callback
  // Only [A-Za-z0-9_] is kept in a JSONP name; other characters are removed (vendor-notes §1.2).
  // None on /local/ (this engine's own namespace, not the vendor's): a script tag on any page
  // could otherwise read the account and its first-run secrets with a token it learned.
  const name = req.path.startsWith(LOCAL_PREFIX) ? '' : (Array.isArray(cb) ? (cb[0] ?? '') : (cb ?? '')).replace(/[^A-Za-z0-9_]/g, '').slice(0, 64)
  return { callback: name === '' ? null : name, suppress: params ? params.has('suppress_response_codes') : 'suppress_response_codes' in req.query }
}

/** The parameters of a tracking endpoint's request: none here (see parseRequest). */
const NO_PARAMS: RawParams = new Map()

export function parseRequest(req: EngineRequest, def: EndpointDef): ParsedRequest {
  // A tracking hit's parameters are read once, from its path and raw query, by the tracking
  // reader (measure/attribute/tracking-url.ts); only a token it carries is looked at here.
  if (def.rawParams) return { params: NO_PARAMS, json: null, text: '', token: req.query.access_token !== undefined || req.headers?.authorization !== undefined ? tokenBeforeBody(req) : undefined }
  const params = fromQuery(req.query)
  let json: unknown = null
  const body = req.body ?? ''
  const charset = def.method === 'POST' ? foreignCharset(req.headers?.['content-type'] ?? '') : null
  if (charset) throw refuse(E.unsupportedMediaType, 'body.charset', { charset })
  if (def.method === 'POST' && def.body === 'text') return { params, json, text: body, token: findToken(req, params) }
  if (def.method === 'POST' && body !== '') {
    if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw refuse(E.payloadTooLarge, 'body.tooLarge', { max: MAX_BODY_BYTES })
    const type = (req.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (type === 'application/json') {
      json = parseJson(body)
      if (def.body !== 'json') fromJsonObject(json, params)
    } else if (type === 'application/x-www-form-urlencoded' || type === '') {
      if (def.body === 'json') throw refuse(E.unsupportedMediaType, 'body.jsonOnly', {})
      for (const [k, v] of new URLSearchParams(body)) add(params, k, v)
    } else {
      throw refuse(E.unsupportedMediaType, def.body === 'json' ? 'body.typeOrJson' : 'body.type', { type })
    }
  }
  return { params, json, text: '', token: findToken(req, params) }
}

/** The token a request carries before its body is read: in the query or an Authorization: Bearer header. */
export const tokenBeforeBody = (req: EngineRequest): string | undefined => findToken(req, fromQuery(req.query))

/** access_token from the query or form, or an Authorization: Bearer header (RFC 6750 §2). */
function findToken(req: EngineRequest, params: RawParams): string | undefined {
  const given = params.get('access_token')
  if (given && given.length > 1) throw badRequest('param.repeated', { param: 'access_token' })
  const header = req.headers?.authorization ?? ''
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1]
  if (given?.[0] && bearer && given[0] !== bearer) throw badRequest('token.twoTokens', { param: 'access_token' })
  return given?.[0] || bearer || undefined
}

/** Client credentials from an Authorization: Basic header (RFC 6749 §2.3.1), if any. */
export function basicCredentials(req: EngineRequest): { client_id: string; client_secret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers?.authorization ?? '')
  if (!m) return null
  const text = Buffer.from(m[1]!, 'base64').toString('utf8')
  const cut = text.indexOf(':')
  if (cut < 0) return null
  const decode = (x: string) => {
    try {
      return decodeURIComponent(x.replace(/\+/g, ' '))
    } catch {
      return x
    }
  }
  return { client_id: decode(text.slice(0, cut)), client_secret: decode(text.slice(cut + 1)) }
}

/** Decodes the declared parameters; returns the values and the names that were not declared. */
export function decodeParams(def: EndpointDef, raw: RawParams): { params: Record<string, unknown>; ignored: string[] } {
  const params: Record<string, unknown> = {}
  for (const [name, codec] of Object.entries(def.params)) {
    const values = raw.get(name)
    if (values && values.length > 1) throw badRequest('param.repeated', { param: name })
    if (values?.[0]?.includes(NOT_UTF8)) throw badRequest('param.notUtf8', { param: name })
    params[name] = codec.decode(values?.[0], name)
  }
  // vendor-notes §1.2: order_asc and order_desc must not come together
  if (params.order_asc !== undefined && params.order_desc !== undefined) throw badRequest('param.either', { param: 'order_desc', otherParam: 'order_asc' })
  const ignored = [...raw.keys()].filter((k) => !(k in def.params) && !IGNORED_NAMES.has(k))
  return { params, ignored }
}

/**
 * U+FFFD, what bytes that are not UTF-8 become when decoded (GBK text, a Latin-1 form): a value
 * holding it is refused rather than stored mangled, where two different names would also clash.
 */
const NOT_UTF8 = '\uFFFD'

/** A body's declared charset, when it is not UTF-8 (or its subset US-ASCII): the body cannot be read as sent. */
function foreignCharset(contentType: string): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)
  if (!m) return null
  const c = m[1]!.toLowerCase()
  return c === 'utf-8' || c === 'utf8' || c === 'us-ascii' ? null : m[1]!
}

/** The door's names, which no endpoint declares and which are not reported as ignored either. */
export const IGNORED_NAMES: ReadonlySet<string> = new Set(DOOR_PARAMS)
