/**
 * What crosses every door (HTTP, IPC, tests): a request in, a response out.
 * Nothing is thrown across a door; errors travel as responses.
 */

export type HttpMethod = 'GET' | 'POST'

/** A request as the engine sees it, whichever door it came through. */
export interface EngineRequest {
  method: string
  /** Path without query string, e.g. `/cms/v1/campaigns/list`. */
  path: string
  /** Decoded query parameters; a name given several times keeps every value. */
  query: Record<string, string | string[]>
  /** The query string as sent, without `?` (HTTP door; tracking tags need it undecoded). */
  rawQuery?: string
  /**
   * The raw request body. The engine parses it itself (form or JSON, by `content-type`),
   * so that malformed bodies get the same 400 as malformed parameters.
   */
  body?: string
  /** Lower-case header names. */
  headers?: Record<string, string>
  /** Address of the caller (HTTP door only), for login throttling. */
  remoteAddress?: string
  /** Which door the request came through (request log); default: http when remoteAddress is set, else internal. */
  door?: 'http' | 'ipc' | 'internal'
}

/** The door a request came through: its own `door`, else http when it has a caller's address, else internal. */
export const doorOf = (req: EngineRequest): 'http' | 'ipc' | 'internal' => req.door ?? (req.remoteAddress !== undefined ? 'http' : 'internal')

/** A response: status, headers and body. `body` is the serialized text sent on the wire. */
export interface EngineResponse {
  status: number
  headers: Record<string, string>
  body: string
  /**
   * Binary answers (images, exports) have their bytes here and an empty `body`. A text answer
   * may carry its UTF-8 encoding here too (the HTTP door sends it as is); the IPC door drops it.
   */
  bytes?: Uint8Array
  /**
   * A text answer's UTF-8 encoding in pieces, in order (a page cut out of a result set,
   * engine/result-sets.ts): the HTTP door writes them one after the other, no copy made; `body`
   * decodes them when first read.
   */
  parts?: readonly Uint8Array[]
}

/** A notification pushed from the engine to the renderer (request log, progress). */
export interface EngineEvent {
  type: string
  payload: unknown
}

/** The single bridge the preload exposes as `window.engine`, and its browser twin. */
export interface EngineBridge {
  request(r: EngineRequest): Promise<EngineResponse>
  onEvent(cb: (e: EngineEvent) => void): () => void
}

export const JSON_TYPE = 'application/json;charset=UTF-8'

/**
 * The door's own parameters, never forwarded, recorded or declared by an endpoint: the token is
 * the remote client's own; JSONP and status folding are the door's; `_` is a cache buster.
 */
export const DOOR_PARAMS = ['access_token', 'callback', 'suppress_response_codes', '_'] as const

const OUTSIDE_HEADER_TEXT = /[^\x20-\x7e]+/g
const OUTSIDE_HEADER_URL = /[^\x21-\x7e]+/g

/**
 * `text` as a header value: node:http sends printable ASCII only (it refuses the answer
 * otherwise), so each run of other characters (Chinese, control characters) is percent-encoded as
 * UTF-8, as browsers write URLs; with `url`, spaces too. Header values that quote a request's
 * parameters or a stored landing page go through it.
 */
export function headerValue(text: string, url = false): string {
  return text.replace(url ? OUTSIDE_HEADER_URL : OUTSIDE_HEADER_TEXT, (run) => Array.from(Buffer.from(run, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))
}

/**
 * The content types a CSV file is sent with: the registered one (RFC 7111), and those browsers and
 * tools give a `.csv` file (Windows with Excel installed says `application/vnd.ms-excel`): a CSV
 * sent with any of them is read as CSV, never as malformed JSON.
 */
const CSV_TYPES: ReadonlySet<string> = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'text/x-csv', 'application/x-csv', 'application/vnd.ms-excel'])

/**
 * The format of an uploaded file (event and panel imports): the `format` parameter when given,
 * else CSV for a body of a CSV content type (CSV_TYPES) and NDJSON otherwise.
 */
export function bodyFormat(req: Pick<EngineRequest, 'headers'>, given: 'ndjson' | 'csv' | undefined): 'ndjson' | 'csv' {
  if (given !== undefined) return given
  const type = (req.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  return CSV_TYPES.has(type) ? 'csv' : 'ndjson'
}
