/**
 * The outbox of a profile (docs/sync.md "Push"): pending operations, each self-contained (its
 * parameters are copied from the local draft when it is queued), and the map of local ids to the
 * remote ids pushes created. An update remembers the pulled record it started from (`base`) so
 * the push can tell whether the remote changed since.
 */
import { sameFieldValue, type OutboxKind, type OutboxOpName, type OutboxState } from '../contract/endpoints-sync-push'
import { badRequest } from '../contract/errors'
import type { Db } from '../storage/db'
import { deleteOpRow, insertPendingOp, opById, opOfLocal, opsOf, remoteIdOf, updateOpColumns, upsertIdMap, type OpRow } from '../storage/repos/sync-outbox'
import { recordByRemoteId } from '../storage/repos/sync-records'
import { spotIdsOfCampaign } from '../storage/repos/spots'
import { targetIdsOfCampaign } from '../storage/repos/targets'
import {
  RECORD_NAME, campaignCreateParams, campaignUpdateParams, checkParams, endpointOf, localCampaign, localSpot, localTarget, mergeParams, nameOf, spotCreateParams, spotUpdateParams, type Params,
} from './outbox-params'
import { changedOnly, sendsOf } from './outbox-diff'
import { namedRefs, type RefChoice } from './outbox-refs'
import { messageColumns, problemMember } from './said'

export type { OpRow } from '../storage/repos/sync-outbox'

export interface FieldDiff {
  name: string
  local: unknown
  base: unknown
  remote: unknown
}
/** What `conflict` holds: the fields, and the remote record now (the new base if the user keeps theirs). */
export interface ConflictInfo {
  fields: FieldDiff[]
  remote: unknown
  hash: string
}

/** What `conflict` holds in the `choose` state: the references to choose. */
export interface ChoiceInfo {
  choices: RefChoice[]
}

export const paramsOf = (r: OpRow): Params => JSON.parse(r.params) as Params

/** The conflict of an operation in conflict, null otherwise. */
const conflictOf = (r: OpRow): ConflictInfo | null => (r.state === 'conflict' && r.conflict !== '' ? (JSON.parse(r.conflict) as ConflictInfo) : null)

/** The references an operation in the `choose` state waits for. */
export const choicesOf = (r: OpRow): RefChoice[] => (r.state === 'choose' && r.conflict !== '' ? ((JSON.parse(r.conflict) as ChoiceInfo).choices ?? []) : [])

export function toOp(db: Db, r: OpRow) {
  return {
    op_id: String(r.op_id), profile_id: String(r.profile_id), kind: r.kind, op: r.op, local_id: r.local_id, parent_local_id: r.parent_local_id,
    parent_remote_id: r.parent_remote_id, remote_id: r.remote_id, name: r.name, params: paramsOf(r), state: r.state, step: r.step,
    attempts: r.attempts, problem: r.problem, message: r.message, ...problemMember(r.message_problem), conflict: conflictOf(r)?.fields ?? [], choices: choicesOf(r), sends: sendsOf(db, r),
    created_at: r.created_at, updated_at: r.updated_at,
  }
}

/** Operations of a profile in the order a push sends them: campaigns, then spots, then targets. */
export const listOps = (db: Db, profileId: number, state?: OutboxState): OpRow[] => opsOf(db, profileId, state)

export function requireOp(db: Db, opId: string | number): OpRow {
  const row = opById(db, Number(opId))
  if (!row) throw badRequest('outbox.noOp', { param: 'op_id', id: String(opId) })
  return row
}

export const mappedId = (db: Db, profileId: number, kind: OutboxKind, localId: string): string | undefined =>
  localId === '' ? undefined : remoteIdOf(db, profileId, kind, localId)

/** Records what a push created; `localId` is the local record, or `op:N` for an operation without one. */
export function mapId(db: Db, profileId: number, kind: OutboxKind, localId: string, remoteId: string, now: string): void {
  upsertIdMap(db, profileId, kind, localId, remoteId, now)
}

/** Sets columns of an operation (inside the caller's transaction or its own). */
export function patchOp(db: Db, opId: number, cols: Partial<Omit<OpRow, 'op_id' | 'profile_id'>>, now: string): void {
  updateOpColumns(db, opId, { ...cols, updated_at: now })
}

export interface AddInput {
  profile_id: number
  kind: OutboxKind
  op: OutboxOpName
  local_id?: string | undefined
  remote_id?: string | undefined
  campaign_id?: string | undefined
  params?: string | undefined
  with_children: boolean
}

interface NewOp extends Pick<OpRow, 'kind' | 'op' | 'local_id' | 'parent_local_id' | 'parent_remote_id' | 'remote_id'> {
  params: Params
  base: { record: string; hash: string } | null
}

