/**
 * The one function every door calls: lookup -> parse -> auth -> decode -> handler -> durable
 * -> envelope. Only here are errors caught; nothing is thrown back to a door.
 */
import { ApiError, E, refuse } from './contract/errors'
import { endpoints, type EndpointId } from './contract/endpoints'
import { modeGroupOf } from './contract/endpoints-sync-modes'
import type { EngineRequest, EngineResponse } from './contract/envelope'
import { FORM_BODY_BYTES, JSON_BODY_BYTES, MAX_BODY_BYTES, OPEN_BODY_BYTES, commonParams, type Admitted, decodeParams, parseRequest, tokenBeforeBody } from './request'
import { respond, respondError, respondParts, wantsProblem, type ResponseOptions } from './respond'
import type { Limit } from './contract/params'
import { ResponseCache } from './response-cache'
import { ResultSet, ResultSets, type PagedRows } from './result-sets'
import { JsonParts, RawResponse } from './answers'
import type { Ctx } from './context'
import type { Handlers } from './handler'
import type { Services } from './services'
import { dateIn } from './time-zone'
import { refusesWrites, storageRefusal } from './storage/refusal'
import { WriteScope, withWrites, type JournalWrite } from './storage/persister-writes'

const routes = new Map<string, EndpointId>()
const paths = new Set<string>()
const prefixes: [string, EndpointId][] = []
for (const id of Object.keys(endpoints) as EndpointId[]) {
  const def = endpoints[id]
  if (def.prefix) prefixes.push([def.prefix, id])
  for (const path of [def.path, ...(def.aliases ?? [])]) {
    const key = `${def.method} ${path}`
    if (routes.has(key)) throw new Error(`two endpoints at ${key}`)
    routes.set(key, id)
    paths.add(path)
  }
}

/** The longest endpoint path: a longer one (a tracking tag's path) can only be a prefix endpoint's. */
const LONGEST = Math.max(...[...paths].map((p) => p.length))

/** vendor-notes §0.13: the vendor's index writes /report/ where the detail pages write /reports/. */
const REPORT_ALIAS = '/admonitor/v1/report/'
const normalize = (path: string) => (path.startsWith(REPORT_ALIAS) ? `/admonitor/v1/reports/${path.slice(REPORT_ALIAS.length)}` : path)

function lookup(method: string, rawPath: string): EndpointId {
  const path = normalize(rawPath)
  const exact = path.length <= LONGEST ? routes.get(`${method === 'HEAD' ? 'GET' : method} ${path}`) : undefined
  const id = exact ?? prefixes.find(([p]) => path.startsWith(p) && (method === 'GET' || method === 'HEAD'))?.[1]
  if (id) return id
  if (paths.has(path)) throw refuse(E.methodNotAllowed, 'path.method', { path, method })
  throw refuse(E.notFound, 'path.none', { path: rawPath })
}

export type Dispatch = (req: EngineRequest) => Promise<EngineResponse>

/**
 * Endpoints besides the reports that read the counted events (the held events, the columns), and
 * so wait for the log to be read. Hits need not: the ingest holds them (Ingest.exclusive).
 */
const READS_MEASUREMENT: ReadonlySet<EndpointId> = new Set(['measurement.status', 'simulate.run'])

const ENDPOINT_MOST = 'the most this endpoint reads'
const OPEN_MOST = `the most read before the access token is known: send it in the query or an Authorization header (a form may then hold up to ${FORM_BODY_BYTES} bytes)`

/**
 * How many body bytes a door may read for a request, decided before it reads any: none for a
 * path with no endpoint or a method it does not answer (the ApiError says so); for an endpoint
 * with a token, its limit only once a good token came in the query or the Authorization header
 * (refused before the body otherwise), except that a form may carry its token in the body, so a
 * form without one is read up to OPEN_BODY_BYTES; the token endpoint's form that much too. So a
 * caller without a token cannot make the server read and hold large bodies it then refuses.
 */
