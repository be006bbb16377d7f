/**
 * The outbox and pushes as the Sync page shows them (docs/sync.md "Push"): an operation's
 * parameters as editable rows and the edit sent back, the conflict field by field, tones and
 * progress. Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import { sameFieldValue } from '../../../engine/contract/endpoints-sync-push'
import { formatValue } from './snapshot-diff'

export type OutboxOp = ResultOf<'sync.outbox_list'>[number]
export type PushStatus = ResultOf<'sync.push_status'>
export type PushResult = PushStatus['results'][number]

/** One parameter of an operation, as the editor holds it. */
export interface ParamRow {
  name: string
  value: string
}

/** The operation's parameters (an object of strings) as rows sorted by name. */
export function paramRows(params: unknown): ParamRow[] {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return []
  return Object.entries(params as Record<string, unknown>)
    .map(([name, v]) => ({ name, value: v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * What sync.outbox_update (or resolve with `edit`) takes for an edit: the members set or changed,
 * and `name=` for a member removed (an empty value removes it); '' when nothing changed. Rows with
 * an empty name are ignored; a later row of the same name wins.
 */
export function paramsEdit(before: readonly ParamRow[], after: readonly ParamRow[]): string {
  const was = new Map(before.map((r) => [r.name, r.value]))
  const now = new Map(after.filter((r) => r.name.trim() !== '').map((r) => [r.name.trim(), r.value]))
  const q = new URLSearchParams()
  for (const [k, v] of now) if (was.get(k) !== v) q.set(k, v)
  for (const k of was.keys()) if (!now.has(k)) q.set(k, '')
  return q.toString()
}

/** Names given twice in the editor (the engine would keep only the last). */
export function duplicateNames(rows: readonly ParamRow[]): string[] {
  const seen = new Set<string>()
  const twice = new Set<string>()
  for (const r of rows) {
    const n = r.name.trim()
    if (n !== '' && seen.has(n)) twice.add(n)
    seen.add(n)
  }
  return [...twice]
}

/** One field of a conflict: what this operation sends, what it was at the last pull, what the remote has now. */
export interface ConflictRow {
  name: string
  local: string
  base: string
  remote: string
  /** The operation sends this field (its value is not null). */
  sends: boolean
  /** The value sent differs from the one at the last pull (a local change). */
  localChanged: boolean
  /** The remote changed it since the last pull. */
  remoteChanged: boolean
  /** Only the remote changed it: keep mine leaves the remote's value (engine ownChanges). */
  yields: boolean
}

/** The conflict as rows, fields both sides changed first. */
export function conflictRows(conflict: OutboxOp['conflict']): ConflictRow[] {
  const rows = conflict.map((c) => {
    const sends = c.local !== null && c.local !== undefined
    // (play_detect sent as 0 where the pull read "false" is no change, not a field marked changed)
    const localChanged = sends && !sameFieldValue(c.local, c.base)
    const remoteChanged = !sameFieldValue(c.base, c.remote)
    return {
      name: c.name, local: sends ? formatValue(c.local) : '', base: formatValue(c.base), remote: formatValue(c.remote),
      sends, localChanged, remoteChanged, yields: sends && !localChanged && remoteChanged,
    }
  })
  const both = (r: ConflictRow) => (r.localChanged && r.remoteChanged ? 0 : 1)
  return rows.sort((a, b) => both(a) - both(b))
}

/** Colour of an operation's state. */
export function opTone(state: OutboxOp['state']): 'default' | 'info' | 'error' | 'warning' {
  return ({ pending: 'default', sending: 'info', failed: 'error', conflict: 'warning', choose: 'warning' } as const)[state]
}

/** Colour of what a push did with an operation. */
export function outcomeTone(outcome: PushResult['outcome']): 'success' | 'error' | 'warning' | 'default' {
  if (outcome === 'created' || outcome === 'updated' || outcome === 'reconciled') return 'success'
  if (outcome === 'failed') return 'error'
  if (outcome === 'conflict' || outcome === 'blocked' || outcome === 'choose') return 'warning'
  return 'default'
}

/** 0–100: operations handled of the total; 100 once done. */
export function pushPercent(s: PushStatus): number {
  if (s.state === 'done') return 100
  if (s.ops_total <= 0) return 0
  return Math.min(100, Math.floor((100 * s.ops_done) / s.ops_total))
}

/** Operations by state, for the tab's badge and the filter. */
export function countByState(ops: readonly OutboxOp[]): Record<OutboxOp['state'], number> {
  const out = { pending: 0, sending: 0, failed: 0, conflict: 0, choose: 0 }
  for (const o of ops) out[o.state]++
  return out
}

/** Results of a push by outcome (outcomes with none left out), in a stable order. */
export function outcomeCounts(results: readonly PushResult[]): [PushResult['outcome'], number][] {
  const order: PushResult['outcome'][] = ['created', 'updated', 'reconciled', 'failed', 'conflict', 'choose', 'blocked', 'not_sent']
  return order.map((o) => [o, results.filter((r) => r.outcome === o).length] as [PushResult['outcome'], number]).filter(([, n]) => n > 0)
}


/** One member of what the push would send: the value, the name a reference id stands for, and the value at the last pull. */
export interface SendRow {
  name: string
  value: string
  label: string
  base: string
  /** A reference not mapped to a remote id yet. */
  open: boolean
  /** An update's member whose value differs from the last pull's. */
  changed: boolean
}

/** What the push would send now (sync.outbox_show `sends`), member by member. */
export function sendRows(op: OutboxOp): SendRow[] {
  return op.sends.map((f) => ({
    name: f.name, value: f.value, label: f.label, base: f.base === null || f.base === undefined ? '' : formatValue(f.base),
    open: f.value === '', changed: op.op === 'update' && !sameFieldValue(f.label || f.value, f.base),
  }))
}

/** The query string sync.outbox_resolve `choose` takes: each reference with a pick; '' when none is picked. */
export function choiceEdit(picks: Readonly<Record<string, string | null>>): string {
  const q = new URLSearchParams()
  for (const [param, id] of Object.entries(picks)) if (id !== null && id !== undefined) q.set(param, id)
  return q.toString()
}
