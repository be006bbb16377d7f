/**
 * The one function every door calls: lookup -> parse -> auth -> decode, then the endpoint's chain
 * of steps (the policies, each in engine/dispatch/steps/) -> handler -> envelope. Only here are
 * errors caught; nothing is thrown back to a door.
 */
import { ApiError } from './contract/errors'
import { endpoints, type EndpointId } from './contract/endpoints'
import type { EngineRequest, EngineResponse } from './contract/envelope'
import { commonParams, decodeParams, parseRequest } from './request'
import { respondError, wantsProblem, type ResponseOptions } from './respond'
import type { Handlers } from './handler'
import type { Services } from './services'
import { refusesWrites, storageRefusal } from './storage/refusal'
import { chainOf, type Call, type Durability, type Next, type Route, type Step } from './dispatch/call'
import { lookup } from './dispatch/routes'
import { probeWrites, retryReads } from './dispatch/steps/full-disk'
import { awaitWrites, waitForWrites, writeScope } from './dispatch/steps/durability'
import { syncModes } from './dispatch/steps/sync-modes'
import { measureWait } from './dispatch/steps/measure-wait'
import { paging } from './dispatch/steps/paging'
import { answerCache } from './dispatch/steps/answer-cache'
import { callHandler, runHandler } from './dispatch/steps/handler'

export { createAdmit } from './dispatch/admit'
export type { Durability } from './dispatch/call'

export type Dispatch = (req: EngineRequest) => Promise<EngineResponse>

/**
 * The steps of an answer, outermost first (docs/architecture.md "How a request flows" says why
 * in this order). Each passes only the calls of the endpoints it applies to; `handle` runs a
 * call's handler.
 */
export function dispatchSteps(services: Services, handle: (call: Call) => unknown, storage: Durability): Step[] {
  const wait = waitForWrites(services.db, storage)
  return [
    probeWrites(services.db, storage),
    retryReads(storage),
    writeScope(services.db),
    syncModes(services, wait),
    measureWait(services.measure),
    paging(services, handle),
    answerCache(services),
    awaitWrites(wait),
  ]
}

/** What the steps know of endpoint `id` when its chain is made. */
export const routeOf = (id: EndpointId, handlers: Handlers): Route => ({ id, def: endpoints[id], paged: (handlers[id] as { paged?: true }).paged === true })

/** A failure to write in the data directory as the 507 refusal that names it (a full disk is no server_error). */
function refusalOf(err: unknown, storage: Durability): unknown {
  return !(err instanceof ApiError) && refusesWrites(err) ? storageRefusal(err, storage.location) : err
}

/** The dispatch of an engine: every endpoint's chain made once, then one call per request. */
export function createDispatch(services: Services, handlers: Handlers, storage: Durability): Dispatch {
  const handle = callHandler(services, handlers)
  const steps = dispatchSteps(services, handle, storage)
  const end = runHandler(handle)
  const chains = new Map<EndpointId, Next>()
  for (const id of Object.keys(endpoints) as EndpointId[]) chains.set(id, chainOf(routeOf(id, handlers), steps, end))
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
      return await chains.get(id)!({ req, id, def, parsed, user, params, opts, scope: undefined, version: 0, today: undefined, answer: undefined })
    } catch (err) {
      return respondError(refusalOf(err, storage), opts, services.log.error)
    }
  }
}