export function createAdmit(auth: Services['auth']): (req: Omit<EngineRequest, 'body'>) => Admitted {
  return (req) => {
    const def = endpoints[lookup(req.method, req.path)]
    if (def.method !== 'POST') return { bytes: 0, why: ENDPOINT_MOST }
    const most = def.body === 'text' ? MAX_BODY_BYTES : def.body === 'json' ? JSON_BODY_BYTES : FORM_BODY_BYTES
    if (def.auth === 'none') return def.body === 'text' ? { bytes: most, why: ENDPOINT_MOST } : { bytes: OPEN_BODY_BYTES, why: ENDPOINT_MOST }
    const token = tokenBeforeBody(req)
    // (a file or a JSON batch never carries the token: only a form's parameters are read for it)
    if (token === undefined && def.body !== 'text' && def.body !== 'json') return { bytes: OPEN_BODY_BYTES, why: OPEN_MOST }
    auth.authenticate(token, def.auth)
    return { bytes: most, why: ENDPOINT_MOST }
  }
}

function raw(r: RawResponse): EngineResponse {
  const text = typeof r.body === 'string'
  return { status: r.status, headers: { 'x-content-type-options': 'nosniff', ...r.headers }, body: text ? r.body : '', ...(text ? {} : { bytes: r.body }) }
}

/**
 * A handler's view of the request (made only when a handler runs, not for answers kept in a
 * cache). Written out member by member: spreading `services` cost more than the rest of a
 * tracking hit's dispatch (a fifth of its CPU in a profile); the type keeps the list complete.
 */
function ctxOf(s: Services, req: EngineRequest, user: Ctx['user'], parsed: { json: unknown; text: string }, today: string): Ctx {
  return {
    db: s.db, clock: s.clock, random: s.random, settings: s.settings, auth: s.auth, log: s.log, measure: s.measure, reports: s.reports, requests: s.requests, sync: s.sync,
    request: req, user, json: parsed.json, text: parsed.text, today,
  }
}

/** What dispatch needs of the persister (storage/persister.ts). */
export interface Durability {
  /** Resolves once every write so far is durable; rejects with the 507 refusal when one was refused. */
  durable(): Promise<void>
  /** Resolves once these writes (a request's) are durable; rejects with the 507 refusal when one was refused. */
  durableWrites(writes: readonly JournalWrite[]): Promise<void>
  /** While writes are refused (full disk), tries whether the disk takes them again. */
  writable(): Promise<boolean>
  /** The data directory, for the refusal of a write that failed outside the journal (the event log). */
  readonly location: string
}

/** One request, decoded, on its way to a handler. */
interface Call {
  req: EngineRequest
  id: EndpointId
  def: (typeof endpoints)[EndpointId]
  parsed: ReturnType<typeof parseRequest>
  user: Ctx['user']
  params: unknown
  opts: ResponseOptions
}

/** A failure to write in the data directory as the 507 refusal that names it (a full disk is no server_error). */
function refusalOf(err: unknown, storage: Durability): unknown {
  return !(err instanceof ApiError) && refusesWrites(err) ? storageRefusal(err, storage.location) : err
}

