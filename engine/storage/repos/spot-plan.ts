/** Daily spot plans (table spot_plan, vendor-notes §8.3): spreading totals over days, SQL. */
import type { PlanDay } from '../../contract/models'
import { addDays } from '../../contract/plan-rules'
import type { Db, Param } from '../db'

/**
 * `total` spread over `days` days: floor(total / days) each, and the first (total % days)
 * days one more, so the days add up to the total exactly.
 */
export function spread(total: number, days: number): number[] {
  const base = Math.floor(total / days)
  const extra = total % days
  return Array.from({ length: days }, (_, i) => base + (i < extra ? 1 : 0))
}

/** The plan of `duration` days from `begin`, with the totals spread evenly (a missing total is 0). */
export function planFromTotals(begin: string, duration: number, impressions = 0, clicks = 0): PlanDay[] {
  const imp = spread(impressions, duration)
  const clk = spread(clicks, duration)
  return imp.map((est_impression, i) => ({ date: addDays(begin, i), est_impression, est_click: clk[i] ?? 0 }))
}

/** Rows per INSERT statement: a few statements instead of one per day (3000-spot batches). */
const ROWS_PER_INSERT = 200

/** Writes plan days of one spot (new dates only). */
export function insertPlan(db: Db, spotId: number, days: readonly PlanDay[]): void {
  for (let i = 0; i < days.length; i += ROWS_PER_INSERT) {
    const chunk = days.slice(i, i + ROWS_PER_INSERT)
    const params: Param[] = chunk.flatMap((d) => [spotId, d.date, d.est_impression, d.est_click])
    db.run(`INSERT INTO spot_plan(spot_id, date, est_impression, est_click) VALUES ${chunk.map(() => '(?,?,?,?)').join(',')}`, params)
  }
}

/** The plan days of one spot, by date. */
export function planOf(db: Db, spotId: number): PlanDay[] {
  return db.query<PlanDay>('SELECT date, est_impression, est_click FROM spot_plan WHERE spot_id = ? ORDER BY date', [spotId])
}

/** Sets the estimates given for existing days; a missing list leaves that estimate as it is. */
export function updatePlanDays(db: Db, spotId: number, days: readonly { date: string; est_impression?: number | undefined; est_click?: number | undefined }[]): void {
  for (const d of days) {
    db.run('UPDATE spot_plan SET est_impression = COALESCE(?, est_impression), est_click = COALESCE(?, est_click) WHERE spot_id = ? AND date = ?', [
      d.est_impression ?? null, d.est_click ?? null, spotId, d.date,
    ])
  }
}

/** Removes days of one spot's plan. */
export function deletePlanDays(db: Db, spotId: number, dates: readonly string[]): void {
  if (dates.length === 0) return
  db.run(`DELETE FROM spot_plan WHERE spot_id = ? AND date IN (${dates.map(() => '?').join(',')})`, [spotId, ...dates])
}

/**
 * Plan days of the spots a sub-select picks, within [from, to] when given, in one query. SQLite
 * builds each spot's list as JSON: one row per spot instead of one per day (3000 spots x 30 days).
 */
export function plansIn(db: Db, spotIds: string, params: readonly Param[], from?: string, to?: string): Map<number, PlanDay[]> {
  const bounds = `${from === undefined ? '' : ' AND date >= ?'}${to === undefined ? '' : ' AND date <= ?'}`
  const extra = [from, to].filter((d): d is string => d !== undefined)
  const rows = db.query<{ spot_id: number; days: string }>(
    `SELECT spot_id, json_group_array(json_object('date', date, 'est_impression', est_impression, 'est_click', est_click) ORDER BY date) AS days
     FROM spot_plan WHERE spot_id IN (${spotIds})${bounds} GROUP BY spot_id`,
    [...params, ...extra],
  )
  return new Map(rows.map((r) => [r.spot_id, JSON.parse(r.days) as PlanDay[]]))
}

/** The plan days of a campaign's spots with their spot, in no particular order. */
export const planDaysOfCampaign = (db: Db, campaignId: number): { spot_id: number; date: string; est_impression: number; est_click: number }[] =>
  db.query('SELECT p.spot_id, p.date, p.est_impression, p.est_click FROM spot_plan p JOIN spots s ON s.spot_id = p.spot_id WHERE s.campaign_id = ?', [campaignId])
