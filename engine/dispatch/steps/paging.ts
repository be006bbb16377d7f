/**
 * Paged lists (engine/result-sets.ts, docs/decisions.md "Paging from result sets"): any page of
 * a query already read is cut out of its result set, kept without the limit in its key: no
 * handler call, no answer cache. The step ends the chain of a paged endpoint: its handler only
 * reads, synchronously (handler.ts paged()), so no write can land between the ids and the first
 * rows, and the answer waits for no write.
 */
import type { Limit } from '../../contract/params'
import { respondParts } from '../../respond'
import { ResultSet, ResultSets, type PagedRows } from '../../result-sets'
import type { Services } from '../../services'
import { keptVersion, todayOf } from '../answer-day'
import type { Call, Step } from '../call'

/** The paging step; `handle` runs a paged handler, `resultSets` keeps the result sets. */
export function paging(s: Pick<Services, 'db' | 'measure' | 'settings' | 'clock'>, handle: (call: Call) => unknown, resultSets = new ResultSets()): Step {
  return {
    name: 'paging',
    applies: ({ paged }) => paged,
    async run(call) {
      const { id, def, params, opts } = call
      const { limit, ...query } = params as { limit: Limit }
      const today = todayOf(call, s)
      const version = keptVersion(def, s)
      const key = def.cache ? `${id}|${today}|${JSON.stringify(query)}` : ''
      const kept = key ? resultSets.get(key, version) : undefined
      if (kept) return respondParts(200, resultSets.page(key, kept, limit), opts)
      const rows = handle(call) as PagedRows<unknown>
      if (!key) return respondParts(200, new ResultSet(rows).page(limit), opts)
      return respondParts(200, resultSets.page(key, resultSets.set(key, version, rows), limit), opts)
    },
  }
}
