/**
 * A spot's daily plan in the calendar editor, and the update_spot requests an edit needs
 * (spec §4.3 update_spot; docs/spots.md "Plan days"): add_slot and update_slot cannot share a
 * request, so an edit that adds days and changes others becomes two requests.
 */
import type { PlanDay } from '../../../engine/contract/models'

export type { PlanDay }

/** The slot parameters of one update_spot request (wire names, comma lists). */
export interface SlotRequest {
  add_slot?: string
  update_slot?: string
  delete_slot?: string
  est_impression?: string
  est_click?: string
}

/** Estimates to give days; a missing member leaves that estimate as it is (clicks 0 for new days). */
export interface Estimates {
  est_impression?: number | undefined
  est_click?: number | undefined
}

const byDate = (a: PlanDay, b: PlanDay): number => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)

/** The plan sorted by date, one entry per date (the last wins). */
export function normalizePlan(plan: readonly PlanDay[]): PlanDay[] {
  return [...new Map(plan.map((d) => [d.date, { ...d }])).values()].sort(byDate)
}

/**
 * The plan with `dates` given the estimates. A day not planned yet is added only when impressions
 * are given: setting clicks alone never adds a day with 0 impressions (a day removed and "set"
 * again keeps its estimates instead of going to 0).
 */
export function setDays(plan: readonly PlanDay[], dates: readonly string[], est: Estimates): PlanDay[] {
  const map = new Map(plan.map((d) => [d.date, { ...d }]))
  for (const date of dates) {
    const old = map.get(date)
    if (old === undefined && est.est_impression === undefined) continue
    map.set(date, { date, est_impression: est.est_impression ?? old?.est_impression ?? 0, est_click: est.est_click ?? old?.est_click ?? 0 })
  }
  return normalizePlan([...map.values()])
}

/** The largest daily estimate update_spot takes (its est_impression / est_click lists, 2^40). */
export const MAX_DAY_ESTIMATE = 2 ** 40

/** A daily estimate box read: empty (keep), a whole number in range, or why not. */
export type EstimateInput = { kind: 'empty' } | { kind: 'value'; value: number } | { kind: 'invalid'; max: number }

/** Reads an estimate box as typed: it is kept as typed, and refused with the bound when it is not a whole number 0..2^40. */
export function readEstimate(text: string): EstimateInput {
  const s = text.trim()
  if (s === '') return { kind: 'empty' }
  if (!/^[0-9]{1,15}$/.test(s) || Number(s) > MAX_DAY_ESTIMATE) return { kind: 'invalid', max: MAX_DAY_ESTIMATE }
  return { kind: 'value', value: Number(s) }
}

/** The estimates the two boxes give, or null when either box is refused or both are empty (nothing to set). */
export function estimatesOf(imp: EstimateInput, clk: EstimateInput): Estimates | null {
  if (imp.kind === 'invalid' || clk.kind === 'invalid' || (imp.kind === 'empty' && clk.kind === 'empty')) return null
  return { est_impression: imp.kind === 'value' ? imp.value : undefined, est_click: clk.kind === 'value' ? clk.value : undefined }
}

/** The plan without `dates`. */
export function removeDays(plan: readonly PlanDay[], dates: readonly string[]): PlanDay[] {
  const gone = new Set(dates)
  return normalizePlan(plan.filter((d) => !gone.has(d.date)))
}

/** What changed between the stored plan and the edited one. */
export interface PlanChanges {
  added: PlanDay[]
  changed: PlanDay[]
  removed: string[]
}

export function planChanges(original: readonly PlanDay[], draft: readonly PlanDay[]): PlanChanges {
  const before = new Map(original.map((d) => [d.date, d]))
  const after = new Map(draft.map((d) => [d.date, d]))
  const added = normalizePlan(draft.filter((d) => !before.has(d.date)))
  const changed = normalizePlan(draft.filter((d) => {
    const o = before.get(d.date)
    return o !== undefined && (o.est_impression !== d.est_impression || o.est_click !== d.est_click)
  }))
  const removed = [...before.keys()].filter((date) => !after.has(date)).sort()
  return { added, changed, removed }
}

const slotLists = (days: readonly PlanDay[]) => ({
  dates: days.map((d) => d.date).join(','),
  est_impression: days.map((d) => d.est_impression).join(','),
  est_click: days.map((d) => d.est_click).join(','),
})

/**
 * The update_spot slot requests that turn `original` into `draft`, in order: days added (with
 * their estimates, and the deleted days), then days changed (update_slot); [] when nothing changed.
 */
export function planRequests(original: readonly PlanDay[], draft: readonly PlanDay[]): SlotRequest[] {
  const { added, changed, removed } = planChanges(original, draft)
  const out: SlotRequest[] = []
  const deleted = removed.length > 0 ? { delete_slot: removed.join(',') } : {}
  if (added.length > 0) {
    const l = slotLists(added)
    out.push({ add_slot: l.dates, est_impression: l.est_impression, est_click: l.est_click, ...deleted })
  }
  if (changed.length > 0) {
    const l = slotLists(changed)
    out.push({ update_slot: l.dates, est_impression: l.est_impression, est_click: l.est_click, ...(added.length > 0 ? {} : deleted) })
  }
  if (out.length === 0 && removed.length > 0) out.push(deleted)
  return out
}

/** Totals of a plan, for the table and the calendar footer. */
export interface PlanSummary {
  days: number
  first: string | null
  last: string | null
  est_impression: number
  est_click: number
}

export function planSummary(plan: readonly PlanDay[]): PlanSummary {
  const sorted = normalizePlan(plan)
  return {
    days: sorted.length,
    first: sorted[0]?.date ?? null,
    last: sorted[sorted.length - 1]?.date ?? null,
    est_impression: sorted.reduce((s, d) => s + d.est_impression, 0),
    est_click: sorted.reduce((s, d) => s + d.est_click, 0),
  }
}

/**
 * How create_spot_with_plan spreads a total over the days (docs/spots.md): floor(total / days)
 * each, and one more on the first total % days days.
 */
export function evenSplit(total: number, days: number): number[] {
  if (days <= 0) return []
  const base = Math.floor(total / days)
  const extra = total % days
  return Array.from({ length: days }, (_, i) => base + (i < extra ? 1 : 0))
}
