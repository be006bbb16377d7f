// Local namespace: pushing offline drafts to the real service through an outbox (DESIGN §4,
// docs/sync.md "Push"): pending operations, the push job with per-operation results, conflicts
import { get, post } from './endpoint'
import { meta, profileId } from './endpoints-sync'
import { p } from './params'
import { any, arr, bool, int, idStr, lit, obj, str } from './schema'

export const OUTBOX_KINDS = ['campaign', 'spot', 'target'] as const
export type OutboxKind = (typeof OUTBOX_KINDS)[number]
export const OUTBOX_OPS = ['create', 'update'] as const
export type OutboxOpName = (typeof OUTBOX_OPS)[number]
/**
 * pending: to send; sending: sent, outcome unknown (reconciled by the next push); failed: refused;
 * conflict: waits for the user; choose: a reference name matches no remote record exactly (the user picks one).
 */
export const OUTBOX_STATES = ['pending', 'sending', 'failed', 'conflict', 'choose'] as const
export type OutboxState = (typeof OUTBOX_STATES)[number]
export const RESOLUTIONS = ['keep_mine', 'take_theirs', 'edit', 'choose'] as const
export type Resolution = (typeof RESOLUTIONS)[number]
/** What a push did with one operation. */
export const PUSH_OUTCOMES = ['created', 'updated', 'reconciled', 'failed', 'conflict', 'blocked', 'choose', 'not_sent'] as const
export type PushOutcome = (typeof PUSH_OUTCOMES)[number]

/**
 * A field as text to compare a parameter sent with a record's value: a flag 1/0 for true/false
 * (or their words),
 * a number as written, a list of plain values comma-joined, absent as ''; null for anything else
 * (an object), which is compared as JSON.
 */
function fieldText(v: unknown): string | null {
  if (v === null || v === undefined) return ''
  if (typeof v === 'boolean' || v === 'true' || v === 'false') return v === true || v === 'true' ? '1' : '0'
  if (typeof v === 'number' || typeof v === 'string') return String(v).trim()
  if (Array.isArray(v) && v.every((x) => typeof x === 'number' || typeof x === 'string')) return v.join(',')
  return null
}

/**
 * Whether two values of a conflict field are the same value, the one as a parameter writes it
 * (`0`, `12`, `1,2`) and the other as a record answers it (false, 12, [1, 2]). One rule for the
 * push's keep_mine and the Sync page's conflict table.
 */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  const [x, y] = [fieldText(a), fieldText(b)]
  return x !== null && y !== null ? x === y : JSON.stringify(a) === JSON.stringify(b)
}

const ConflictField = obj({
  name: str({ description: 'field name as the remote shows it' }),
  local: any('the value this operation sends (null: it does not send this field)'),
  base: any('the value at the last pull (when the local change was made)'),
  remote: any('the value at the remote now'),
})

const RefChoice = obj({
  param: lit('advertiser_id', 'agency_id', 'brand_id'),
  kind: lit('advertiser', 'agency', 'brand'),
  name: str({ description: 'the name queued (the local record\'s)' }),
  reason: lit('no_match', 'several', 'not_pulled'),
  candidates: arr(obj({ remote_id: str(), name: str() })),
})

const SendField = obj({
  name: str({ description: 'the parameter sent' }),
  value: str({ description: 'its value: a reference as the remote\'s id where the pulled lists give it, else empty' }),
  label: str({ description: 'the name a reference id stands for' }),
  base: any('update: the value at the pull the edit started from (null for a create, or a field the record lacks)'),
})

export const OutboxOp = obj({
  op_id: idStr(), profile_id: idStr(),
  kind: lit(...OUTBOX_KINDS), op: lit(...OUTBOX_OPS),
  local_id: str({ description: 'the local record (campaign, spot or target id); empty for an edit of a pulled record' }),
  parent_local_id: str({ description: 'spot and target: the local campaign whose remote id the push fills in' }),
  parent_remote_id: str({ description: 'spot and target: the remote campaign, when already known' }),
  remote_id: str({ description: 'update: the record changed; create: the record made (once known)' }),
  name: str({ description: 'campaign, placement or target name, for lists' }),
  params: any('the parameters sent to the remote endpoint (an object of strings); spots also add_slot, est_impression, est_click for the plan'),
  state: lit(...OUTBOX_STATES),
  step: str({ description: "spot create: 'created' once the remote spot exists and only its plan is left" }),
  attempts: int('pushes that tried this operation'),
  problem: str({ description: 'why the last attempt failed (failed, sending)' }),
  message: str({ description: "why it failed or waits (the remote's error, the conflict), in plain words" }),
  conflict: arr(ConflictField),
  choices: arr(RefChoice),
  sends: arr(SendField),
  created_at: str(), updated_at: str(),
})