export function createDispatch(services: Services, handlers: Handlers, storage: Durability): Dispatch {
  // Metadata answers live until the next database write; reports until the next event too.
  const caches = { db: new ResponseCache(), measure: new ResponseCache() }
  const resultSets = new ResultSets()
  /**
   * Waits for the writes the request made (docs/storage.md "A full disk": a refused one answers
   * 507; a token is valid once issued, its record written when the disk can); a read's answer
   * holds only what the disk holds, so it also waits for the writes others made while it ran.
   */
  async function durable({ id, def }: Call, scope: WriteScope, version: number): Promise<void> {
    const own = storage.durableWrites(scope.close())
    if (id === 'oauth.token') return own.catch(() => undefined)
    await own
    if (def.method === 'GET' && def.auth !== 'none' && services.db.version !== version) await storage.durable()
  }

  // (a tracking hit writes the event log, never the database: it takes no scope, whose async
  // context costs about 1 us of a hit's 12: bench/probe.ts hits)
  const answer = (call: Call) => (call.id.startsWith('tracking.') ? answerIn(call, new WriteScope()) : withWrites((scope) => answerIn(call, scope)))

  async function answerIn(call: Call, scope: WriteScope): Promise<EngineResponse> {
    const { req, id, def, parsed, user, params, opts } = call
    const version = services.db.version
    // docs/sync.md "Server modes": a group may be answered by the remote or from its recordings
    // (tested here first: a tracking hit, in no group, does not wait for an answer of route())
    const routed = def.method === 'GET' && def.auth !== 'local' && modeGroupOf(id) !== null ? await services.sync.modes.route(id, def.path, parsed.params, services.settings.publicUrl) : null
    if (def.method === 'POST' && modeGroupOf(id) !== null) services.sync.modes.checkWrite(id)
    if (routed) {
      await durable(call, scope, version)
      return respond(200, routed.body, opts, { 'x-admonitor-source': routed.source, 'x-admonitor-profile-id': String(routed.profileId), 'x-admonitor-fetched-at': routed.fetchedAt })
    }
    // a report waits out a reading of the log, at start or in a rebuild (Measurement.settled)
    if (def.cache === 'measure' || READS_MEASUREMENT.has(id)) await services.measure.settled()
    const today = dateIn(services.settings.timeZone, services.clock.now())
    const handler = handlers[id] as ((ctx: Ctx, params: unknown) => unknown) & { paged?: true }
    const cacheVersion = def.cache === 'measure' ? `${services.db.version}|${services.measure.version}` : services.db.version
    if (handler.paged) {
      // Any page of a query already read is cut out of its result set (the cache of these
      // lists, keyed without the limit): no handler call, no response cache.
      const { limit, ...query } = params as { limit: Limit }
      const setKey = def.cache ? `${id}|${today}|${JSON.stringify(query)}` : ''
      const kept = setKey ? resultSets.get(setKey, cacheVersion) : undefined
      if (kept) return respondParts(200, resultSets.page(setKey, kept, limit), opts)
      // Synchronous (handler.ts paged()): no write can land between the ids and the first rows.
      const rows = handler(ctxOf(services, req, user, parsed, today), params) as PagedRows<unknown>
      if (!setKey) return respondParts(200, new ResultSet(rows).page(limit), opts)
      return respondParts(200, resultSets.page(setKey, resultSets.set(setKey, cacheVersion, rows), limit), opts)
    }
    const key = def.cache ? `${id}|${today}|${JSON.stringify(params)}` : ''
    const cache = def.cache === 'measure' ? caches.measure : caches.db
    const hit = key ? cache.get(key, cacheVersion) : undefined
    if (hit !== undefined) return hit.body === undefined ? respondParts(200, [hit.bytes], opts) : respond(200, hit.body, opts, {}, hit.bytes)
    const result = await handler(ctxOf(services, req, user, parsed, today), params)
    await durable(call, scope, version)
    if (result instanceof RawResponse) return raw(result)
    if (result instanceof JsonParts) {
      if (services.db.version === version && key) cache.setBytes(key, cacheVersion, result.parts)
      return respondParts(200, result.parts, opts)
    }
    const body = JSON.stringify(result)
    if (services.db.version === version && key) return respond(200, body, opts, {}, cache.set(key, cacheVersion, body).bytes)
    return respond(200, body, opts)
  }

  return async (req) => {
    const opts: ResponseOptions = { common: commonParams(req), noStore: false, ignored: [], problem: wantsProblem(req) }
    try {
      const id = lookup(req.method, req.path)
      const def = endpoints[id]
      opts.noStore = id === 'oauth.token'
      const parsed = parseRequest(req, def)
      // a POST body may carry them too (a GET's parameters are its query, read above)
      if (req.method === 'POST') opts.common = commonParams(req, parsed.params)
      const user = def.auth === 'none' ? null : services.auth.authenticate(parsed.token, def.auth)
      const { params, ignored } = def.rawParams ? { params: {}, ignored: [] } : decodeParams(def, parsed.params)
      opts.ignored = ignored
      const call: Call = { req, id, def, parsed, user, params, opts }
      // While the disk refuses writes, a POST first tries whether it takes them again: the first
      // write after space returns is taken (its transaction is refused before it starts otherwise).
      if (def.method === 'POST' && services.db.refused) await storage.writable()
      // A read (not a tracking hit) answers only what the disk holds: it waits for the writes in
      // flight, and runs again when one was refused (memory then went back to the disk).
      if (def.method !== 'GET' || def.auth === 'none') return await answer(call)
      for (let attempt = 1; ; attempt++) {
        try {
          await storage.durable()
          return await answer(call)
        } catch (err) {
          if (!(err instanceof ApiError && err.def === E.insufficientStorage) || attempt === 3) throw err
        }
      }
    } catch (err) {
      return respondError(refusalOf(err, storage), opts, services.log.error)
    }
  }
}
