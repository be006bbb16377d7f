// spec §4.3 create_spot_with_plan and batch items; vendor-notes §3.8, §3.9, §8.1, §8.3
/**
 * The rules a new spot's plan and keywords follow, as problems named by parameter. One code for
 * the engine, which refuses a request with the first problem (engine/routes/spots-plan.ts), and
 * for the app's spot form and sheet import, which show every problem on its field before sending
 * (renderer/src/campaign/spot-form.ts, bulk.ts): the two cannot word a rule differently.
 */
import { problem, type Problem } from './problems'
import { BIDDING_CHANNELS } from './vocabulary'

/** The campaign dates a plan must lie within. */
export interface CampaignDates {
  start_date: string
  end_date: string
}

/** Plan parameters of create_spot_with_plan and of a batch item, decoded. */
export interface PlanInput {
  slot_begin?: string | undefined
  slot_duration?: number | undefined
  est_impression?: number | undefined
  est_click?: number | undefined
  add_slot?: string[] | undefined
  est_impression_day?: number[] | undefined
  est_click_day?: number[] | undefined
}

/** A refused parameter and why: a problem of the catalogue whose arguments name the parameter (`param`). */
export type ParamProblem = Problem

const DAY_MS = 86_400_000

/** The date `n` days after `date` (YYYY-MM-DD, calendar arithmetic in UTC). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)
}

/** A campaign's dates must not run backwards: the problem, or null (create, update, a queued draft). */
export function campaignDatesProblem(c: CampaignDates): ParamProblem | null {
  return c.end_date < c.start_date ? problem('plan.beforeOther', { param: 'end_date', date: c.end_date, otherParam: 'start_date', otherDate: c.start_date }) : null
}

/** Every date must lie within the campaign (vendor-notes §8.3): the first one outside, or null. */
export function outsideProblem(dates: readonly string[], c: CampaignDates, param: string): ParamProblem | null {
  const out = dates.find((d) => d < c.start_date || d > c.end_date)
  return out === undefined ? null : problem('plan.dateOutside', { param, date: out, start: c.start_date, end: c.end_date })
}

/** Per-date estimate lists must come with the dates of `listName` and have one value a date. */
export function estimateProblems(dates: readonly string[] | undefined, listName: string, lists: readonly (readonly [string, readonly number[] | undefined])[]): ParamProblem[] {
  const out: ParamProblem[] = []
  for (const [param, values] of lists) {
    if (values === undefined) continue
    if (dates === undefined) out.push(problem('plan.requires', { param, otherParam: listName }))
    else if (values.length !== dates.length) out.push(problem('plan.valueCount', { param, n: values.length, dates: dates.length, otherParam: listName }))
  }
  return out
}

/**
 * Every problem of a new spot's plan, in the order the engine checks them (the engine refuses
 * with the first): per-date estimates need add_slot dates and one value each; add_slot goes alone
 * and inside the campaign; slot_begin and slot_duration go together, inside the campaign; totals
 * need a plan.
 */
export function newPlanProblems(p: PlanInput, c: CampaignDates): ParamProblem[] {
  const out = estimateProblems(p.add_slot, 'add_slot', [['est_impression_day', p.est_impression_day], ['est_click_day', p.est_click_day]])
  if (p.add_slot !== undefined) {
    const totals = (['slot_begin', 'slot_duration', 'est_impression', 'est_click'] as const).filter((k) => p[k] !== undefined)
    if (totals.length > 0) out.push(problem('plan.combined', { param: 'add_slot', othersParam: totals.join(', ') }))
    const outside = outsideProblem(p.add_slot, c, 'add_slot')
    if (outside) out.push(outside)
    return out
  }
  if (p.slot_begin === undefined && p.slot_duration === undefined) {
    const plan = { beginParam: 'slot_begin', durationParam: 'slot_duration' }
    if (p.est_impression !== undefined) out.push(problem('plan.needsPlan', { param: 'est_impression', ...plan }))
    if (p.est_click !== undefined) out.push(problem('plan.needsPlan', { param: 'est_click', ...plan }))
    return out
  }
  if (p.slot_begin === undefined) out.push(problem('plan.together', { param: 'slot_begin', otherParam: 'slot_duration' }))
  if (p.slot_duration === undefined) out.push(problem('plan.together', { param: 'slot_duration', otherParam: 'slot_begin' }))
  if (p.slot_begin === undefined) return out
  const dates = { start: c.start_date, end: c.end_date }
  if (p.slot_begin < c.start_date || p.slot_begin > c.end_date) out.push(problem('plan.beginOutside', { param: 'slot_begin', date: p.slot_begin, ...dates }))
  else if (p.slot_duration !== undefined) {
    const last = addDays(p.slot_begin, p.slot_duration - 1)
    if (last > c.end_date) out.push(problem('plan.runsPast', { param: 'slot_duration', days: p.slot_duration, begin: p.slot_begin, last, ...dates }))
  }
  return out
}

/** Whether a channel name marks a keyword (search bidding) spot. */
export const isBiddingChannel = (channel: string): boolean => (BIDDING_CHANNELS as readonly string[]).includes(channel)

/**
 * A spot created with a plan (create_spot_with_plan, a batch item) may carry keywords only on a
 * Bidding channel: the problem, or null.
 */
export function keywordChannelProblem(channel: string): ParamProblem | null {
  if (isBiddingChannel(channel)) return null
  return problem('plan.bidding', { param: 'channel_name', got: channel })
}
