/**
 * A pull as the Sync page shows it (docs/sync.md "Pull"): progress, tone, duration, and the
 * per-kind summary of what changed (added, changed, removed, unchanged). Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import { REMOTE_KINDS, type RemoteKind } from '../../../engine/contract/endpoints-sync'

export type PullStatus = ResultOf<'sync.pull_status'>
export type PullCounts = PullStatus['counts'][number]

/** The four outcomes of a record, in the order the table shows them. */
export const OUTCOMES = ['added', 'changed', 'removed', 'unchanged'] as const
export type Outcome = (typeof OUTCOMES)[number]
export type Totals = Record<Outcome, number>

/** One row of the summary table: a kind, or the total (`kind: 'total'`). */
export interface SummaryRow extends Totals {
  kind: RemoteKind | 'total'
}

/** Whether the pull is still going (polling goes on). */
export function isPullRunning(s: PullStatus | null): boolean {
  return s?.state === 'running'
}

/** 0–100: campaigns done of total while they are read; 100 once done. */
export function pullPercent(s: PullStatus): number {
  if (s.state === 'done' || s.phase === 'done') return 100
  if (s.campaigns_total <= 0) return 0
  return Math.min(100, Math.floor((100 * s.campaigns_done) / s.campaigns_total))
}

/** The colour of a pull or push by its state (the progress bar, the history tag). */
export function runTone(s: Pick<PullStatus, 'state'>): 'success' | 'error' | 'warning' | 'info' | 'default' {
  switch (s.state) {
    case 'done': return 'success'
    case 'failed': return 'error'
    case 'cancelled': case 'interrupted': return 'warning'
    case 'running': return 'info'
    default: return 'default'
  }
}

/** Sums of every kind. */
export function totalsOf(counts: readonly PullCounts[]): Totals {
  const out: Totals = { added: 0, changed: 0, removed: 0, unchanged: 0 }
  for (const c of counts) for (const o of OUTCOMES) out[o] += c[o]
  return out
}

/**
 * The summary table: one row per kind that has any record (in the engine's kind order), then
 * the total; empty when nothing was counted.
 */
export function summaryRows(counts: readonly PullCounts[]): SummaryRow[] {
  const byKind = new Map(counts.map((c) => [c.kind, c]))
  const rows: SummaryRow[] = []
  for (const kind of REMOTE_KINDS) {
    const c = byKind.get(kind)
    if (c && OUTCOMES.some((o) => c[o] > 0)) rows.push({ kind, added: c.added, changed: c.changed, removed: c.removed, unchanged: c.unchanged })
  }
  return rows.length === 0 ? [] : [...rows, { kind: 'total', ...totalsOf(counts) }]
}

/**
 * One line saying what a pull changed: an i18n key under `sync.pull.summary` and its counts
 * (`none`: nothing counted yet; `same`: everything unchanged; `changes`: something changed).
 * A pull that did not finish (`state` other than done) read only part of the remote: its
 * "unchanged" is `sameSoFar`, not "nothing changed at the remote" (which a cancelled pull said).
 */
export function summaryLine(counts: readonly PullCounts[], state = 'done'): { key: 'none' | 'same' | 'sameSoFar' | 'changes'; params: Totals } {
  const params = totalsOf(counts)
  if (OUTCOMES.every((o) => params[o] === 0)) return { key: 'none', params }
  if (params.added + params.changed + params.removed > 0) return { key: 'changes', params }
  return { key: state === 'done' ? 'same' : 'sameSoFar', params }
}
