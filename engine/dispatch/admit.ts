/** The body limits of a request, decided before a door reads its body (token before body). */
import { endpoints } from '../contract/endpoints'
import { FORM_BODY_BYTES, JSON_BODY_BYTES, MAX_BODY_BYTES, OPEN_BODY_BYTES, tokenBeforeBody, type Admitted } from '../request'
import type { EngineRequest } from '../contract/envelope'
import type { Services } from '../services'
import { lookup } from './routes'

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
    if (def.method !== 'POST') return { bytes: 0, why: 'endpoint' }
    const most = def.body === 'text' ? MAX_BODY_BYTES : def.body === 'json' ? JSON_BODY_BYTES : FORM_BODY_BYTES
    if (def.auth === 'none') return def.body === 'text' ? { bytes: most, why: 'endpoint' } : { bytes: OPEN_BODY_BYTES, why: 'endpoint' }
    const token = tokenBeforeBody(req)
    // (a file or a JSON batch never carries the token: only a form's parameters are read for it)
    if (token === undefined && def.body !== 'text' && def.body !== 'json') return { bytes: OPEN_BODY_BYTES, why: 'open' }
    auth.authenticate(token, def.auth)
    return { bytes: most, why: 'endpoint' }
  }
}
