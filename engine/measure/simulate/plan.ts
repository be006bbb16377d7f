/**
 * The volumes a simulation produces: per spot and day, the plan's estimates (scaled) or a default
 * by placement type, and clicks from the plan or a click-through rate (docs/simulator.md).
 */
import { E, badRequest, refuse } from '../../contract/errors'
import type { Db } from '../../storage/db'
import { campaignDatesAndCap } from '../../storage/repos/campaigns'
import { planDaysOfCampaign } from '../../storage/repos/spot-plan'
import { keywordSpotsOfCampaign, simulatedSpotsOf } from '../../storage/repos/spots'
import { dayDate, dayNumber } from '../../time-zone'
import { daySlots } from './day-schedule'
import * as d from './distributions'
import { simulationKey, unit } from './hash'
import { fillOf, mediaText, mobileShareOf, parseSpotCap, type MediaFields } from './media'
import { profileOf } from './profiles'
import type { PoolSize } from './audience'
import type { SimulationInput, SimulationPlan, SpotVolume } from './types'

const DATE = /^\d{4}-\d{2}-\d{2}$/

interface SpotRow extends MediaFields {
  spot_id: number
  publisher_id: number
  report_metrics: string
  freq_capping: string
}

interface PlanRow {
  spot_id: number
  date: string
  est_impression: number
  est_click: number
}

function validZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return true
  } catch {
    return false
  }
}

/** Rejects input the simulator cannot use, naming the member. */
export function checkInput(input: SimulationInput): void {
  for (const name of ['from', 'to'] as const) {
    if (!DATE.test(input[name]) || dayDate(dayNumber(input[name])) !== input[name]) throw badRequest('sim.date', { param: name })
  }
  if (!Number.isInteger(input.seed)) throw badRequest('sim.integer', { param: 'seed' })
  if (!validZone(input.timeZone)) throw badRequest('sim.zone', { param: 'timeZone', value: input.timeZone })
  const scale = input.scale ?? 1
  if (!Number.isFinite(scale) || scale < 0) throw badRequest('sim.scale', { param: 'scale' })
  if (input.maxHits !== undefined && !(Number.isInteger(input.maxHits) && input.maxHits >= 0)) throw badRequest('sim.maxHits', { param: 'maxHits' })
  if (input.until !== undefined && !Number.isFinite(input.until)) throw badRequest('sim.until', { param: 'until' })
  const chunk = input.chunkSize
  if (chunk !== undefined && !(Number.isInteger(chunk) && chunk >= 1 && chunk <= d.CHUNK_SIZE)) throw badRequest('sim.chunkSize', { param: 'chunkSize', max: d.CHUNK_SIZE })
}

interface CampaignRow {
  start_date: string
  end_date: string
  freq_capping: number | null
}

/** The campaign, or invalid_campaign_id. */
function campaignOf(db: Db, campaignId: number): CampaignRow {
  const c = campaignDatesAndCap(db, campaignId)
  if (!c) throw refuse(E.invalidCampaignId, 'param.notFound', { param: 'campaign_id', value: String(campaignId) })
  return c
}

/**
 * The dates of from..to within the campaign's dates that begin before `until`, and the share of
 * each day's traffic (by the hour curve) before it: the days a run really simulates.
 */
function simulatedDays(c: CampaignRow, input: SimulationInput): { days: string[]; dayShare: number[] } {
  const first = dayNumber(input.from > c.start_date ? input.from : c.start_date)
  const last = dayNumber(input.to < c.end_date ? input.to : c.end_date)
  const until = input.until ?? Infinity
  const days: string[] = []
  const dayShare: number[] = []
  for (let day = first; day <= last; day++) {
    const slots = daySlots(input.timeZone, day)
    if (slots[0]!.start >= until) break
    let before = 0
    let all = 0
    for (const s of slots) {
      const w = d.HOUR_WEIGHTS[s.hour]! * (s.end - s.start)
      all += w
      before += w * Math.min(1, Math.max(0, (until - s.start) / (s.end - s.start)))
    }
    days.push(dayDate(day))
    dayShare.push(before / all)
  }
  return { days, dayShare }
}

/**
 * What the audience is sized for: the impressions of the days simulated (emitted or not:
 * click-only spots), today's whole however much of it runs before `until`, their days and mobile
 * share. So a run's hits depend on the seed, the input and the day it runs, not on the time of
 * day it stops: a run a few minutes later (the demo, the API's default of up to now) draws the
 * same clients for every past day. Days after `until` are left out, not to dilute the frequency
 * of a campaign simulated up to now.
 */
function poolOf(volumes: readonly SpotVolume[], days: number): PoolSize {
  let impressions = 0
  let mobile = 0
  for (const v of volumes) {
    for (const imp of v.impressions) {
      impressions += imp
      mobile += imp * v.mobileShare
    }
  }
  return { impressions, days, mobileShare: impressions > 0 ? mobile / impressions : d.MOBILE_SHARE }
}

