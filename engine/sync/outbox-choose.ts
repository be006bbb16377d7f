/**
 * The user's choice of remote records for the references an operation waits for (docs/sync.md
 * "Reference ids"): the operation goes back to pending, or stays to choose what the choice leaves
 * (a brand, once its advertiser is known).
 */
import type { Db } from '../storage/db'
import { badRequest } from '../contract/errors'
import { choicesOf, paramsOf, patchOp, requireOp, type OpRow } from './outbox'
import { checkParams, type Params } from './outbox-params'
import { applyChoice, choiceMessage, namedRefs, resolveRefs } from './outbox-refs'
import { messageColumns } from './said'

/**
 * `text` as member=value pairs, each given once with its '=': a member name alone, as a typo
 * leaves it, would otherwise read as the empty value that chooses none.
 */
function choiceOf(text: string | undefined): Params {
  const out: Params = {}
  for (const part of (text ?? '').split('&').filter((x) => x !== '')) {
    const [[k, v] = ['', '']] = [...new URLSearchParams(part)]
    if (!part.includes('=')) throw badRequest('outbox.choiceNoValue', { member: k })
    if (Object.hasOwn(out, k)) throw badRequest('outbox.choiceTwice', { member: k })
    out[k] = v
  }
  if (Object.keys(out).length === 0) throw badRequest('outbox.needChoice', { param: 'params' })
  return out
}

/** Takes `text` (advertiser_id=R&...) as the choice; refuses a member no reference waits for, or an id the pulled list lacks. */
export function chooseOp(db: Db, row: OpRow, text: string | undefined, now: string): OpRow {
  if (row.state === 'sending') throw badRequest('outbox.sending', { param: 'op_id' })
  const waiting = choicesOf(row)
  if (waiting.length === 0) throw badRequest('outbox.noChoice', { param: 'op_id', state: row.state })
  const held = row.local_id !== '' && row.kind === 'campaign' ? namedRefs(db, paramsOf(row)) : paramsOf(row)
  const params = applyChoice(db, row.profile_id, held, waiting, choiceOf(text))
  checkParams(row.kind, row.op, params)
  const left = resolveRefs(db, row.profile_id, params).choices
  const state = left.length > 0 ? { state: 'choose' as const, conflict: JSON.stringify({ choices: left }), ...messageColumns(choiceMessage(left)) } : { state: 'pending' as const, conflict: '', ...messageColumns('') }
  db.tx(() => patchOp(db, row.op_id, { params: JSON.stringify(params), problem: '', ...state }, now))
  return requireOp(db, row.op_id)
}
