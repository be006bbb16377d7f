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

  it('refuses days that already have events unless append=1, naming it, and adds with it', async () => {
    const { t, cid } = await campaignWithPlan()
    t.clock.advance(3 * 86_400_000)
    t.token = await t.login()
    const events = async () => ((await t.get(path('measurement.status'))).body.campaigns as { campaign_id: string; events: number }[]).find((c) => c.campaign_id === cid)?.events ?? 0
    expect((await t.post(path('simulate.run'), { campaign_id: cid, from_date: '2025-01-10', to_date: '2025-01-10' })).body.state).toBe('done')
    const once = await events()
    const again = await t.post(path('simulate.run'), { campaign_id: cid, from_date: '2025-01-10', to_date: '2025-01-11' })
    expect([again.status, again.body.error]).toEqual([400, 'invalid_request'])
    expect(again.body.error_description).toBe(`The 'append' must be 1 to simulate 2025-01-10..2025-01-11: campaign ${cid} already has ${once} events on those days, and a second simulation adds its traffic to them (the same seed, the same identities again).`)
    expect(await events()).toBe(once)
    // other days are free; with append=1 the same day is simulated again, on top
    expect((await t.post(path('simulate.run'), { campaign_id: cid, from_date: '2025-01-11', to_date: '2025-01-11' })).body.state).toBe('done')
    const twice = await events()
    expect((await t.post(path('simulate.run'), { campaign_id: cid, from_date: '2025-01-10', to_date: '2025-01-10', append: 1 })).body.state).toBe('done')
    expect(await events()).toBe(twice + once)
  })

  it('refuses an empty range, days outside the campaign and a plan too large to simulate, naming the parameter, and counts nothing', async () => {
    const { t, cid } = await campaignWithPlan()
    const big = await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { placement_name: 'big', slot_begin: '2025-01-10', slot_duration: 5, est_impression: 120_000 }))
    expect(big.status, JSON.stringify(big.body)).toBe(200)
    const huge = await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { placement_name: 'huge', slot_begin: '2025-01-10', slot_duration: 1, est_impression: 1_000_000 }))
    expect(huge.status, JSON.stringify(huge.body)).toBe(200)
    const cases: [Record<string, string | number>, string, RegExp][] = [
      [{ from_date: '2025-01-15', to_date: '2025-01-12' }, 'to_date', /makes an empty range 2025-01-15\.\.2025-01-12/],
      [{ from_date: '2025-02-01', to_date: '2025-02-05' }, 'from_date', /outside the campaign's dates 2025-01-10\.\.2025-01-20/],
      [{ from_date: '2024-12-01', to_date: '2024-12-05' }, 'to_date', /outside the campaign's dates/],
      [{ from_date: '2025-01-12', to_date: '2025-01-14' }, 'from_date', /\(2025-01-12\) is after today \(2025-01-10, Asia\/Shanghai\): traffic is simulated up to now, never ahead/],
      // 10,000 + 24,000 + 1,000,000 impressions today, x100, 12 of its 24 hours (a third of its
      // traffic): 34 million, whatever max_hits keeps; the days ahead do not count
      [{ to_date: '2025-01-14', scale: 100, max_hits: 1000 }, 'scale', /\(100\) plans \d+ hits for 2025-01-10\.\.2025-01-10 up to now, more than the 10000000 one simulation makes: lower it\.$/],
    ]
    for (const [extra, param, text] of cases) {
      const r = await t.post(path('simulate.run'), { campaign_id: cid, ...extra })
      expect([r.status, r.body.error], JSON.stringify(extra)).toEqual([400, 'invalid_request'])
      expect(r.body.error_description).toContain(`The '${param}'`)
      expect(r.body.error_description).toMatch(text)
    }
    expect(((await t.get(path('measurement.status'))).body.campaigns as unknown[]).length).toBe(0)
  })

  it('refuses a campaign with nothing to simulate, saying why (it answered "0 hits over 0 days" as done)', async () => {
    const { t, cid } = await campaignWithPlan()
    const empty = await newCampaign(t, '2025-01-10', '2025-01-20')
    const none = await t.post(path('simulate.run'), { campaign_id: empty })
    expect([none.status, none.body.error_description]).toEqual([400, `The 'campaign_id' (${empty}) has no spots: create its spots (and their plans) first, then simulate.`])
    // a campaign whose only spot is planned on later days than the range
    const later = await newCampaign(t, '2025-01-10', '2025-01-20')
    expect((await t.post(path('campaigns.create_spot_with_plan'), spotForm(later, { slot_begin: '2025-01-15', slot_duration: 2, est_impression: 1000 }))).status).toBe(200)
    const off = await t.post(path('simulate.run'), { campaign_id: later, from_date: '2025-01-10', to_date: '2025-01-10' })
    expect(off.status).toBe(400)
    expect(off.body.error_description).toMatch(/plans no traffic for 2025-01-10\.\.2025-01-10 before now \(2025-01-10 12:00\)/)
    // a range up to after its plan day too: the days ahead are not simulated (a refusal, not a done
    // job of "0 impressions … over 0 days")
    const ahead = await t.post(path('simulate.run'), { campaign_id: later, from_date: '2025-01-10', to_date: '2025-01-16' })
    expect([ahead.status, ahead.body.error]).toEqual([400, 'invalid_request'])
    expect(ahead.body.error_description).toMatch(/^The 'campaign_id' \(\d+\) plans no traffic for 2025-01-10\.\.2025-01-10 before now .*later days/)
    expect((await t.post(path('simulate.run'), { campaign_id: cid })).body.state).toBe('done')
  })

  it('counts only the hours it simulates: 50 million planned tomorrow do not refuse a run of today', async () => {
    const { t, cid } = await campaignWithPlan()
    expect((await t.post(path('campaigns.create_spot_with_plan'), spotForm(cid, { placement_name: 'tomorrow', slot_begin: '2025-01-11', slot_duration: 1, est_impression: 50_000_000 }))).status).toBe(200)
    const job = await t.post(path('simulate.run'), { campaign_id: cid, from_date: '2025-01-10', to_date: '2025-01-13' })
    expect([job.status, job.body.state], JSON.stringify(job.body)).toEqual([200, 'done'])
    // about a third of today's 10,000 impressions and their clicks by 12:00
    expect(job.body.imported).toBeGreaterThan(2500)
    expect(job.body.imported).toBeLessThan(4500)
  })

  it('says over how many days it made traffic: not the days still to come', async () => {
    const { t, cid } = await campaignWithPlan() // 12:00 on the first of the campaign's 11 days
    const job = await t.post(path('simulate.run'), { campaign_id: cid, from_date: '2025-01-10', to_date: '2025-01-20' })
    expect(job.body.message).toMatch(/^\d+ impressions and \d+ clicks from \d+ identities over 1 day; clients: \d+ browsers keeping the cookie, \d+ refusing it .*\d+ apps .*; \d+ addresses shared .*; \d+ prefetches .*; invalid traffic: \d+ declared-bot and \d+ data-centre hits(; .*)?$/)
    // the same figures as members, for an interface to say in its language
    const f = job.body.simulation
    expect(f).toMatchObject({ days: 1, capped: 0, full: 0 })
    expect(job.body.message.startsWith(`${f.impressions} impressions and ${f.clicks} clicks from ${f.identities} identities over 1 day; `)).toBe(true)
    expect(f.impressions + f.clicks).toBe(job.body.imported)
  })

  it('finishes with the panel it started with when the panel is imported again while it runs', async () => {
    const { t, cid } = await campaignWithPlan()
    const panel = (await t.get(path('campaigns.show'), { campaign_id: cid })).body.linked_panels[0] as string
    let job = await t.post(path('simulate.run'), { campaign_id: cid, wait: 0 })
    expect(job.body.state, job.raw.body).toBe('running')
    // a panel import between each two turns of the job, as a user's upload comes whenever it comes
    let imports = 0
    while (job.body.state === 'running' && imports < 200) {
      const person = { person_id: 'p1', weight: 3 + imports, home_region: '000000000000001156440300', tags: ['male'], devices: [{ device: 'amid:000000000000000000000000000a0001', platform: 'pc' }] }
      const r = await t.engine.handle({ method: 'POST', path: path('panels.persons_import'), query: { access_token: t.token, panel_id: panel, format: 'ndjson', mode: 'replace' }, body: JSON.stringify(person), headers: { 'content-type': 'application/x-ndjson' } })
      expect(JSON.parse(r.body).imported, r.body).toBe(1)
      imports++
      await new Promise((done) => setImmediate(done))
      job = await t.get(path('jobs.show'), { job_id: job.body.job_id })
    }
    expect([job.body.state, job.body.message.slice(0, 120)]).toEqual(['done', expect.stringMatching(/^\d+ impressions/)])
    expect(job.body.imported).toBeGreaterThan(1000)
  })
})