/** Volume of a day without an estimate: the default, more at weekends, varying by day. */
function defaultImpressions(key: number, s: SpotRow, keyworded: boolean, day: number, scale: number): number {
  const base = keyworded ? d.DEFAULT_KEYWORD_DAILY_IMPRESSIONS : d.DEFAULT_DAILY_IMPRESSIONS[s.placement_type] ?? d.DEFAULT_DAILY_IMPRESSIONS.display!
  const weekday = (day + 4) % 7 // 1970-01-01 was a Thursday; 0 is Sunday
  const weekend = weekday === 0 || weekday === 6 ? d.WEEKEND_FACTOR : 1
  return Math.round(base * scale * weekend * (1 + d.DAY_JITTER * (2 * unit(key, s.spot_id, day * 4) - 1)))
}

/** The click-through rate of a spot: drawn once in its placement type's range. */
function spotCtr(key: number, s: SpotRow, keyworded: boolean): number {
  const [lo, hi] = keyworded ? d.KEYWORD_CTR_RANGE : d.CTR_RANGE[s.placement_type] ?? d.CTR_RANGE.display!
  return lo + (hi - lo) * unit(key ^ 0x5bd1e995, s.spot_id, 0)
}

/**
 * Impressions of a day: a spot without a plan gets the default every day; a spot with a plan
 * runs on its plan's dates, with the planned volume: a planned 0 is "not live that day".
 * Clicks planned without impressions get the default impressions to come from.
 */
function dayImpressions(key: number, s: SpotRow, keyworded: boolean, rows: Map<string, PlanRow> | undefined, row: PlanRow | undefined, day: number, scale: number): number {
  if (rows === undefined) return defaultImpressions(key, s, keyworded, day, scale)
  if (row === undefined) return 0
  if (row.est_impression > 0) return Math.round(row.est_impression * scale)
  return row.est_click > 0 ? defaultImpressions(key, s, keyworded, day, scale) : 0
}

function spotVolume(key: number, s: SpotRow, keywords: number[], rows: Map<string, PlanRow> | undefined, days: readonly string[], scale: number): SpotVolume {
  const keyworded = keywords.length > 0
  const ctr = spotCtr(key, s, keyworded)
  const tracksClicks = s.report_metrics !== 'impression'
  const v: SpotVolume = {
    spot_id: s.spot_id, placement_type: s.placement_type, keywords, emitsImpressions: s.report_metrics !== 'click', impressions: [], clicks: [],
    publisher_id: s.publisher_id, mobileShare: mobileShareOf(s), cap: parseSpotCap(s.freq_capping),
    profile: profileOf(mediaText(s)), fill: fillOf(key, s.spot_id),
  }
  for (const date of days) {
    const day = dayNumber(date)
    const row = rows?.get(date)
    const imp = dayImpressions(key, s, keyworded, rows, row, day, scale)
    let clk = 0
    if (tracksClicks && imp > 0) {
      clk = row !== undefined && row.est_click > 0 ? Math.round(row.est_click * scale) : Math.round(imp * ctr * (1 + d.CTR_DAY_JITTER * (2 * unit(key, s.spot_id, day * 4 + 1) - 1)))
    }
    v.impressions.push(imp)
    v.clicks.push(clk)
  }
  return v
}

/** Groups rows by a numeric member. */
function groupBy<T, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>()
  for (const r of rows) {
    const list = out.get(keyOf(r))
    if (list) list.push(r)
    else out.set(keyOf(r), [r])
  }
  return out
}

/**
 * The volumes of a simulation, without generating it: exactly what simulate() emits, but for the
 * hours at and after `until` and what frequency capping cannot place.
 */
export function plan(input: SimulationInput): SimulationPlan {
  checkInput(input)
  const { db, campaignId } = input
  const c = campaignOf(db, campaignId)
  const { days, dayShare } = simulatedDays(c, input)
  const key = simulationKey(input.seed, campaignId)
  const spots: SpotRow[] = simulatedSpotsOf(db, campaignId)
  const keywords = groupBy(keywordSpotsOfCampaign(db, campaignId, true), (k) => k.spot_id)
  const planRows = groupBy(planDaysOfCampaign(db, campaignId), (r) => r.spot_id)
  const volumes = spots.map((s) => {
    const rows = planRows.get(s.spot_id)
    const byDate = rows ? new Map(rows.map((r) => [r.date, r])) : undefined
    return spotVolume(key, s, (keywords.get(s.spot_id) ?? []).map((k) => k.keyword_id), byDate, days, input.scale ?? 1)
  })
  let impressions = 0
  let clicks = 0
  let expected = 0
  for (const v of volumes) {
    for (let i = 0; i < days.length; i++) {
      const n = (v.emitsImpressions ? v.impressions[i]! : 0) + v.clicks[i]!
      if (v.emitsImpressions) impressions += v.impressions[i]!
      clicks += v.clicks[i]!
      expected += n * dayShare[i]!
    }
  }
  const campaignCap = c.freq_capping !== null && c.freq_capping > 0 ? c.freq_capping : null
  return { campaignId, days, dayShare, spots: volumes, impressions, clicks, hits: impressions + clicks, expectedHits: Math.round(expected), campaignCap, pool: poolOf(volumes, days.length) }
}
