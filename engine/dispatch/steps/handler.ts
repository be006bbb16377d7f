/** The end of every chain: the endpoint's handler runs with its Ctx, and its result becomes the answer. */
import type { EngineResponse } from '../../contract/envelope'
import { JsonParts, RawResponse } from '../../answers'
import type { Ctx } from '../../context'
import type { Handlers } from '../../handler'
import { respond, respondParts } from '../../respond'
import type { Services } from '../../services'
import { todayOf } from '../answer-day'
import type { Call, Next } from '../call'

/**
 * A handler's view of the request (made only when a handler runs, not for answers kept in a
 * cache). Written out member by member: spreading `services` cost more than the rest of a
 * tracking hit's dispatch (a fifth of its CPU in a profile); the type keeps the list complete.
 */
function ctxOf(s: Services, call: Call): Ctx {
  const { req, user, parsed } = call
  return {
    db: s.db, clock: s.clock, random: s.random, settings: s.settings, auth: s.auth, log: s.log, measure: s.measure, reports: s.reports, requests: s.requests, sync: s.sync,
    request: req, user, json: parsed.json, text: parsed.text, today: todayOf(call, s),
  }
}

/** Calls the endpoint's handler with the call's Ctx and parameters (a paged one's result is not awaited). */
export function callHandler(s: Services, handlers: Handlers): (call: Call) => unknown {
  return (call) => (handlers[call.id] as (ctx: Ctx, params: unknown) => unknown)(ctxOf(s, call), call.params)
}

/** A raw answer's headers with nosniff first: as they are when the handler wrote it first (a tracking hit's, no copy a hit). */
const rawHeaders = (h: Record<string, string>): Record<string, string> => (h[NOSNIFF] === 'nosniff' ? h : { [NOSNIFF]: 'nosniff', ...h })
const NOSNIFF = 'x-content-type-options'

function raw(r: RawResponse): EngineResponse {
  if (typeof r.body === 'string') return { status: r.status, headers: rawHeaders(r.headers), body: r.body }
  return { status: r.status, headers: rawHeaders(r.headers), body: '', bytes: r.body }
}

/** The handler's result as the answer: raw as it is, JSON in the envelope (noted in `call.answer` for the answer cache). */
export function runHandler(handle: (call: Call) => unknown): Next {
  return async (call) => {
    const result = await handle(call)
    if (result instanceof RawResponse) {
      call.answer = undefined
      return raw(result)
    }
    if (result instanceof JsonParts) {
      call.answer = result.parts
      return respondParts(200, result.parts, call.opts)
    }
    const body = JSON.stringify(result)
    call.answer = body
    return respond(200, body, call.opts)
  }
}
