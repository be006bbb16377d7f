// Local namespace (DESIGN §1): what the public API lacks, under /local/v1
import { ENGINE_NAME, ENGINE_VERSION } from '../version'
import { openApiDocument } from '../openapi'
import type { Handler } from '../runtime'
import { SCHEMA_VERSION } from '../storage/migrations'

const startedAt = new Date().toISOString()

const status: Handler<'local.status'> = (ctx) => ({
  name: ENGINE_NAME,
  version: ENGINE_VERSION,
  schema_version: SCHEMA_VERSION,
  time_zone: ctx.settings.timeZone,
  today: ctx.today,
  started_at: startedAt,
  base_url: ctx.settings.publicUrl,
})

const openapi: Handler<'openapi.json'> = (ctx) => openApiDocument(ctx.settings.publicUrl)

const accountShow: Handler<'account.show'> = (ctx) => ctx.auth.account()

const accountRotate: Handler<'account.rotate'> = (ctx, p) => ctx.auth.rotate(p.what, ctx.user?.token)

const signOut: Handler<'account.sign_out'> = (ctx) => ({ revoked: ctx.auth.revoke(ctx.user!.token) })

const requestsList: Handler<'requests.list'> = (ctx, p) => ctx.requests.after(p.after, p.limit)

export const localRoutes = {
  'local.status': status,
  'openapi.json': openapi,
  'account.show': accountShow,
  'account.rotate': accountRotate,
  'account.sign_out': signOut,
  'requests.list': requestsList,
}
