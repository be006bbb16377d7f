// Local namespace: the outbox and pushes to the real service, and the server modes (DESIGN §4,
// docs/sync.md "Push", "Server modes")
import type { Handler } from '../handler'
import { addOps, deleteOp, editOp, listOps, requireOp, resolveOp, toOp } from '../sync/outbox'
import { chooseOp } from '../sync/outbox-choose'
import { requireProfile } from '../sync/profiles'
import { pushStatus } from '../sync/push-jobs'
import { nowIso, telling } from './sync'

const profileOf = (ctx: Parameters<Handler<'sync.push_status'>>[0], id: string) => requireProfile(ctx.db, id).profile_id

const outboxList: Handler<'sync.outbox_list'> = (ctx, p) => listOps(ctx.db, profileOf(ctx, p.profile_id), p.state).map((r) => toOp(ctx.db, r))

const outboxShow: Handler<'sync.outbox_show'> = (ctx, p) => toOp(ctx.db, requireOp(ctx.db, p.op_id))

const outboxAdd: Handler<'sync.outbox_add'> = (ctx, p) =>
  addOps(ctx.db, { ...p, profile_id: profileOf(ctx, p.profile_id) }, nowIso(ctx)).map((r) => toOp(ctx.db, r))

const outboxUpdate: Handler<'sync.outbox_update'> = (ctx, p) => toOp(ctx.db, editOp(ctx.db, requireOp(ctx.db, p.op_id), p.params, nowIso(ctx)))

const outboxDelete: Handler<'sync.outbox_delete'> = (ctx, p) => {
  const row = requireOp(ctx.db, p.op_id)
  ctx.db.tx(() => deleteOp(ctx.db, row.op_id))
  return { op_id: String(row.op_id) }
}

const outboxResolve: Handler<'sync.outbox_resolve'> = (ctx, p) => {
  const row = requireOp(ctx.db, p.op_id)
  const next = p.action === 'choose' ? chooseOp(ctx.db, row, p.params, nowIso(ctx)) : resolveOp(ctx.db, row, p.action, p.params, nowIso(ctx))
  return { op_id: String(row.op_id), dropped: next === null, op: next === null ? null : toOp(ctx.db, next) }
}

const pushStart: Handler<'sync.push_start'> = async (ctx, p) => {
  const run = ctx.sync.pushes.start(profileOf(ctx, p.profile_id))
  if (p.wait) await ctx.sync.pushes.wait(run.profile_id)
  return pushStatus(run, run.profile_id)
}

const pushStatusRoute: Handler<'sync.push_status'> = (ctx, p) => ctx.sync.pushes.status(profileOf(ctx, p.profile_id))

const pushCancel: Handler<'sync.push_cancel'> = async (ctx, p) => {
  const id = profileOf(ctx, p.profile_id)
  await ctx.sync.pushes.cancel(id)
  return ctx.sync.pushes.status(id)
}

const modesList: Handler<'sync.modes_list'> = (ctx) => ctx.sync.modes.list()

const modesSet: Handler<'sync.modes_set'> = (ctx, p) => {
  ctx.sync.modes.set(p.group, p.mode, p.profile_id, ctx.settings.publicUrl)
  return ctx.sync.modes.list()
}

const pushesList: Handler<'sync.pushes_list'> = (ctx, p) => ctx.sync.pushes.history(profileOf(ctx, p.profile_id))

export const syncPushRoutes = {
  'sync.outbox_list': telling(outboxList),
  'sync.outbox_show': telling(outboxShow),
  'sync.outbox_add': telling(outboxAdd),
  'sync.outbox_update': telling(outboxUpdate),
  'sync.outbox_delete': outboxDelete,
  'sync.outbox_resolve': telling(outboxResolve),
  'sync.push_start': telling(pushStart),
  'sync.push_status': telling(pushStatusRoute),
  'sync.push_cancel': telling(pushCancel),
  'sync.pushes_list': telling(pushesList),
  'sync.modes_list': modesList,
  'sync.modes_set': modesSet,
}
