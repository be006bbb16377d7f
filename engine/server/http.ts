/**
 * The HTTP door: node:http in front of engine.handle(). Binds 127.0.0.1 by default, refuses a
 * Host that is not this server (DNS rebinding) and cross-origin browser calls (no wildcard
 * CORS), and serves the renderer build from the same origin when one is given.
 */
import { STATUS_CODES, createServer, validateHeaderValue, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { ApiError, E, refuse } from '../contract/errors'
import { JSON_TYPE, type EngineRequest, type EngineResponse } from '../contract/envelope'
import { trackingEndpoints } from '../contract/endpoints-tracking'
import { TRACKING_DOOR_PREFIXES } from '../contract/tracking-url'
import { FORM_BODY_BYTES, MAX_BODY_BYTES, commonParams, type Admitted } from '../request'
import { problemHeaders, respond, wantsProblem } from '../respond'
import { externalCollector } from './collect'
import { isPageRequest, serveStatic } from './static'

export interface HttpDoorOptions {
  host?: string
  port?: number
  /** Extra Host header values to accept (host or host:port), e.g. a LAN name when binding 0.0.0.0. */
  allowedHosts?: readonly string[]
  /** Browser origins allowed to call the API cross-origin (none by default). */
  allowedOrigins?: readonly string[]
  /** Folder of the renderer build, served at / for paths outside the API. */
  staticDir?: string
  /** Called after each request (request log). */
  onRequest?: (entry: { method: string; path: string; status: number; ms: number }) => void
}

export interface HttpDoor {
  server: Server
  url: string
  port: number
  close(): Promise<void>
}

/** The port the local server listens on unless told otherwise (serve, the desktop app). */
export const DEFAULT_PORT = 8366

export interface RequestHandler {
  handle(req: EngineRequest): Promise<EngineResponse>
  /** The most body bytes to read for this request, decided before any is read (Engine.admit); all up to MAX_BODY_BYTES without it. */
  admit?(req: Omit<EngineRequest, 'body'>): Admitted
  /** Settles once the engine has read its recorded events (Engine.ready). */
  ready?: Promise<unknown>
}

const API_PREFIXES = ['/cms/', '/admonitor/', '/oauth/', '/local/', '/openapi.json', ...TRACKING_DOOR_PREFIXES]
/** Tracking paths with their parameters in the query only (`/x?k=...`): the endpoint table's aliases. */
const API_PATHS = new Set<string>(Object.values(trackingEndpoints).flatMap((d) => d.aliases ?? []))
const LONGEST_API_PATH = Math.max(...[...API_PATHS].map((p) => p.length))
// (a longer path is not looked up in the set: hashing a tracking tag's path of some 360 characters costs 0.45 us a hit)
const isApi = (path: string) => (path.length <= LONGEST_API_PATH && API_PATHS.has(path)) || API_PREFIXES.some((p) => path === p || path.startsWith(p))
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]']

function errorResponse(e: ApiError): EngineResponse {
  return { status: e.def.status, headers: { 'content-type': JSON_TYPE, ...e.headers }, body: JSON.stringify(e.body) }
}

/**
 * The door's refusal of an API request it did not hand to the engine (no endpoint, no good token
 * for a body, a body over the limit): with the query's callback and suppress_response_codes
 * applied, as the engine applies them to its own refusals (spec §1.2: every response).
 */
const refusal = (e: ApiError, req: EngineRequest): EngineResponse => respond(e.def.status, JSON.stringify(e.body), { common: commonParams(req), noStore: false, ignored: [] }, { ...e.headers, ...problemHeaders(e, wantsProblem(req)) })

const tooLarge = ({ bytes, why }: Admitted): ApiError => {
  const close = { connection: 'close' }
  if (why === 'open') return refuse(E.payloadTooLarge, 'door.tooLargeOpen', { max: bytes, form: FORM_BODY_BYTES }, close)
  return refuse(E.payloadTooLarge, why === 'server' ? 'door.tooLargeServer' : 'door.tooLarge', { max: bytes }, close)
}

/** Reads the body; past the limit it stops keeping bytes and refuses (the 413 still gets sent). */
function readBody(req: IncomingMessage, admitted: Admitted): Promise<string> {
  const limit = admitted.bytes
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.reject(tooLarge(admitted))
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) chunks = []
      else chunks.push(c)
    })
    req.on('end', () => (size > limit ? reject(tooLarge(admitted)) : resolve(Buffer.concat(chunks).toString('utf8'))))
    req.on('error', reject)
  })
}

function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  if (search.length <= 1) return out
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k]
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return out
}

function send(res: ServerResponse, r: EngineResponse, head: boolean): void {
  // Checked before writeHead: a value it refuses throws after it has set the status (a 204 then
  // sends no body, a 302's text stays), and the 500 sent instead would come out as "500 Found", or
  // with a length and no body (a click whose reason holds Chinese text).
  for (const name in r.headers) validateHeaderValue(name, r.headers[name]!)
  if (r.parts) {
    // a page of a result set: its pieces written in one go (corked), not copied into one buffer
    res.writeHead(r.status, { ...r.headers, 'content-length': String(r.parts.reduce((n, p) => n + p.length, 0)) })
    if (!head) {
      res.cork()
      for (const p of r.parts) res.write(p)
      res.uncork()
    }
    res.end()
    return
  }
  const body = r.bytes ?? Buffer.from(r.body, 'utf8')
  res.writeHead(r.status, { ...r.headers, 'content-length': String(body.length) })
  res.end(head ? undefined : body)
}

