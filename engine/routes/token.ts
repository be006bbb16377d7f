// spec §4.1 and §5: the token endpoint (password grant; the other grants are marked unavailable)
import type { Handler } from '../runtime'
import { basicCredentials } from '../request'

const token: Handler<'oauth.token'> = (ctx, p) => {
  // RFC 6749 §2.3.1: client credentials may also come in an Authorization: Basic header.
  const basic = p.client_id === undefined ? basicCredentials(ctx.request) : null
  return ctx.auth.token({ ...p, ...(basic ?? {}) }, ctx.request.remoteAddress)
}

export const tokenRoutes = { 'oauth.token': token }
