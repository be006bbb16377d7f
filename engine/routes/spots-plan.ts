// spec §4.3 create_spot_with_plan, update_spot (slots); vendor-notes §3.9, §3.13, §8.3
import { badProblem, badRequest } from '../contract/errors'
import { problem } from '../contract/problems'
import type { PlanDay } from '../contract/models'
import { estimateProblems, newPlanProblems, outsideProblem, type CampaignDates, type ParamProblem, type PlanInput } from '../contract/plan-rules'
import { planFromTotals } from '../storage/repos/spot-plan'

export type { CampaignDates, PlanInput } from '../contract/plan-rules'

/** Throws the problem, if any, as the 400 naming its parameter. */
function refuse(problem: ParamProblem | null | undefined): void {
  if (problem) throw badProblem(problem)
}

/**
 * The plan a new spot starts with: slot_begin + slot_duration with totals spread evenly, or
 * (batch items) add_slot dates with per-date estimates; [] when no plan is asked for. Refused
 * with the first problem of contract/plan-rules.ts, the rules the app's forms check too.
 */
export function newSpotPlan(p: PlanInput, c: CampaignDates): PlanDay[] {
  refuse(newPlanProblems(p, c)[0])
  if (p.add_slot !== undefined) return p.add_slot.map((date, i) => ({ date, est_impression: p.est_impression_day?.[i] ?? 0, est_click: p.est_click_day?.[i] ?? 0 }))
  if (p.slot_begin === undefined || p.slot_duration === undefined) return []
  return planFromTotals(p.slot_begin, p.slot_duration, p.est_impression, p.est_click)
}

/** Slot parameters of update_spot. */
export interface SlotInput {
  add_slot?: string[] | undefined
  update_slot?: string[] | undefined
  delete_slot?: string[] | undefined
  est_impression?: number[] | undefined
  est_click?: number[] | undefined
}

/** What update_spot does to the plan: days to add, estimates to set, dates to delete. */
export interface SlotChanges {
  add: PlanDay[]
  update: { date: string; est_impression?: number | undefined; est_click?: number | undefined }[]
  remove: string[]
}

function checkDates(dates: readonly string[] | undefined, name: string, ok: (d: string) => boolean, problem: (date: string) => ParamProblem): void {
  const bad = dates?.find((d) => !ok(d))
  if (bad !== undefined) throw badProblem(problem(bad))
}

/**
 * The plan changes of update_spot, checked against the plan's current dates: add_slot dates are
 * new and inside the campaign; update_slot and delete_slot dates exist; no date is both deleted
 * and added or updated; estimate lists match the dates they go with.
 */
export function slotChanges(p: SlotInput, planned: ReadonlySet<string>, c: CampaignDates): SlotChanges {
  if (p.add_slot !== undefined && p.update_slot !== undefined) throw badRequest('slot.addAndUpdate', { param: 'update_slot' })
  const [dates, listName] = p.add_slot !== undefined ? [p.add_slot, 'add_slot'] : [p.update_slot, 'update_slot']
  if (dates === undefined && p.est_impression !== undefined) throw badRequest('slot.needsDates', { param: 'est_impression' })
  if (dates === undefined && p.est_click !== undefined) throw badRequest('slot.needsDates', { param: 'est_click' })
  refuse(estimateProblems(dates, listName, [['est_impression', p.est_impression], ['est_click', p.est_click]])[0])
  if (p.update_slot !== undefined && p.est_impression === undefined && p.est_click === undefined)
    throw badRequest('slot.needsEstimates', { param: 'update_slot' })
  const deleted = new Set(p.delete_slot ?? [])
  checkDates(dates, 'delete_slot', (d) => !deleted.has(d), (date) => problem('slot.alsoNamed', { param: 'delete_slot', date, otherParam: listName }))
  checkDates(p.delete_slot, 'delete_slot', (d) => planned.has(d), (date) => problem('slot.notInPlan', { param: 'delete_slot', date }))
  checkDates(p.update_slot, 'update_slot', (d) => planned.has(d), (date) => problem('slot.notInPlanAdd', { param: 'update_slot', date }))
  checkDates(p.add_slot, 'add_slot', (d) => !planned.has(d), (date) => problem('slot.inPlan', { param: 'add_slot', date }))
  if (p.add_slot !== undefined) refuse(outsideProblem(p.add_slot, c, 'add_slot'))
  const est = (i: number) => ({ est_impression: p.est_impression?.[i], est_click: p.est_click?.[i] })
  return {
    add: (p.add_slot ?? []).map((date, i) => ({ date, est_impression: est(i).est_impression ?? 0, est_click: est(i).est_click ?? 0 })),
    update: (p.update_slot ?? []).map((date, i) => ({ date, ...est(i) })),
    remove: p.delete_slot ?? [],
  }
}