export async function startHttpDoor(engine: RequestHandler, opts: HttpDoorOptions = {}): Promise<HttpDoor> {
  const host = opts.host ?? '127.0.0.1'
  let port = opts.port ?? DEFAULT_PORT
  // Host header values this server answers to: its own names with our port (bare too on port
  // 80); an allowed name as given, and one given without a port also bare, as a TLS proxy in front
  // forwards it (accepting only `name:port` would answer such a proxy 403).
  const hostNames = () => {
    const withPort = (name: string) => /:\d+$/.test(name) && !/^[^[]*:.*:/.test(name)
    const own = [...LOOPBACK, ...(host === '0.0.0.0' || host === '::' ? [] : [host])].map((h) => h.toLowerCase())
    const allowed = (opts.allowedHosts ?? []).map((h) => h.toLowerCase())
    return new Set([
      ...own.flatMap((name) => (withPort(name) ? [name] : [`${name}:${port}`, ...(port === 80 ? [name] : [])])),
      ...allowed.flatMap((name) => (withPort(name) ? [name] : [name, `${name}:${port}`])),
    ])
  }
  let allowedHosts = hostNames()
  const origins = new Set(opts.allowedOrigins ?? [])
  // (the typed arrays reports let go, collected before V8 would: engine/server/collect.ts)
  const collect = externalCollector()
  // (what the open loads meanwhile is live: measured from once it is done)
  void engine.ready?.then(() => collect.rebase(), () => undefined)

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now()
    const target = req.url ?? '/'
    const cut = target.indexOf('?')
    const url = { pathname: cut < 0 ? target : target.slice(0, cut), search: cut < 0 ? '' : target.slice(cut) }
    const method = req.method ?? 'GET'
    // Node gives lower-case names; only set-cookie is ever an array, and requests do not send it.
    const headers = req.headers as Record<string, string>
    let out: EngineResponse
    let request: EngineRequest | undefined
    try {
      if (!allowedHosts.has((headers.host ?? '').toLowerCase())) throw refuse(E.forbiddenHost, 'door.host', { host: headers.host ?? '', port })
      const origin = headers.origin
      const selfOrigin = origin !== undefined && allowedHosts.has(origin.replace(/^https?:\/\//, '').toLowerCase())
      if (origin !== undefined && !selfOrigin && !origins.has(origin)) throw refuse(E.forbiddenHost, 'door.origin', { origin })
      const cors: Record<string, string> = origin !== undefined && origins.has(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {}
      if (method === 'OPTIONS') {
        out = { status: 204, headers: { ...cors, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '600' }, body: '' }
      } else if (!isApi(url.pathname) && opts.staticDir && (method === 'GET' || method === 'HEAD')) {
        const found = await serveStatic(opts.staticDir, url.pathname, isPageRequest(headers.accept))
        if (!found) throw refuse(E.notFound, 'door.nothing', { path: url.pathname })
        out = found
      } else {
        // one object, its body filled in once read (a spread copy a request cost a tracking hit CPU)
        request = { method, path: url.pathname, query: parseQuery(url.search), rawQuery: url.search.slice(1), body: '', headers, remoteAddress: req.socket.remoteAddress ?? '' }
        if (method === 'POST') {
          let limit: Admitted = { bytes: MAX_BODY_BYTES, why: 'server' }
          try {
            if (engine.admit) limit = engine.admit(request)
          } catch (err) {
            // refused before its body is read: the connection closes rather than reading it
            if (err instanceof ApiError) throw new ApiError(err.def, err.message, { ...err.headers, connection: 'close' }, err.extra, err.problem)
            throw err
          }
          request.body = await readBody(req, limit)
        }
        out = await engine.handle(request)
        Object.assign(out.headers, cors)
      }
    } catch (err) {
      const e = err instanceof ApiError ? err : refuse(E.serverError, 'door.unreadable', {})
      // (a refusal of the Host or the Origin, before any request is made: its query still counts on an API path)
      const asked = request ?? (isApi(url.pathname) ? { method, path: url.pathname, query: parseQuery(url.search), body: '', headers } : undefined)
      out = asked ? refusal(e, asked) : errorResponse(e)
    }
    try {
      send(res, out, method === 'HEAD')
    } catch (err) {
      // An answer node:http refuses to send (a header value with a character it does not allow):
      // a JSON 500 saying so rather than a connection closed without a word.
      if (res.headersSent) throw err
      out = errorResponse(refuse(E.serverError, 'door.unsendable', { detail: (err as Error).message }))
      send(res, out, method === 'HEAD')
    }
    const done = performance.now()
    opts.onRequest?.({ method, path: url.pathname, status: out.status, ms: done - started })
    // (after the request is logged, and after an answer still being written once it is: a
    // collection would hold up its last bytes)
    if (res.writableLength > 0) res.once('finish', () => collect(performance.now()))
    else collect(done)
  }

  const server = createServer({ requestTimeout: 60_000, headersTimeout: 20_000, keepAliveTimeout: 5_000 }, (req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  // Requests node:http cannot read (a URL past its 16 KiB of headers, bytes that are not HTTP):
  // a JSON error naming the problem, where node:http would answer with no body.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy()
    const e = err.code === 'HPE_HEADER_OVERFLOW'
      ? refuse(E.headersTooLarge, 'door.headersTooLarge', {})
      : refuse(E.badHttp, 'door.badHttp', { detail: err.code ?? err.message })
    const body = JSON.stringify(e.body)
    socket.end(`HTTP/1.1 ${e.def.status} ${STATUS_CODES[e.def.status]}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  port = (server.address() as AddressInfo).port
  allowedHosts = hostNames()
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  return {
    server,
    port,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
  }
}
