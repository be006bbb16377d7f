/** The handler of an endpoint, and the table of every endpoint's handler. */
import type { EndpointId, ParamsFor, ResultOf } from './contract/endpoints'
import type { JsonParts, RawResponse } from './answers'
import type { Ctx } from './context'
import type { PagedRows } from './result-sets'

type RowOf<K extends EndpointId> = ResultOf<K> extends readonly (infer R)[] ? R : never
type Answer<K extends EndpointId> = ResultOf<K> | JsonParts<ResultOf<K>> | RawResponse | PagedRows<RowOf<K>>

export type Handler<K extends EndpointId> = ((ctx: Ctx, params: ParamsFor<K>) => Answer<K> | Promise<Answer<K>>) & { paged?: true }

/**
 * A list handler answered page by page from its whole result set (engine/result-sets.ts): it
 * returns every matching id and a row builder, and is not called again for another page of the
 * same query. Its params must have a `limit`.
 */
export function paged<K extends EndpointId>(fn: (ctx: Ctx, params: ParamsFor<K>) => PagedRows<RowOf<K>>): Handler<K> {
  return Object.assign(fn, { paged: true as const })
}

/** One handler per endpoint; the mapped type makes a missing or extra handler a compile error. */
export type Handlers = { [K in EndpointId]: Handler<K> }
