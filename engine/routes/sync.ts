// Local namespace: sync with the real service (DESIGN §4, docs/sync.md)
import { badRequest } from '../contract/errors'
import type { Ctx } from '../context'
import type { EndpointId } from '../contract/endpoints'
import type { Handler } from '../handler'
import { forClient } from '../respond'
import { listCampaigns, listRecords, showCampaign } from '../sync/browse'
import { checkName, deleteProfile, insertProfile, listProfiles, normalizeBase, requireProfile, toProfile, updateProfile } from '../sync/profiles'
import { isSelf } from '../sync/modes'
import { toStatus } from '../sync/pull-state'
import { listSnapshots, pullSnapshots, showSnapshot, snapshotRequest } from '../sync/snapshots'

/** The engine clock's now, as the ISO text stored in the sync tables. */
export const nowIso = (ctx: { clock: { now(): number } }) => new Date(ctx.clock.now()).toISOString()
const origin = (url: string) => new URL(url).origin

const profilesList: Handler<'sync.profiles_list'> = (ctx) => listProfiles(ctx.db).map((r) => toProfile(ctx.db, r, ctx.sync.vault))

/**
 * The secrets go to the vault first (durably), under a new entry: a profile row never names a
 * missing entry, and a row change the disk refuses leaves the entry it named as it was.
 */
const profilesCreate: Handler<'sync.profiles_create'> = async (ctx, p) => {
  const base_url = normalizeBase(p.base_url, 'base_url')
  const auth_url = normalizeBase(p.auth_url ?? origin(base_url), 'auth_url')
  checkName(ctx.db, p.name, 0)
  const ref = ctx.sync.newRef()
  await ctx.sync.vault.put(ref, { password: p.password, client_secret: p.client_secret })
  try {
    const row = insertProfile(ctx.db, { name: p.name, base_url, auth_url, username: p.username, client_id: p.client_id }, ref, nowIso(ctx))
    await ctx.sync.durable()
    return toProfile(ctx.db, row, ctx.sync.vault)
  } catch (err) {
    await dropSecrets(ctx, ref)
    throw err
  }
}

/** Removes a vault entry no durable row names; one left (the disk refused) is dropped at the next start. */
const dropSecrets = (ctx: Ctx, ref: string): Promise<void> => ctx.sync.vault.remove(ref).catch(() => undefined)

const profilesUpdate: Handler<'sync.profiles_update'> = async (ctx, p) => {
  const row = requireProfile(ctx.db, p.profile_id)
  const base_url = p.base_url === undefined ? undefined : normalizeBase(p.base_url, 'base_url')
  // an auth_url that was the default follows base_url to its new origin
  const followed = base_url !== undefined && row.auth_url === origin(row.base_url) ? origin(base_url) : undefined
  const auth_url = p.auth_url === undefined ? followed : normalizeBase(p.auth_url, 'auth_url')
  if (p.name !== undefined) checkName(ctx.db, p.name, row.profile_id)
  const forwarding = base_url !== undefined && isSelf(base_url, ctx.settings.publicUrl) ? ctx.sync.modes.forwardingTo(row.profile_id) : []
  if (forwarding.length > 0) throw badRequest(forwarding.length > 1 ? 'sync.selfForwardedMany' : 'sync.selfForwarded', { param: 'base_url', url: ctx.settings.publicUrl, groups: forwarding.join(', '), profile: row.name })
  // a pull or push under way talks to what the profile named when it started
  // the secrets first: a key file that cannot be used refuses the update before the profile changes
  const newSecrets = p.password !== undefined || p.client_secret !== undefined
  const ref = newSecrets ? ctx.sync.newRef() : row.secret_ref
  if (newSecrets) await ctx.sync.vault.put(ref, { password: p.password, client_secret: p.client_secret }, row.secret_ref)
  if (p.base_url ?? p.auth_url ?? p.username ?? p.client_id) await ctx.sync.cancel(row.profile_id)
  try {
    const next = updateProfile(ctx.db, row, { name: p.name, base_url, auth_url, username: p.username, client_id: p.client_id }, nowIso(ctx), ref)
    await ctx.sync.durable()
    if (newSecrets) await dropSecrets(ctx, row.secret_ref)
    return toProfile(ctx.db, next, ctx.sync.vault)
  } catch (err) {
    if (newSecrets) await dropSecrets(ctx, ref)
    throw err
  }
}

