// The engine's refusal of a campaign name already in use, as the app's client reads it (field-message and form-alert tests).
import { makeEngine } from '../helpers/make-engine'
import { asAppClient, clientRefusal } from './app-client'

/** Creates campaign 'Spring' and then another of the same name: the refusal's message, and the first campaign's id. */
export async function nameUsedRefusal(): Promise<{ text: string; id: string }> {
  const t = asAppClient(await makeEngine())
  const form = { campaign_name: 'Spring', start_date: '2025-01-10', end_date: '2025-01-20' }
  const first = await t.post('/cms/v1/campaigns/create', form)
  return { text: clientRefusal(await t.post('/cms/v1/campaigns/create', form)), id: String(first.body.campaign_id) }
}
