/**
 * What an operation sends, against the pulled copy it started from (docs/sync.md "Push"): an
 * update read from a local record keeps only the fields that differ from that copy, and the Sync
 * page and the CLI show the form the push would send now, references as the remote's ids.
 */
import { sameFieldValue, type OutboxKind } from '../contract/endpoints-sync-push'
import type { Db } from '../storage/db'
import { RECORD_NAME, type Params } from './outbox-params'
import { REF_MEMBERS, namedRefs, resolveRefs } from './outbox-refs'

type Rec = Record<string, unknown>

/** The record member a parameter sets: a reference id is compared by its name. */
const memberOf = (param: string): string => REF_MEMBERS.find((m) => m.id === param)?.name ?? RECORD_NAME[param] ?? param

/**
 * The members of `params` whose value differs from the record `base`. A campaign's dates go as
 * the pair when one of them changed (the service takes them together, and refuses a start date
 * before today: a running campaign's unchanged dates must not be sent); a brand goes with its
 * advertiser, and a new advertiser with the brand.
 */
export function changedOnly(kind: OutboxKind, params: Params, base: Rec): Params {
  const out: Params = Object.fromEntries(Object.entries(params).filter(([k, v]) => !sameFieldValue(v, base[memberOf(k)])))
  if (kind !== 'campaign') return out
  const also = (k: string) => {
    if (params[k] !== undefined) out[k] = params[k]
  }
  if (out.start_date !== undefined || out.end_date !== undefined) ['start_date', 'end_date'].forEach(also)
  if (out.brand_name !== undefined || out.brand_id !== undefined) ['advertiser_name', 'advertiser_id'].forEach(also)
  if (out.advertiser_name !== undefined || out.advertiser_id !== undefined) ['brand_name', 'brand_id'].forEach(also)
  return out
}

/** What an operation holds to send: in one of a local record, an id alone is a local id (named now). */
export const paramsToSend = (db: Db, o: { local_id: string; kind: OutboxKind; params: string }): Params =>
  o.local_id !== '' && o.kind === 'campaign' ? namedRefs(db, JSON.parse(o.params) as Params) : (JSON.parse(o.params) as Params)

export interface SendField {
  name: string
  value: string
  label: string
  base: unknown
}

/** The form the push would send now, member by member, with the pulled copy's value beside each (updates). */
export function sendsOf(db: Db, o: { profile_id: number; local_id: string; kind: OutboxKind; params: string; base: string }): SendField[] {
  const { form, labels } = resolveRefs(db, o.profile_id, paramsToSend(db, o))
  const base = o.base === '' ? null : (JSON.parse(o.base) as Rec)
  const names = [...new Set([...Object.keys(form), ...Object.keys(labels)])].sort()
  return names.map((name) => ({ name, value: form[name] ?? '', label: labels[name] ?? '', base: base ? (base[memberOf(name)] ?? null) : null }))
}