const profilesDelete: Handler<'sync.profiles_delete'> = async (ctx, p) => {
  const row = requireProfile(ctx.db, p.profile_id)
  await ctx.sync.cancel(row.profile_id)
  deleteProfile(ctx.db, row.profile_id)
  await ctx.sync.durable()
  ctx.sync.forget(row.profile_id)
  await dropSecrets(ctx, row.secret_ref)
  return { profile_id: String(row.profile_id) }
}

const profilesTest: Handler<'sync.profiles_test'> = (ctx, p) => ctx.sync.test(requireProfile(ctx.db, p.profile_id))

const pullStart: Handler<'sync.pull_start'> = async (ctx, p) => {
  const run = ctx.sync.pulls.start(requireProfile(ctx.db, p.profile_id).profile_id, p.fresh)
  if (p.wait) await ctx.sync.pulls.wait(run.profile_id)
  return toStatus(run, run.profile_id)
}

const pullStatus: Handler<'sync.pull_status'> = (ctx, p) => ctx.sync.pulls.status(requireProfile(ctx.db, p.profile_id).profile_id)

const pullCancel: Handler<'sync.pull_cancel'> = async (ctx, p) => {
  const id = requireProfile(ctx.db, p.profile_id).profile_id
  await ctx.sync.pulls.cancel(id)
  return ctx.sync.pulls.status(id)
}

const pullsList: Handler<'sync.pulls_list'> = (ctx, p) => ctx.sync.pulls.history(requireProfile(ctx.db, p.profile_id).profile_id)

const campaignsList: Handler<'sync.campaigns_list'> = (ctx, p) => listCampaigns(ctx.db, requireProfile(ctx.db, p.profile_id).profile_id, p.campaign_name, p.limit)

const campaignsShow: Handler<'sync.campaigns_show'> = (ctx, p) => showCampaign(ctx.db, requireProfile(ctx.db, p.profile_id).profile_id, p.campaign_id.trim())

const recordsList: Handler<'sync.records_list'> = (ctx, p) =>
  listRecords(ctx.db, requireProfile(ctx.db, p.profile_id).profile_id, { kind: p.kind, name: p.name, parent_id: p.parent_id, limit: p.limit })

const snapshotsPull: Handler<'sync.snapshots_pull'> = (ctx, p) => {
  const profile = requireProfile(ctx.db, p.profile_id)
  const req = snapshotRequest(p.report, p.params, p.to_date)
  return pullSnapshots(ctx.db, ctx.sync.requestClient(profile), profile.profile_id, p.report, req, () => nowIso(ctx))
}

const snapshotsList: Handler<'sync.snapshots_list'> = (ctx, p) =>
  listSnapshots(ctx.db, requireProfile(ctx.db, p.profile_id).profile_id, { report: p.report, campaign_id: p.campaign_id, limit: p.limit })

const snapshotsShow: Handler<'sync.snapshots_show'> = (ctx, p) => showSnapshot(ctx.db, p.snapshot_id)

/** `h` with its answer's `message_problem` members (engine/sync/said.ts) told only to a client that asks for problems. */
export const telling = <K extends EndpointId>(h: Handler<K>): Handler<K> => (ctx, p) => {
  const a = h(ctx, p)
  return a instanceof Promise ? a.then((x) => forClient(ctx.request, x)) : forClient(ctx.request, a)
}

export const syncRoutes = {
  'sync.profiles_list': profilesList,
  'sync.profiles_create': profilesCreate,
  'sync.profiles_update': profilesUpdate,
  'sync.profiles_delete': profilesDelete,
  'sync.profiles_test': telling(profilesTest),
  'sync.pull_start': telling(pullStart),
  'sync.pull_status': telling(pullStatus),
  'sync.pull_cancel': telling(pullCancel),
  'sync.pulls_list': telling(pullsList),
  'sync.campaigns_list': campaignsList,
  'sync.campaigns_show': campaignsShow,
  'sync.records_list': recordsList,
  'sync.snapshots_pull': snapshotsPull,
  'sync.snapshots_list': snapshotsList,
  'sync.snapshots_show': snapshotsShow,
}
