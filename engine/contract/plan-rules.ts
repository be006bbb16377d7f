// spec §4.3 create_spot_with_plan and batch items; vendor-notes §3.8, §3.9, §8.1, §8.3
/**
 * The rules a new spot's plan and keywords follow, as problems named by parameter. One code for
 * the engine, which refuses a request with the first problem (engine/routes/spots-plan.ts), and
 * for the app's spot form and sheet import, which show every problem on its field before sending
 * (renderer/src/campaign/spot-form.ts, bulk.ts): the two cannot word a rule differently.
 */
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

/** A refused parameter and why, worded to follow "The '<param>' " (badParam). */
export interface ParamProblem {
  param: string
  problem: string
}

const DAY_MS = 86_400_000

/** The date `n` days after `date` (YYYY-MM-DD, calendar arithmetic in UTC). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)
}

const range = (c: CampaignDates) => `the campaign's dates ${c.start_date}..${c.end_date}`

/** A campaign's dates must not run backwards: the problem, or null (create, update, a queued draft). */
export function campaignDatesProblem(c: CampaignDates): ParamProblem | null {
  return c.end_date < c.start_date ? { param: 'end_date', problem: `(${c.end_date}) is earlier than start_date (${c.start_date})` } : null
}

/** Every date must lie within the campaign (vendor-notes §8.3): the first one outside, or null. */
export function outsideProblem(dates: readonly string[], c: CampaignDates, param: string): ParamProblem | null {
  const out = dates.find((d) => d < c.start_date || d > c.end_date)
  return out === undefined ? null : { param, problem: `has ${out}, outside ${range(c)}` }
}

/** Per-date estimate lists must come with the dates of `listName` and have one value a date. */
export function estimateProblems(dates: readonly string[] | undefined, listName: string, lists: readonly (readonly [string, readonly number[] | undefined])[]): ParamProblem[] {
  const out: ParamProblem[] = []
  for (const [param, values] of lists) {
    if (values === undefined) continue
    if (dates === undefined) out.push({ param, problem: `requires ${listName}` })
    else if (values.length !== dates.length) out.push({ param, problem: `has ${values.length} values for the ${dates.length} dates of ${listName}` })
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
  const add = (param: string, problem: string) => out.push({ param, problem })
  if (p.add_slot !== undefined) {
    const totals = (['slot_begin', 'slot_duration', 'est_impression', 'est_click'] as const).filter((k) => p[k] !== undefined)
    if (totals.length > 0) add('add_slot', `cannot be combined with ${totals.join(', ')}`)
    const outside = outsideProblem(p.add_slot, c, 'add_slot')
    if (outside) out.push(outside)
    return out
  }
  if (p.slot_begin === undefined && p.slot_duration === undefined) {
    if (p.est_impression !== undefined) add('est_impression', 'requires a plan: send slot_begin and slot_duration')
    if (p.est_click !== undefined) add('est_click', 'requires a plan: send slot_begin and slot_duration')
    return out
  }
  if (p.slot_begin === undefined) add('slot_begin', 'must be sent together with slot_duration')
  if (p.slot_duration === undefined) add('slot_duration', 'must be sent together with slot_begin')
  if (p.slot_begin === undefined) return out
  if (p.slot_begin < c.start_date || p.slot_begin > c.end_date) add('slot_begin', `(${p.slot_begin}) lies outside ${range(c)}`)
  else if (p.slot_duration !== undefined) {
    const last = addDays(p.slot_begin, p.slot_duration - 1)
    if (last > c.end_date) add('slot_duration', `(${p.slot_duration} days from ${p.slot_begin}, to ${last}) runs past ${range(c)}`)
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
  return { param: 'channel_name', problem: `must be 'Bidding' or 'Bidding word' (Bidding word, capital B) for a spot with keywords, got '${channel}'` }
}