/** The pulled copy an update starts from (the record as the remote last answered it), and its parent. */
function pulledBase(db: Db, profileId: number, kind: OutboxKind, remoteId: string): Pick<NewOp, 'parent_remote_id' | 'base'> {
  const row = recordByRemoteId(db, profileId, kind, remoteId)
  if (!row) throw badRequest('outbox.notPulled', { param: remoteId === '' ? 'local_id' : 'remote_id', kind, id: remoteId })
  return { parent_remote_id: row.parent_id, base: { record: row.record, hash: row.hash } }
}

/** The local record's operation(s); a campaign create brings its spots and targets along. */
function fromLocal(db: Db, a: AddInput, localId: string): NewOp[] {
  const pushed = mappedId(db, a.profile_id, a.kind, localId)
  if (a.op === 'create' && pushed !== undefined) throw badRequest('outbox.pushedAlready', { param: 'local_id', kind: a.kind, id: pushed })
  if (a.op === 'update' && pushed === undefined) throw badRequest('outbox.notPushed', { param: 'local_id' })
  const blank = { kind: a.kind, op: a.op, local_id: localId, parent_local_id: '', parent_remote_id: '', remote_id: pushed ?? '', base: null }
  if (a.kind === 'campaign') {
    const c = localCampaign(db, localId)
    // a local record's reference ids are local: queued as the names the remote knows them by
    if (a.op === 'update') return [{ ...blank, params: namedRefs(db, mergeParams(campaignUpdateParams(c), a.params)) }]
    const own: NewOp = { ...blank, params: namedRefs(db, mergeParams(campaignCreateParams(c), a.params)) }
    if (!a.with_children) return [own]
    const spots = spotIdsOfCampaign(db, Number(c.campaign_id))
    const targets = targetIdsOfCampaign(db, Number(c.campaign_id))
    return [own, ...spots.flatMap((s) => fromLocal(db, { ...a, kind: 'spot', params: undefined }, String(s))), ...targets.flatMap((t) => fromLocal(db, { ...a, kind: 'target', params: undefined }, String(t)))]
  }
  if (a.kind === 'spot') {
    const s = localSpot(db, localId)
    const params = mergeParams(a.op === 'create' ? spotCreateParams(db, s) : spotUpdateParams(s), a.params)
    return [{ ...blank, parent_local_id: String(s.campaign_id), params }]
  }
  const t = localTarget(db, localId)
  return [{ ...blank, parent_local_id: String(t.campaign_id), params: mergeParams({ target_name: t.target_name, tag_id: t.tag_id }, a.params) }]
}

/** An operation on a pulled record or with parameters given in full (no local record). */
function fromParams(db: Db, a: AddInput): NewOp {
  if (a.params === undefined) throw badRequest('outbox.needParams', { param: 'params' })
  const params = mergeParams({}, a.params)
  const blank = { kind: a.kind, op: a.op, local_id: '', parent_local_id: '', parent_remote_id: '', remote_id: '', params, base: null }
  if (a.op === 'update') {
    const remoteId = (a.remote_id ?? '').trim()
    if (remoteId === '') throw badRequest('outbox.needRemoteId', { param: 'remote_id' })
    return { ...blank, remote_id: remoteId, ...pulledBase(db, a.profile_id, a.kind, remoteId) }
  }
  if (a.kind === 'campaign') return blank
  const parent = (a.campaign_id ?? '').trim()
  if (parent === '') throw badRequest('outbox.needCampaign', { param: 'campaign_id', kind: a.kind })
  return { ...blank, parent_remote_id: parent }
}

/**
 * Queues operations; queuing a local record again refreshes the parameters of its waiting
 * operation (unless it is being sent, whose outcome the next push must settle first), and drops
 * a waiting update when the record no longer differs from its pulled copy (none queued then).
 */
