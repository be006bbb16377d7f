/**
 * Typed calls by endpoint id: method and path come from the endpoint table, errors come back
 * as ApiError rebuilt from the response body (nothing is thrown across IPC).
 */
import { endpoints, type EndpointId, type ResultOf } from '../../../engine/contract/endpoints'
import { errorFromBody, type ApiError, type ErrorBody } from '../../../engine/contract/errors'
import type { EngineRequest, EngineResponse } from '../../../engine/contract/envelope'
import { PROBLEM_HEADER, PROBLEM_WANTED_HEADER, describe, problemOfHeader, type Problem } from '../../../engine/contract/problems'
import { rememberMessages, rememberProblem } from './problems'
import type { Transport } from './transport'

export type Params = Record<string, string | number | boolean | undefined | null>

/** What a body endpoint takes besides its parameters: text (file uploads) or JSON (batch). */
export interface CallBody {
  text?: string
  json?: unknown
  /** Parameters sent even when '' (an empty text clears a stored value, e.g. campaigns.update description). */
  keepEmpty?: readonly string[]
}

/** Errors that mean "sign in again". */
export const AUTH_ERRORS = new Set(['invalid_token', 'token_required'])

function fields(params: Params, keepEmpty: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && (v !== '' || keepEmpty.includes(k))) out[k] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v)
  return out
}

/** The engine request for a call: GET parameters in the query, POST as form, text or JSON body. */
export function buildRequest(id: EndpointId, params: Params, token: string | null, body: CallBody = {}): EngineRequest {
  const def = endpoints[id]
  const query = fields(params, body.keepEmpty)
  // (every refusal then comes with its problem key and arguments, which the screens translate)
  const headers: Record<string, string> = { [PROBLEM_WANTED_HEADER]: '1', ...(token ? { authorization: `Bearer ${token}` } : {}) }
  if (def.method === 'GET') return { method: 'GET', path: def.path, query, headers }
  if (def.body === 'text') return { method: 'POST', path: def.path, query, body: body.text ?? '', headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' } }
  if (def.body === 'json') return { method: 'POST', path: def.path, query: {}, body: JSON.stringify({ ...query, ...(body.json as object) }), headers: { ...headers, 'content-type': 'application/json' } }
  return { method: 'POST', path: def.path, query: {}, body: new URLSearchParams(query).toString(), headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } }
}

/** The ApiError of a refusal, its problem kept for the screens that show its message (api/problems.ts). */
function refused(status: number, body: ErrorBody, problem: Problem | null): ApiError {
  rememberProblem(body.error_description, problem)
  return errorFromBody(status, body, problem)
}

/** The answer's JSON, or the ApiError its error body and problem header describe. */
export function readResponse<T>(res: EngineResponse): T {
  let body: unknown
  try {
    body = JSON.parse(res.body)
  } catch {
    throw refused(res.status, { error: 'bad_response', error_description: describe('client.notJson', { status: res.status }) }, { key: 'client.notJson', args: { status: res.status } })
  }
  if (res.status !== 200) throw refused(res.status, body as ErrorBody, problemOfHeader(res.headers[PROBLEM_HEADER]))
  if (res.body.includes('_problem"')) rememberMessages(body)
  return body as T
}

export class ApiClient {
  token: string | null = null
  /** Called when the engine refuses the token (expired, unknown or missing). */
  onUnauthorized: ((e: ApiError) => void) | null = null

  constructor(private readonly transport: Transport) {}

  async call<K extends EndpointId>(id: K, params: Params = {}, body?: CallBody): Promise<ResultOf<K>> {
    const res = await this.transport(buildRequest(id, params, this.token, body))
    try {
      return readResponse<ResultOf<K>>(res)
    } catch (e) {
      const err = e as ApiError
      if (AUTH_ERRORS.has(err.body?.error ?? '') && id !== 'oauth.token') this.onUnauthorized?.(err)
      throw e
    }
  }

  /** A file answer (exports): its text as sent. */
  async text<K extends EndpointId>(id: K, params: Params = {}): Promise<string> {
    const res = await this.transport(buildRequest(id, params, this.token))
    if (res.status !== 200) readResponse(res)
    return res.body !== '' || !res.bytes ? res.body : new TextDecoder().decode(res.bytes)
  }
}
