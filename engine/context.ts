/**
 * What a handler receives: the engine's services plus the request at hand. Time and
 * randomness come only from here (`clock`, `random`), so tests can fix them.
 */
import type { AuthUser } from './auth/token-service'
import type { EngineRequest } from './contract/envelope'
import type { Services } from './services'

/** A handler's view of one request. */
export interface Ctx extends Services {
  request: EngineRequest
  /** The caller, for endpoints that need a token. */
  user: AuthUser | null
  /** The parsed JSON body, for endpoints that take one. */
  json: unknown
  /** The raw body of 'text' endpoints (file uploads). */
  text: string
  /** Today's date (YYYY-MM-DD) in the engine time zone. */
  today: string
}
