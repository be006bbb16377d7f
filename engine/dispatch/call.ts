/**
 * A request on its way through dispatch's steps, and how steps are composed: each policy is a
 * step `(call, next) => response` (Hono's middleware) that answers itself or passes the call on.
 * Each endpoint gets its own chain, made once, of the steps that apply to it: a tracking hit's
 * chain holds only what a tracking hit needs.
 */
import type { EndpointId } from '../contract/endpoints'
import type { EndpointDef } from '../contract/endpoint'
import type { EngineRequest, EngineResponse } from '../contract/envelope'
import type { Ctx } from '../context'
import type { ParsedRequest } from '../request'
import type { ResponseOptions } from '../respond'
import type { JournalWrite, WriteScope } from '../storage/persister-writes'

/** One request, decoded, on its way to its handler. */
export interface Call {
  readonly req: EngineRequest
  readonly id: EndpointId
  readonly def: EndpointDef
  readonly parsed: ParsedRequest
  readonly user: Ctx['user']
  readonly params: unknown
  readonly opts: ResponseOptions
  /** The writes of this answer (steps/durability.ts writeScope); none for a tracking hit. */
  scope: WriteScope | undefined
  /** The database version when the answer began (set with `scope`). */
  version: number
  /** The date the answer is for, once a step or the handler asked (dispatch/answer-day.ts). */
  today: string | undefined
  /** What the handler answered as JSON, for the answer cache: its text or its UTF-8 pieces. */
  answer: string | readonly Uint8Array[] | undefined
}

/** The call as it starts its way (or starts again: steps/full-disk.ts retryReads). */
export const fresh = (call: Call): Call => ({ ...call, scope: undefined, version: 0, today: undefined, answer: undefined })

/** The rest of the chain. */
export type Next = (call: Call) => Promise<EngineResponse>

/** What a step knows of an endpoint when chains are made. */
export interface Route {
  readonly id: EndpointId
  readonly def: EndpointDef
  /** The handler answers page by page from a result set (handler.ts paged()). */
  readonly paged: boolean
}

/** One policy of dispatch. */
export interface Step {
  /** Its name, as docs/architecture.md "How a request flows" lists the steps. */
  readonly name: string
  /** Whether the endpoint's calls pass this step. */
  applies(route: Route): boolean
  /** Answers the call itself, or passes it on with `next`. */
  run(call: Call, next: Next): Promise<EngineResponse>
}

/** The chain of `route`: the steps that apply to it, outermost first, then `end`. */
export function chainOf(route: Route, steps: readonly Step[], end: Next): Next {
  return steps.filter((s) => s.applies(route)).reduceRight<Next>((next, s) => (call) => s.run(call, next), end)
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
