/** From a result or an error to the response every door sends. */
import { ApiError, E, refuse } from './contract/errors'
import { JSON_TYPE, headerValue, type EngineRequest, type EngineResponse } from './contract/envelope'
import { PROBLEM_HEADER, PROBLEM_WANTED_HEADER, problemHeader } from './contract/problems'
import type { Common } from './request'

export interface ResponseOptions {
  common: Common
  /** spec §4.1: the token endpoint's answers are never cached. */
  noStore: boolean
  ignored: readonly string[]
  /** The client asked to be told a refusal's problem key and arguments (docs/errors.md, "Problem keys"). */
  problem?: boolean
}

/** Whether `req` asks for the problem header on a refusal (the app does; other clients' answers stay as the spec writes them). */
export const wantsProblem = (req: EngineRequest): boolean => req.headers?.[PROBLEM_WANTED_HEADER] === '1'

/**
 * An answer for the client of `req`: the members that tell a message's problem (`error_problem`,
 * `message_problem`: a job's rejected lines and failure) only when it asked for problems, so that
 * other clients get the answer as before. The members are left out when the answer is written
 * (toJSON), as a running job is read then.
 */
export function forClient<T>(req: EngineRequest, answer: T): T {
  return wantsProblem(req) ? answer : ({ toJSON: () => withoutProblems(answer) } as T)
}

function withoutProblems(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProblems)
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (!k.endsWith('_problem')) out[k] = withoutProblems(v)
  return out
}
/**
 * Wraps a JSON text as the response: JSONP when asked, status 200 when codes are suppressed.
 * `bytes`, when given, is `json` already encoded (from the response cache).
 */
export function respond(status: number, json: string, opts: ResponseOptions, extra: Record<string, string> = {}, bytes?: Uint8Array): EngineResponse {
  const headers = headersOf(opts, extra)
  let body = json
  if (opts.common.callback) {
    // The /**/ prefix defeats content-sniffing attacks on JSONP (Rosetta Flash).
    body = `/**/${opts.common.callback}(${json});`
    headers['content-type'] = 'application/javascript;charset=UTF-8'
  }
  const out: EngineResponse = { status: opts.common.suppress ? 200 : status, headers, body }
  if (bytes && body === json) out.bytes = bytes
  return out
}

function headersOf(opts: ResponseOptions, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-content-type-options': 'nosniff', ...extra }
  if (opts.noStore) Object.assign(headers, { 'cache-control': 'no-store', pragma: 'no-cache' })
  // (names as sent: any character)
  if (opts.ignored.length > 0) headers['x-admonitor-ignored-parameters'] = headerValue(opts.ignored.join(',').slice(0, 512))
  return headers
}

/**
 * A JSON answer given as UTF-8 pieces (a page of a result set): sent as they are, its text
 * decoded only when a door reads `body` (the IPC door does; the HTTP door does not). JSONP
 * wraps the text as respond() does.
 */
export function respondParts(status: number, parts: readonly Uint8Array[], opts: ResponseOptions): EngineResponse {
  if (opts.common.callback) return respond(status, Buffer.concat(parts).toString('utf8'), opts)
  const out = { status: opts.common.suppress ? 200 : status, headers: headersOf(opts, {}), parts } as EngineResponse
  Object.defineProperty(out, 'body', PARTS_BODY)
  return out
}

const TEXT = Symbol('text')

/** `body` of an answer in parts: one getter for all of them (no closure made per answer). */
const PARTS_BODY: PropertyDescriptor = {
  enumerable: true,
  get(this: EngineResponse & { [TEXT]?: string }): string {
    return (this[TEXT] ??= Buffer.concat(this.parts!).toString('utf8'))
  },
}

/** Any thrown value as an error response; only ApiErrors say what went wrong. */
export function respondError(err: unknown, opts: ResponseOptions, log: (message: string, cause: unknown) => void): EngineResponse {
  const api = err instanceof ApiError ? err : null
  if (!api) log('unexpected error', err)
  const e = api ?? refuse(E.serverError, 'engine.serverError', {})
  return respond(e.def.status, JSON.stringify(e.body), opts, { ...e.headers, ...problemHeaders(e, opts.problem === true) })
}

/** The header that tells a refusal's problem, when the client asked for it (`wanted`) and the refusal has one. */
export const problemHeaders = (e: ApiError, wanted: boolean): Record<string, string> => (wanted && e.problem ? { [PROBLEM_HEADER]: problemHeader(e.problem) } : {})
