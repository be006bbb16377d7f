// spec §4.3 create_spot_with_plan, update_spot (slots); vendor-notes §3.9, §3.13, §8.3
import { badParam } from '../contract/errors'
import type { PlanDay } from '../contract/models'
import { addDays, planFromTotals } from '../storage/repos/spot-plan'

/** The campaign dates a plan must lie within. */
export interface CampaignDates {
  start_date: string
  end_date: string
}

/** Plan parameters of create_spot_with_plan and of a batch item. */
export interface PlanInput {
  slot_begin?: string | undefined
  slot_duration?: number | undefined
  est_impression?: number | undefined
  est_click?: number | undefined
  add_slot?: string[] | undefined
  est_impression_day?: number[] | undefined
  est_click_day?: number[] | undefined
}

const range = (c: CampaignDates) => `the campaign's dates ${c.start_date}..${c.end_date}`

/** Every date must lie within the campaign (vendor-notes §8.3). */
function checkWithin(dates: readonly string[], c: CampaignDates, name: string): void {
  const out = dates.find((d) => d < c.start_date || d > c.end_date)
  if (out !== undefined) throw badParam(name, `has ${out}, outside ${range(c)}`)
}

/** Per-date estimates must come with the dates and match them in count. */
function checkEstimates(dates: readonly string[] | undefined, listName: string, lists: Record<string, number[] | undefined>): void {
  for (const [name, values] of Object.entries(lists)) {
    if (values === undefined) continue
    if (dates === undefined) throw badParam(name, `requires ${listName}`)
    if (values.length !== dates.length) throw badParam(name, `has ${values.length} values for the ${dates.length} dates of ${listName}`)
  }
}

function planFromDates(p: PlanInput, c: CampaignDates): PlanDay[] {
  if (p.add_slot === undefined) return []
  checkWithin(p.add_slot, c, 'add_slot')
  return p.add_slot.map((date, i) => ({ date, est_impression: p.est_impression_day?.[i] ?? 0, est_click: p.est_click_day?.[i] ?? 0 }))
}

/**
 * The plan a new spot starts with: slot_begin + slot_duration with totals spread evenly, or
 * (batch items) add_slot dates with per-date estimates; [] when no plan is asked for.
 */
export function newSpotPlan(p: PlanInput, c: CampaignDates): PlanDay[] {
  checkEstimates(p.add_slot, 'add_slot', { est_impression_day: p.est_impression_day, est_click_day: p.est_click_day })
  const totals = { slot_begin: p.slot_begin, slot_duration: p.slot_duration, est_impression: p.est_impression, est_click: p.est_click }
  const given = Object.entries(totals).filter(([, v]) => v !== undefined).map(([k]) => k)
  if (p.add_slot !== undefined) {
    if (given.length > 0) throw badParam('add_slot', `cannot be combined with ${given.join(', ')}`)
    return planFromDates(p, c)
  }
  if (p.slot_begin === undefined && p.slot_duration === undefined) {
    if (p.est_impression !== undefined) throw badParam('est_impression', 'requires a plan: send slot_begin and slot_duration')
    if (p.est_click !== undefined) throw badParam('est_click', 'requires a plan: send slot_begin and slot_duration')
    return []
  }
  if (p.slot_begin === undefined) throw badParam('slot_begin', 'must be sent together with slot_duration')
  if (p.slot_duration === undefined) throw badParam('slot_duration', 'must be sent together with slot_begin')
  if (p.slot_begin < c.start_date || p.slot_begin > c.end_date) throw badParam('slot_begin', `(${p.slot_begin}) lies outside ${range(c)}`)
  const last = addDays(p.slot_begin, p.slot_duration - 1)
  if (last > c.end_date) throw badParam('slot_duration', `(${p.slot_duration} days from ${p.slot_begin}, to ${last}) runs past ${range(c)}`)
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

function checkDates(dates: readonly string[] | undefined, name: string, ok: (d: string) => boolean, problem: string): void {
  const bad = dates?.find((d) => !ok(d))
  if (bad !== undefined) throw badParam(name, `names ${bad}, ${problem}`)
}

/**
 * The plan changes of update_spot, checked against the plan's current dates: add_slot dates are
 * new and inside the campaign; update_slot and delete_slot dates exist; no date is both deleted
 * and added or updated; estimate lists match the dates they go with.
 */
export function slotChanges(p: SlotInput, planned: ReadonlySet<string>, c: CampaignDates): SlotChanges {
  if (p.add_slot !== undefined && p.update_slot !== undefined) throw badParam('update_slot', 'cannot be sent with add_slot in one request')
  const [dates, listName] = p.add_slot !== undefined ? [p.add_slot, 'add_slot'] : [p.update_slot, 'update_slot']
  if (dates === undefined && p.est_impression !== undefined) throw badParam('est_impression', 'requires add_slot or update_slot')
  if (dates === undefined && p.est_click !== undefined) throw badParam('est_click', 'requires add_slot or update_slot')
  checkEstimates(dates, listName, { est_impression: p.est_impression, est_click: p.est_click })
  if (p.update_slot !== undefined && p.est_impression === undefined && p.est_click === undefined)
    throw badParam('update_slot', 'needs est_impression or est_click with a value for each date')
  const deleted = new Set(p.delete_slot ?? [])
  checkDates(dates, 'delete_slot', (d) => !deleted.has(d), `which ${listName} also names`)
  checkDates(p.delete_slot, 'delete_slot', (d) => planned.has(d), 'which is not in the plan')
  checkDates(p.update_slot, 'update_slot', (d) => planned.has(d), 'which is not in the plan; use add_slot')
  checkDates(p.add_slot, 'add_slot', (d) => !planned.has(d), 'which is already in the plan; use update_slot')
  if (p.add_slot !== undefined) checkWithin(p.add_slot, c, 'add_slot')
  const est = (i: number) => ({ est_impression: p.est_impression?.[i], est_click: p.est_click?.[i] })
  return {
    add: (p.add_slot ?? []).map((date, i) => ({ date, est_impression: est(i).est_impression ?? 0, est_click: est(i).est_click ?? 0 })),
    update: (p.update_slot ?? []).map((date, i) => ({ date, ...est(i) })),
    remove: p.delete_slot ?? [],
  }
}
