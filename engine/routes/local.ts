// Local namespace (DESIGN §1): what the public API lacks, under /local/v1
import { ENGINE_NAME, ENGINE_VERSION } from '../version'
import { openApiDocument } from '../openapi'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import type { ServerStatus } from '../contract/models'
import { doorOf } from '../contract/envelope'
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
  storage: storageOf(ctx),
})

/** The status's storage member: the database's refusal first, else the event log's. */
function storageOf(ctx: Ctx): ServerStatus['storage'] {
  const refused = ctx.db.refused?.error ?? ctx.measure.refusal
  return { writable: refused === null, opened_read_only: ctx.db.refused?.atOpen ?? false, cause: refused?.extra.cause ?? '', path: refused?.extra.path ?? '' }
}

const openapi: Handler<'openapi.json'> = (ctx) => openApiDocument(ctx.settings.publicUrl)

const accountShow: Handler<'account.show'> = (ctx) => ctx.auth.account()

/**
 * Through the HTTP door the current password is asked again: a token is enough to call the API,
 * and one leaked with a script's URL must not let its holder replace the secrets and lock the owner
 * out. The desktop app's window (IPC) and the command line, on the
 * machine and the data directory itself, are the owner's already.
 */
const accountRotate: Handler<'account.rotate'> = async (ctx, p) => {
  if (doorOf(ctx.request) === 'http') await ctx.auth.confirmPassword(p.password)
  return ctx.auth.rotate(p.what, ctx.user?.token)
}

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
