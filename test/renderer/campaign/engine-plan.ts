// The engine's own refusal of a plan (engine/routes/spots-plan.ts), for the renderer tests that
// check the forms say the same (docs/app.md: the engine's own words).
import type { ApiError } from '../../../engine/contract/errors'
import { newSpotPlan, type CampaignDates, type PlanInput } from '../../../engine/routes/spots-plan'

export function engineRefusal(p: PlanInput, campaign: CampaignDates): string {
  try {
    newSpotPlan(p, campaign)
  } catch (e) {
    return (e as ApiError).message
  }
  throw new Error('the engine accepted the plan')
}