export function addOps(db: Db, a: AddInput, now: string): OpRow[] {
  endpointOf(a.kind, a.op) // refuses what the service has no endpoint for, before anything else
  const local = a.local_id === undefined ? undefined : String(a.local_id)
  const ops = local === undefined ? [fromParams(db, a)] : fromLocal(db, a, local)
  for (const o of ops) {
    checkParams(o.kind, o.op, o.params)
    if (o.op === 'update' && o.base === null && o.remote_id !== '') Object.assign(o, pulledBase(db, a.profile_id, o.kind, o.remote_id))
    // an update read from a local record sends what differs from the pulled copy it starts from
    if (o.op === 'update' && o.local_id !== '' && o.base !== null) {
      o.params = changedOnly(o.kind, o.params, JSON.parse(o.base.record) as Record<string, unknown>)
    }
  }
  return db.tx(() => ops.flatMap((o) => {
    const same = o.local_id === '' ? undefined : opOfLocal(db, a.profile_id, o.kind, o.op, o.local_id)
    if (same?.state === 'sending') throw badRequest('outbox.sendingQueue', { param: 'local_id', id: String(same.op_id) })
    if (Object.keys(o.params).length === 0) {
      // the record is back to its pulled copy: the update waiting for it would send an older edit
      if (!same) throw badRequest('outbox.noDiff', { param: 'local_id', kind: o.kind, id: o.remote_id })
      deleteOp(db, same.op_id)
      return []
    }
    const cols = {
      parent_local_id: o.parent_local_id, parent_remote_id: o.parent_remote_id, remote_id: o.remote_id, name: nameOf(o.kind, o.params), params: JSON.stringify(o.params),
      base: o.base?.record ?? '', base_hash: o.base?.hash ?? '', state: 'pending' as const, problem: '', ...messageColumns(''), conflict: '',
    }
    if (same) {
      patchOp(db, same.op_id, cols, now)
      return [requireOp(db, same.op_id)]
    }
    const id = insertPendingOp(db, {
      profile_id: a.profile_id, kind: o.kind, op: o.op, local_id: o.local_id, parent_local_id: cols.parent_local_id, parent_remote_id: cols.parent_remote_id,
      remote_id: cols.remote_id, name: cols.name, params: cols.params, base: cols.base, base_hash: cols.base_hash,
    }, now)
    return [requireOp(db, id)]
  }))
}

/** The operation's parameters with `text` merged over them and checked, as the columns to write. */
function mergedParams(row: OpRow, text: string | undefined): Pick<OpRow, 'params' | 'name'> {
  const params = mergeParams(paramsOf(row), text)
  checkParams(row.kind, row.op, params)
  return { params: JSON.stringify(params), name: nameOf(row.kind, params) || row.name }
}

/** Deletes an operation (inside the caller's transaction). */
export const deleteOp = (db: Db, opId: number): void => deleteOpRow(db, opId)

/** Edits the parameters of an operation; a failed one goes back to pending. */
export function editOp(db: Db, row: OpRow, text: string, now: string): OpRow {
  if (row.state === 'sending') throw badRequest('outbox.sendingEdit', { param: 'op_id' })
  const cols = mergedParams(row, text)
  db.tx(() => patchOp(db, row.op_id, { ...cols, ...(row.state === 'conflict' ? {} : { state: 'pending' as const, problem: '', ...messageColumns('') }) }, now))
  return requireOp(db, row.op_id)
}

/**
 * What keep_mine sends of a conflict: the members the user changed, not those whose value is the
 * last pull's while the remote changed it (sending them would set the remote's change back). A
 * campaign's dates go as a pair: the one the user left keeps the remote's value.
 */
export function ownChanges(kind: OutboxKind, params: Params, fields: readonly FieldDiff[]): Params {
  const byName = new Map(fields.map((f) => [f.name, f]))
  const onlyTheirs = (name: string, value: string): boolean => {
    const f = byName.get(RECORD_NAME[name] ?? name)
    return f !== undefined && sameFieldValue(value, f.base) && !sameFieldValue(f.base, f.remote)
  }
  const out = Object.fromEntries(Object.entries(params).filter(([k, v]) => !onlyTheirs(k, v)))
  if (kind === 'campaign' && (out.start_date === undefined) !== (out.end_date === undefined)) {
    const left = out.start_date === undefined ? 'start_date' : 'end_date'
    out[left] = String(byName.get(left)?.remote ?? params[left])
  }
  return out
}

/**
 * Resolves a conflict (or a failure): keep mine and edit take the remote now as the new base;
 * keep mine sends the user's own changes only, and drops an operation left with none.
 */
export function resolveOp(db: Db, row: OpRow, action: 'keep_mine' | 'take_theirs' | 'edit', text: string | undefined, now: string): OpRow | null {
  if (row.state === 'sending') throw badRequest('outbox.sending', { param: 'op_id' })
  if (action === 'take_theirs') {
    db.tx(() => deleteOp(db, row.op_id))
    return null
  }
  if (action === 'edit' && text === undefined) throw badRequest('outbox.needParamsEdit', { param: 'params' })
  const info = conflictOf(row)
  if (action === 'keep_mine' && info && row.op === 'update') {
    const own = ownChanges(row.kind, paramsOf(row), info.fields)
    if (Object.keys(own).length === 0) {
      db.tx(() => deleteOp(db, row.op_id))
      return null
    }
    row = { ...row, params: JSON.stringify(own) }
  }
  const cols = mergedParams(row, text)
  const base = info ? { base: JSON.stringify(info.remote), base_hash: info.hash } : {}
  db.tx(() => patchOp(db, row.op_id, { ...base, ...cols, state: 'pending', conflict: '', problem: '', ...messageColumns('') }, now))
  return requireOp(db, row.op_id)
}
