/** The simulator form of the Server page (POST /local/v1/simulate/run, docs/simulator.md). Pure. */
import type { Params } from '../api/client'
import { minDate } from '../reports/items'

export interface SimCampaign {
  campaign_id: string
  start_date: string
  end_date: string
}

export interface SimForm {
  campaign_id: string | null
  from_date: string | null
  to_date: string | null
  seed: number | null
  scale: number | null
  max_hits: number | null
  /** Add to the events the days already have (the engine refuses such days otherwise). */
  append: boolean
}

/** The engine's defaults: from the campaign start to the earlier of today and the campaign end. */
export function defaultRange(c: SimCampaign, today: string): { from_date: string; to_date: string } {
  return { from_date: c.start_date, to_date: minDate(today, c.end_date) }
}

/** What keeps the form from being sent: an i18n key under `server.sim.`, or null. */
export function simProblem(f: SimForm, c: SimCampaign | undefined): 'needCampaign' | 'badRange' | 'outsideCampaign' | null {
  if (!f.campaign_id || !c) return 'needCampaign'
  if (f.from_date && f.to_date && f.from_date > f.to_date) return 'badRange'
  if ((f.to_date && f.to_date < c.start_date) || (f.from_date && f.from_date > c.end_date)) return 'outsideCampaign'
  return null
}

/** The parameters of simulate.run for the form, answering at once with a job to follow. */
export function simParams(f: SimForm): Params {
  return {
    campaign_id: f.campaign_id,
    from_date: f.from_date,
    to_date: f.to_date,
    seed: f.seed ?? undefined,
    scale: f.scale ?? undefined,
    max_hits: f.max_hits ?? undefined,
    append: f.append ? 1 : undefined,
    wait: 0,
  }
}
