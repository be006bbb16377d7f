/**
 * One push (docs/sync.md "Push"): the outbox of a profile, campaigns first, one operation after the
 * other. An operation is marked `sending` durably before its request; a create's remote id is
 * stored with the id map durably as soon as it is known. A push that is cut off leaves the
 * operation `sending`: the next push looks the record up (campaign name, GUID/CAGUID, target name)
 * before making it again, so nothing is created twice. An update whose record changed at the
 * remote since the pull it started from is not sent: it waits as a conflict, field by field.
 */
import type { OutboxKind, PushOutcome } from '../contract/endpoints-sync-push'
import { keywordNameOf } from '../contract/params'
import { mappedRemoteIds } from '../storage/repos/sync-outbox'
import { checkCancelled, type JobDeps } from './jobs'
import { deleteOp, mapId, mappedId, patchOp, listOps, type ConflictInfo, type FieldDiff, type OpRow } from './outbox'
import { PLAN_KEYS, RECORD_NAME, type Params } from './outbox-params'
import { text } from './pull-fetch'
import { paramsToSend } from './outbox-diff'
import { choiceMessage, type RefChoice } from './outbox-refs'
import { mapRefs } from './push-refs'
import { findCreated, planSteps, readRecord } from './push-remote'
import { problem, toldText, type Problem, type Told } from '../contract/problems'
import { RemoteError, isRefusal, keyed } from './remote-error'
import { messageColumns, problemMember, toldOf } from './said'
import { canonicalJson, recordHash, upsertRecord } from './store'

export interface PushResult {
  op_id: string
  kind: OutboxKind
  op: 'create' | 'update'
  local_id: string
  remote_id: string
  name: string
  outcome: PushOutcome
  message: string
  /** The message's problem, when it has one. */
  message_problem?: Problem
}

export interface PushProgress {
  ops_total: number
  ops_done: number
  results: PushResult[]
}

type Rec = Record<string, unknown>

const CREATE_PATH: Record<OutboxKind, string> = { campaign: '/cms/v1/campaigns/create', spot: '/cms/v1/campaigns/create_spot', target: '/cms/v1/campaigns/publish_target' }
const ID_KEY: Record<OutboxKind, string> = { campaign: 'campaign_id', spot: 'spot_id', target: 'target_id' }

/** The id map key of an operation: its local record, or the operation itself when it has none. */
const mapKey = (op: OpRow) => op.local_id || `op:${op.op_id}`

/** Writes columns of the operation and makes them durable before anything else is sent. */
async function settle(d: JobDeps, op: OpRow, cols: Partial<OpRow>, map?: string): Promise<void> {
  d.db.tx(() => {
    patchOp(d.db, op.op_id, cols, d.now())
    if (map !== undefined) mapId(d.db, op.profile_id, op.kind, mapKey(op), map, d.now())
  })
  Object.assign(op, cols)
  await d.durable()
}

/** Stores the record as the remote has it now (a pulled copy), maps its id, and empties the slot. */
async function finish(d: JobDeps, op: OpRow, remoteId: string, parent: string): Promise<void> {
  const rec = await readRecord(d.client, op.kind, remoteId, parent)
  d.db.tx(() => {
    if (rec) upsertRecord(d.db, op.profile_id, op.kind, rec, d.now(), {})
    mapId(d.db, op.profile_id, op.kind, mapKey(op), remoteId, d.now())
    deleteOp(d.db, op.op_id)
  })
  await d.durable()
}

async function pushPlan(d: JobDeps, params: Params, spotId: string, campaignId: string): Promise<void> {
  if (params.add_slot === undefined) return
  const rec = await readRecord(d.client, 'spot', spotId, campaignId)
  const steps = planSteps(params, (rec?.record as Rec | undefined)?.spot_plan)
  for (const form of [steps.add, steps.update]) if (form) await d.client.post('/cms/v1/campaigns/update_spot', { campaign_id: campaignId, spot_id: spotId, ...form })
}

/** Puts the operation aside until the user chooses the remote's records of its references. */
async function toChoose(d: JobDeps, op: OpRow, choices: RefChoice[]): Promise<[PushOutcome, string, Told]> {
  const message = choiceMessage(choices)
  await settle(d, op, { state: 'choose', conflict: JSON.stringify({ choices }), problem: '', ...messageColumns(message) })
  return ['choose', op.remote_id, message]
}

