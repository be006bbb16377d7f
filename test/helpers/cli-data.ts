/**
 * A data directory as the command line's tests start from: one campaign of today (UTC, the zone of
 * the events' times those tests write) and one spot, made through the engine the CLI opens.
 */
import { local } from '../../bin/commands'
import { openEngine } from '../../bin/open'

/** Makes campaign `name` of today with one spot in `dataDir`; their ids. */
export async function campaignWithSpot(dataDir: string, name: string): Promise<{ campaign: string; spot: string }> {
  const { engine } = await openEngine({ dataDir, timeZone: 'UTC' })
  try {
    const today = new Date().toISOString().slice(0, 10)
    const c = await local(engine, 'POST', '/cms/v1/campaigns/create', { campaign_name: name, start_date: today, end_date: today, platform: 'pm' })
    const campaign = String(c.campaign_id)
    const s = await local(engine, 'POST', '/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })
    return { campaign, spot: String(s.spot_id) }
  } finally {
    await engine.close()
  }
}
