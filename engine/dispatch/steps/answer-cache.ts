/**
 * The answer cache (engine/response-cache.ts): a GET whose endpoint is `cache`d answers what an
 * earlier call with the same parameters, on the same day, answered at the same version: metadata
 * until the next database write, reports (`cache: 'measure'`) until the next counted event too.
 * An answer is kept only when no write landed while it was made.
 */
import type { EngineResponse } from '../../contract/envelope'
import { respond, respondParts, type ResponseOptions } from '../../respond'
import { ResponseCache, type CachedBody } from '../../response-cache'
import type { Services } from '../../services'
import { keptVersion, todayOf } from '../answer-day'
import type { Step } from '../call'

/** The kept answer sent again: its bytes as they are (JSONP wraps its text). */
function answerKept(kept: CachedBody, opts: ResponseOptions): EngineResponse {
  return kept.body === undefined ? respondParts(200, [kept.bytes], opts) : respond(200, kept.body, opts, {}, kept.bytes)
}

/** The answer cache step; `caches` holds the kept answers (one per kind of version). */
export function answerCache(s: Pick<Services, 'db' | 'measure' | 'settings' | 'clock'>, caches = { db: new ResponseCache(), measure: new ResponseCache() }): Step {
  return {
    name: 'answer cache',
    applies: ({ def, paged }) => Boolean(def.cache) && !paged,
    async run(call, next) {
      const { id, def, params, opts } = call
      const cache = def.cache === 'measure' ? caches.measure : caches.db
      const today = todayOf(call, s)
      const version = keptVersion(def, s)
      const key = `${id}|${today}|${JSON.stringify(params)}`
      const kept = cache.get(key, version)
      if (kept !== undefined) return answerKept(kept, opts)
      const res = await next(call)
      const { answer } = call
      if (s.db.version !== call.version || answer === undefined) return res
      if (typeof answer === 'string') return respond(200, answer, opts, {}, cache.set(key, version, answer).bytes)
      cache.setBytes(key, version, answer)
      return res
    },
  }
}