/** `choices`: references not mapped (the remote's lists changed since it was sent): it waits for them unless it was made. */
async function create(d: JobDeps, op: OpRow, parent: string, params: Params, choices: RefChoice[]): Promise<[PushOutcome, string, Told]> {
  let outcome: PushOutcome = 'created'
  let message: Told = op.remote_id === '' ? '' : problem('push.finishedNow', {})
  if (op.remote_id === '' && op.state === 'sending') {
    // sent before with no answer: look for what it made before making it again
    const taken = new Set(mappedRemoteIds(d.db, op.profile_id, op.kind))
    const found = await findCreated(d.client, op.kind, params, parent, d.pageSize, taken)
    if (found !== undefined) {
      await settle(d, op, { remote_id: found, step: 'created' }, found)
      ;[outcome, message] = ['reconciled', problem('push.reconciled', { kind: op.kind, id: found })]
    }
  }
  if (op.remote_id === '' && choices.length > 0) return toChoose(d, op, choices)
  if (op.remote_id === '') {
    await settle(d, op, { state: 'sending', attempts: op.attempts + 1 })
    const form: Params = Object.fromEntries(Object.entries(params).filter(([k]) => !(PLAN_KEYS as readonly string[]).includes(k)))
    const answer = (await d.client.post(CREATE_PATH[op.kind], op.kind === 'campaign' ? form : { ...form, campaign_id: parent })) as Rec
    const id = text(answer?.[ID_KEY[op.kind]])
    if (id === '') throw new RemoteError('bad_response', keyed('remote.answeredWithout', { path: CREATE_PATH[op.kind], member: ID_KEY[op.kind] }), false)
    await settle(d, op, { remote_id: id, step: 'created' }, id)
  }
  if (op.kind === 'spot') await pushPlan(d, params, op.remote_id, parent)
  await finish(d, op, op.remote_id, parent)
  return [outcome, op.remote_id, message]
}

function diffFields(params: Params, base: Rec, now: Rec): FieldDiff[] {
  const local: Rec = Object.fromEntries(Object.entries(params).map(([k, v]) => [RECORD_NAME[k] ?? k, v]))
  const names = new Set([...Object.keys(local), ...Object.keys(base), ...Object.keys(now)])
  return [...names]
    .filter((n) => n in local || canonicalJson(base[n]) !== canonicalJson(now[n]))
    .sort()
    .map((n) => ({ name: n, local: local[n] ?? null, base: base[n] ?? null, remote: now[n] ?? null }))
}

/**
 * What a spot update sent before without an answer still has to do: its other members repeat
 * safely (they set values), but the service refuses a keyword or a plan day a spot already has,
 * and a day it no longer plans. So the keywords `add_keyword` names that the spot has, the
 * `add_slot` days it plans (with their estimates) and the `delete_slot` days it does not are
 * left out; null when nothing is left to send.
 */
export function unsentPart(params: Params, spot: Rec): Params | null {
  const out: Params = { ...params }
  const keywords = new Set((Array.isArray(spot.keyword) ? (spot.keyword as Rec[]) : []).map((k) => String(k.keyword ?? '').trim()))
  const planned = new Set((Array.isArray(spot.spot_plan) ? (spot.spot_plan as Rec[]) : []).map((d) => String(d.date ?? '')))
  if (params.add_keyword !== undefined) {
    const left = params.add_keyword.split('>').filter((e) => e.trim() !== '' && !keywords.has(keywordNameOf(e)))
    if (left.length > 0) out.add_keyword = left.join('>')
    else delete out.add_keyword
  }
  if (params.add_slot !== undefined) {
    const dates = params.add_slot.split(',').map((s) => s.trim())
    const keep = dates.map((day) => !planned.has(day))
    const pick = (list: string | undefined) => (list === undefined ? undefined : list.split(',').filter((_, i) => keep[i]).join(','))
    if (keep.some(Boolean)) {
      out.add_slot = pick(params.add_slot)!
      for (const k of ['est_impression', 'est_click'] as const) if (params[k] !== undefined) out[k] = pick(params[k])!
    } else {
      delete out.add_slot
      delete out.est_impression
      delete out.est_click
    }
  }
  if (params.delete_slot !== undefined) {
    const left = params.delete_slot.split(',').map((s) => s.trim()).filter((day) => planned.has(day))
    if (left.length > 0) out.delete_slot = left.join(',')
    else delete out.delete_slot
  }
  return Object.keys(out).length > 0 ? out : null
}

