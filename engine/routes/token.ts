// spec §4.1 and §5: the token endpoint (password grant; the other grants are marked unavailable)
import type { Handler } from '../handler'
import { badRequest } from '../contract/errors'
import { basicCredentials } from '../request'

const token: Handler<'oauth.token'> = (ctx, p) => {
  // RFC 6749 §2.3.1: client credentials may also come in an Authorization: Basic header. A client
  // sending them both ways (some HTTP libraries add the header) is served when the two agree, and
  // told which part differs when they do not (never that client_id and client_secret are
  // required, both having been sent).
  const basic = basicCredentials(ctx.request)
  if (basic) {
    for (const name of ['client_id', 'client_secret'] as const) {
      if (p[name] !== undefined && p[name] !== basic[name]) throw badRequest('auth.credentialsTwice', { param: name })
    }
  }
  return ctx.auth.token({ ...p, ...(basic ?? {}) }, ctx.request.remoteAddress)
}

export const tokenRoutes = { 'oauth.token': token }
