// POST /local/v1/simulate/run: the simulator as a job through the ingest (docs/simulator.md)
import { describe, expect, it } from 'vitest'
import { makeEngine } from '../../helpers/make-engine'
import { newCampaign, path, spotForm } from './spot-helpers'

async function campaignWithPlan() {
  const t = await makeEngine()
  const cid = await newCampaign(t, '2025-01-10', '2025-01-20')
  const r = await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { slot_begin: '2025-01-10', slot_duration: 5, est_impression: 50_000, est_click: 500 }))
  expect(r.status).toBe(200)
  return { t, cid }
}

describe('simulate.run', () => {
  it('stops today at the current hour: no traffic in hours not reached yet, and the job counts what it made', async () => {
    const { t, cid } = await campaignWithPlan() // the test clock stands at 12:00 (UTC+8) on the first day
    const job = await t.post(path('simulate.run'), { campaign_id: cid })
    expect(job.status).toBe(200)
    expect(job.body.state).toBe('done')
    expect(job.body.processed).toBe(job.body.total)
    expect(job.body.processed).toBeGreaterThan(1000)
    const rt = await t.get(path('reports.realtime_show'), { campaign_id: cid, date: '2025-01-10', by_position: 'campaign', platform: 'pm', metrics: 'all' })
    expect(rt.status).toBe(200)
    const hours = rt.body.items.flatMap((i: { metrics: Record<string, number> }) => Object.entries(i.metrics).filter(([k, v]) => /^imp_h\d\d$/.test(k) && v > 0).map(([k]) => Number(k.slice(5))))
    expect(hours.length).toBeGreaterThan(0)
    expect(Math.max(...hours)).toBeLessThan(12)
  })

  it('simulates whole days once they are past', async () => {
    const { t, cid } = await campaignWithPlan()
    t.clock.advance(3 * 86_400_000)
    t.token = await t.login() // the first token expired meanwhile
    const job = await t.post(path('simulate.run'), { campaign_id: cid, to_date: '2025-01-12' })
    expect(job.body.state, job.raw.body).toBe('done')
    const rt = await t.get(path('reports.realtime_show'), { campaign_id: cid, date: '2025-01-12', by_position: 'campaign', platform: 'pm', metrics: 'all' })
    const late = rt.body.items.some((i: { metrics: Record<string, number> }) => (i.metrics.imp_h22 ?? 0) + (i.metrics.imp_h23 ?? 0) > 0)
    expect(late).toBe(true)
  })
})
