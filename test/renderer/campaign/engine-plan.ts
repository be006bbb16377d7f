// The engine's own refusal of a plan (engine/routes/spots-plan.ts), for the renderer tests that
// check the forms say the same (docs/app.md: the engine's own words).
import { messageOf } from '../../../renderer/src/api/problems'
import { newSpotPlan, type CampaignDates, type PlanInput } from '../../../engine/routes/spots-plan'

/** The engine's refusal of plan `p`, its problem kept as the app's own check keeps it. */
export function engineRefusal(p: PlanInput, campaign: CampaignDates): string {
  try {
    newSpotPlan(p, campaign)
  } catch (e) {
    return messageOf(e)
  }
  throw new Error('the engine accepted the plan')
}
