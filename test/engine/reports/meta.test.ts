// Campaign metadata of the reports is read once per database version: a write (a new spot, a
// changed filtration) shows in the next report, while new hits alone reuse it
import { describe, expect, it } from 'vitest'
import { makeEngine } from '../../helpers/make-engine'

describe('report metadata', () => {
  it('follows writes: a spot created after a report has its rows in the next one', async () => {
    const t = await makeEngine({ today: '2025-01-09' })
    const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Meta follows', start_date: '2025-01-12', end_date: '2025-01-25' })
    expect(c.status, JSON.stringify(c.body)).toBe(200)
    const campaign = c.body.campaign_id as string
    const spot = async (name: string) => {
      const r = await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: name })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return r.body.spot_id as string
    }
    const spotsIn = async () => {
      const r = await t.get('/admonitor/v1/reports/basic/show', { campaign_id: campaign, date: '2025-01-13', by_position: 'spot', with_null: '1', metrics: 'acc' })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return [r.body.total_spot_num, [...new Set(r.body.items.map((i: { attributes: { spot_id: string } }) => i.attributes.spot_id))].sort()]
    }
    const first = await spot('top')
    expect(await spotsIn()).toEqual([1, [first]])
    const second = await spot('side')
    expect(await spotsIn()).toEqual([2, [first, second].sort()])
  })
})
