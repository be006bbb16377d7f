/**
 * Reference ids of an outbox operation (docs/sync.md "Reference ids"). Ids of advertisers, brands
 * and agencies belong to each system: a local id names another company at the remote. So an
 * operation holds what identifies the record there, its name (`advertiser_name`, `agency_name`,
 * `brand_name`: a brand within its advertiser), and the push maps each name to the remote's id
 * through the reference lists pulled from that remote. A name that matches no record exactly, or
 * several, waits for the user to choose (`choose`); a local id is never sent.
 */
import type { Db } from '../storage/db'
import { referenceName } from '../storage/repos/reference'
import { recordNames } from '../storage/repos/sync-records'
import { badRequest } from '../contract/errors'
import { problem, type Problem } from '../contract/problems'

/** An operation's parameters by name, as outbox-params.ts holds them. */
type Params = Record<string, string>

type RefKind = 'advertiser' | 'agency' | 'brand'

interface RefMember {
  /** The parameter sent (the remote's id). */
  id: 'advertiser_id' | 'agency_id' | 'brand_id'
  /** The member queued instead: the record's name, as campaigns/show names it. */
  name: 'advertiser_name' | 'agency_name' | 'brand_name'
  kind: RefKind
}

/** The campaign members that carry a reference id; a brand is looked up within its advertiser. */
export const REF_MEMBERS: readonly RefMember[] = [
  { id: 'advertiser_id', name: 'advertiser_name', kind: 'advertiser' },
  { id: 'agency_id', name: 'agency_name', kind: 'agency' },
  { id: 'brand_id', name: 'brand_name', kind: 'brand' },
]

/** The names queued in place of ids (outbox members no endpoint has: the push turns them into ids). */
export const REF_NAMES: ReadonlySet<string> = new Set(REF_MEMBERS.map((m) => m.name))

export interface RefCandidate {
  remote_id: string
  name: string
}

/** A reference the push could not map: the name queued, why, and the remote's records to choose from. */
export interface RefChoice {
  param: RefMember['id']
  kind: RefKind
  name: string
  reason: 'no_match' | 'several' | 'not_pulled'
  candidates: RefCandidate[]
}

/** At most this many records are offered when no name is near the one queued. */
const MAX_CANDIDATES = 50

/**
 * `params` read from a local record with each local reference id replaced by the local record's
 * name. An id without its name member in an operation of a local record is a local id: that is
 * also how an operation queued before names were queued is read.
 */
export function namedRefs(db: Db, params: Params): Params {
  const out = { ...params }
  for (const m of REF_MEMBERS) {
    const id = out[m.id]
    if (id === undefined || out[m.name] !== undefined) continue
    delete out[m.id]
    const name = /^\d+$/.test(id) ? referenceName(db, m.kind, Number(id)) : undefined
    if (name !== undefined && name !== '') out[m.name] = name
  }
  return out
}

/** The pulled records of a kind (a brand: of one advertiser), by name. */
function pulled(db: Db, profileId: number, kind: RefKind, parent: string | null): RefCandidate[] {
  return recordNames(db, profileId, kind, parent)
}

const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()

/**
 * Records whose name is near `name` (one holds the other, or they share a word), else the first
 * of all; those that differ from it only in case, spaces or full-width letters come first.
 */
function near(rows: readonly RefCandidate[], name: string): RefCandidate[] {
  const want = norm(name)
  const words = new Set(want.split(' ').filter((w) => w.length >= 2))
  const close = rows.filter((r) => {
    const have = norm(r.name)
    return have.includes(want) || want.includes(have) || have.split(' ').some((w) => words.has(w))
  })
  const list = close.length > 0 ? close : rows
  return [...list.filter((r) => norm(r.name) === want), ...list.filter((r) => norm(r.name) !== want)].slice(0, MAX_CANDIDATES)
}

export interface Resolved {
  /** The parameters as the remote endpoint takes them: names replaced by the remote's ids. */
  form: Params
  /** The references still to choose. */
  choices: RefChoice[]
  /** The name each id sent stands for. */
  labels: Record<string, string>
}

/**
 * Maps the names of `params` to the remote's ids through the profile's pulled lists. An id given
 * (chosen, or typed for a pulled record) is sent as it is; a brand needs its advertiser's id first.
 */
export function resolveRefs(db: Db, profileId: number, params: Params): Resolved {
  const form: Params = { ...params }
  const choices: RefChoice[] = []
  const labels: Record<string, string> = {}
  for (const m of REF_MEMBERS) {
    const name = form[m.name]
    delete form[m.name]
    if (name !== undefined) labels[m.id] = name
    if (form[m.id] !== undefined || name === undefined) continue
    const advertiser = form.advertiser_id
    if (m.kind === 'brand' && advertiser === undefined) continue // asked once the advertiser is known
    const rows = pulled(db, profileId, m.kind, m.kind === 'brand' ? advertiser! : null)
    const exact = rows.filter((r) => r.name === name)
    if (exact.length === 1) form[m.id] = exact[0]!.remote_id
    else if (exact.length > 1) choices.push({ param: m.id, kind: m.kind, name, reason: 'several', candidates: exact })
    else if (rows.length === 0 && pulled(db, profileId, m.kind, null).length === 0) choices.push({ param: m.id, kind: m.kind, name, reason: 'not_pulled', candidates: [] })
    else choices.push({ param: m.id, kind: m.kind, name, reason: 'no_match', candidates: near(rows, name) })
  }
  return { form, choices, labels }
}

/** What a reference choice waits for, in one sentence (the operation's message). */
export function choiceMessage(choices: readonly RefChoice[]): Problem {
  const said = choices.map((c) =>
    c.reason === 'not_pulled' ? `no ${c.kind} list was pulled to find '${c.name}' in`
      : c.reason === 'several' ? `${c.candidates.length} ${c.kind}s at the remote are named '${c.name}'`
        : `no ${c.kind} at the remote is named exactly '${c.name}'`)
  return problem('push.choose', { details: said.join('; ') })
}

/**
 * Applies the user's choice: `chosen` maps an id member to the remote id picked (empty: send
 * none; no advertiser takes the brand along). Only references waiting for a choice are taken, and an id the pulled list holds (any id
 * when the list was never pulled).
 */
export function applyChoice(db: Db, profileId: number, params: Params, waiting: readonly RefChoice[], chosen: Params): Params {
  const out = { ...params }
  for (const [param, value] of Object.entries(chosen)) {
    const c = waiting.find((w) => w.param === param)
    if (!c) throw badRequest('outbox.notWaiting', { param: 'params', member: param, waiting: waiting.map((w) => w.param).join(', ') || 'none' })
    const m = REF_MEMBERS.find((x) => x.id === param)!
    if (value === '') {
      // no advertiser: no brand either (a brand is found within its advertiser)
      for (const k of m.kind === 'advertiser' ? ['advertiser_id', 'advertiser_name', 'brand_id', 'brand_name'] : [m.id, m.name]) delete out[k]
      continue
    }
    const advertiser = c.kind === 'brand' ? (resolveRefs(db, profileId, out).form.advertiser_id ?? null) : null
    const hit = pulled(db, profileId, c.kind, advertiser).find((r) => r.remote_id === value)
    if (!hit && c.reason !== 'not_pulled') throw c.kind === 'brand' ? badRequest('outbox.notPulledBrand', { param: 'params', member: param, value }) : badRequest('outbox.notPulledRef', { param: 'params', member: param, value, ref: c.kind })
    // the name stays beside the id: an id alone in an operation of a local record is a local id (namedRefs)
    out[m.id] = value
    out[m.name] = hit?.name ?? c.name
  }
  return out
}