/** `params`: the form to send (references as the remote's ids); the conflict compares what the operation holds. */
async function update(d: JobDeps, op: OpRow, parent: string, params: Params): Promise<[PushOutcome, string, Told]> {
  // an update sent before with no answer is sent again, but for what of it the remote already did
  if (op.state === 'sending' && op.kind === 'spot' && ['add_keyword', 'add_slot', 'delete_slot'].some((k) => params[k] !== undefined)) {
    const now = await readRecord(d.client, op.kind, op.remote_id, parent)
    const left = now ? unsentPart(params, now.record as Rec) : params
    if (left === null) {
      await finish(d, op, op.remote_id, parent)
      return ['updated', op.remote_id, '']
    }
    params = left
  }
  if (op.state !== 'sending') {
    const now = await readRecord(d.client, op.kind, op.remote_id, parent)
    if (!now) {
      const gone = problem('push.gone', { kind: op.kind, id: op.remote_id })
      await settle(d, op, { state: 'failed', problem: 'refused', ...messageColumns(gone) })
      return ['failed', op.remote_id, gone]
    }
    if (op.base_hash !== '' && recordHash(now.record) !== op.base_hash) {
      const base = (op.base === '' ? {} : JSON.parse(op.base)) as Rec
      const info: ConflictInfo = { fields: diffFields(paramsToSend(d.db, op), base, now.record as Rec), remote: now.record, hash: recordHash(now.record) }
      const changed = info.fields.filter((f) => canonicalJson(f.base) !== canonicalJson(f.remote)).map((f) => f.name)
      const message = problem('push.conflict', { kind: op.kind, id: op.remote_id, fields: changed.join(', ') })
      await settle(d, op, { state: 'conflict', conflict: JSON.stringify(info), problem: '', ...messageColumns(message) })
      return ['conflict', op.remote_id, message]
    }
  }
  await settle(d, op, { state: 'sending', attempts: op.attempts + 1 })
  const ids: Params = op.kind === 'campaign' ? { campaign_id: op.remote_id } : { campaign_id: parent, spot_id: op.remote_id }
  await d.client.post(op.kind === 'campaign' ? '/cms/v1/campaigns/update' : '/cms/v1/campaigns/update_spot', { ...params, ...ids })
  await finish(d, op, op.remote_id, parent)
  return ['updated', op.remote_id, '']
}

const resultOf = (op: OpRow, outcome: PushOutcome, remote_id: string, message: Told): PushResult => {
  const { message_problem } = messageColumns(message)
  return { op_id: String(op.op_id), kind: op.kind, op: op.op, local_id: op.local_id, remote_id, name: op.name, outcome, message: toldText(message), ...problemMember(message_problem) }
}

/** One operation; a refusal marks it failed (the push goes on), anything else stops the push. */
async function pushOne(d: JobDeps, op: OpRow, listsRead: Set<string>): Promise<PushResult> {
  const parent = op.kind === 'campaign' ? '' : op.parent_remote_id || mappedId(d.db, op.profile_id, 'campaign', op.parent_local_id) || ''
  if (op.kind !== 'campaign' && parent === '') return resultOf(op, 'blocked', '', problem('push.blocked', { id: op.parent_local_id }))
  try {
    // references go as the remote's ids, found by name in its lists; one not found waits for the user
    const { form, choices } = await mapRefs(d, op, listsRead)
    // a create that may have arrived is looked for first; an update repeats safely, so it can wait
    if (op.op === 'create') return resultOf(op, ...(await create(d, op, parent, form, choices)))
    return resultOf(op, ...(choices.length > 0 ? await toChoose(d, op, choices) : await update(d, op, parent, form)))
  } catch (err) {
    if (isRefusal(err)) {
      const told = toldOf(err)
      await settle(d, op, { state: 'failed', problem: err.problem, ...messageColumns(told) })
      return resultOf(op, 'failed', op.remote_id, told)
    }
    const e = err instanceof RemoteError ? err : null
    d.db.tx(() => patchOp(d.db, op.op_id, { problem: e?.problem ?? 'server_error', ...messageColumns(e ? toldOf(e) : String(err)) }, d.now()))
    throw err
  }
}

/** Runs a push to its end; throws a RemoteError when it stops early (what it did stays recorded). */
export async function runPush(d: JobDeps, run: PushProgress & { profile_id: number }): Promise<void> {
  await d.client.login()
  // an operation waiting for a choice is mapped again: the remote's lists may have the name by now
  const ops = listOps(d.db, run.profile_id).filter((o) => o.state === 'pending' || o.state === 'sending' || o.state === 'choose')
  run.ops_total = ops.length
  const listsRead = new Set<string>()
  for (const op of ops) {
    checkCancelled(d.signal, 'push')
    try {
      run.results.push(await pushOne(d, op, listsRead))
    } catch (err) {
      run.results.push(resultOf(op, 'not_sent', op.remote_id, toldOf(err)))
      throw err
    }
    run.ops_done++
  }
}