const PushResult = obj({
  op_id: idStr(), kind: lit(...OUTBOX_KINDS), op: lit(...OUTBOX_OPS), local_id: str(), remote_id: str(), name: str(),
  outcome: lit(...PUSH_OUTCOMES), message: str(),
})

export const PushStatus = obj({
  push_id: str({ description: 'empty when the profile was never pushed' }),
  profile_id: idStr(),
  state: lit('idle', 'running', 'done', 'failed', 'cancelled', 'interrupted'),
  ops_total: int(), ops_done: int('operations handled so far'),
  requests: int(), logins: int(), retries: int(),
  results: arr(PushResult),
  problem: str({ description: 'why the push stopped early (the remote unreachable, ...)' }),
  message: str(),
  started_at: str(), finished_at: str(),
})

const opId = () => p.id().required('an outbox operation')
const params = (what: string) => p.text(20_000).optional(`${what}, as a query string (name=value&...)`)
const paramsRequired = (what: string) => p.text(20_000).required(`${what}, as a query string (name=value&...)`)

export const syncPushEndpoints = {
  'sync.outbox_list': get('/local/v1/sync/outbox/list', 'local', {
    profile_id: profileId(),
    state: p.oneOf(OUTBOX_STATES).optional(),
  }, arr(OutboxOp), meta('Pending operations of a profile, in the order a push sends them')),
  'sync.outbox_show': get('/local/v1/sync/outbox/show', 'local', { op_id: opId() }, OutboxOp, meta('One pending operation with its parameters and conflict')),
  'sync.outbox_add': post('/local/v1/sync/outbox/add', 'local', {
    profile_id: p.id().required('the remote profile to push to'),
    kind: p.oneOf(OUTBOX_KINDS).required(),
    op: p.oneOf(OUTBOX_OPS).required(),
    local_id: p.id().optional('the local campaign, spot or target; its parameters are read from it now'),
    remote_id: p.text(64).optional('update: the pulled record to change (instead of local_id)'),
    campaign_id: p.text(64).optional('create of a spot or target without local_id: the remote campaign it goes to'),
    params: params('the parameters (create without local_id, update of a pulled record), or changes to those read from the local record'),
    with_children: p.flag01().default(true, 'campaign create from a local campaign: also its spots (keywords, plans) and targets'),
  }, arr(OutboxOp), meta('Put a local draft or an edit into the outbox')),
  'sync.outbox_update': post('/local/v1/sync/outbox/update', 'local', {
    op_id: opId(),
    params: paramsRequired('members to set; an empty value removes a member'),
  }, OutboxOp, meta('Edit the parameters of a pending operation')),
  'sync.outbox_delete': post('/local/v1/sync/outbox/delete', 'local', { op_id: opId() }, obj({ op_id: idStr() }), meta('Drop a pending operation')),
  'sync.outbox_resolve': post('/local/v1/sync/outbox/resolve', 'local', {
    op_id: opId(),
    action: p.oneOf(RESOLUTIONS).required('keep_mine: send it anyway; take_theirs: drop the local change; edit: change the parameters, then send; choose: the remote records of references waiting for a choice'),
    params: params('edit: members to set; choose: advertiser_id, agency_id or brand_id = the remote id chosen (empty: send none)'),
  }, obj({ op_id: idStr(), dropped: bool('true when the operation left the outbox'), op: any('the operation after the resolution (null when dropped)') }), meta('Resolve a conflict (or a failure) of an operation')),
  'sync.push_start': post('/local/v1/sync/push/start', 'local', {
    profile_id: profileId(),
    wait: p.flag01().default(true, '1 (default): answer when the push ends; 0: answer at once, then poll push/status'),
  }, PushStatus, meta('Send the outbox of a profile to the remote, one operation after the other')),
  'sync.push_status': get('/local/v1/sync/push/status', 'local', { profile_id: profileId() }, PushStatus, meta('The running or last push of a profile')),
  'sync.push_cancel': post('/local/v1/sync/push/cancel', 'local', { profile_id: profileId() }, PushStatus, meta('Stop the running push: the request in flight is abandoned (a create it cut off is reconciled by the next push); what was done stays')),
  'sync.pushes_list': get('/local/v1/sync/pushes/list', 'local', { profile_id: profileId() }, arr(PushStatus), meta('Stored pushes of a profile with their results, newest first')),
} as const
