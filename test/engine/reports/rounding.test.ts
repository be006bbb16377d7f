// docs/metrics.md, "Rounding": projections are rounded half up from unrounded sums. Decimal weights
// are summed as whole units (engine/measure/panel/types.ts), so 0.51 + 2.34 + 0.65 is 3.5 and
// rounds to 4; summed as floats it is 3.4999999999999996 and rounded to 3. Projected impressions
// and reach are calibrated to the census ("Calibration"): here the census holds 3 impressions and
// 3 clicks, the panel's raw projection 3.5 of each, so the factor is 3 / 3.5 and every projection
// of the three persons is 3; GRP divides by the exact universe, 100 x 3 / 3.5 = 85.7 -> 86.
import { describe, expect, it } from 'vitest'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

const HOME = '000000000000001156110100'
const device = (n: number) => `idfa:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const PERSONS = [0.51, 2.34, 0.65].map((weight, i) => ({ person_id: `q${i + 1}`, weight, home_region: HOME, tags: ['male'], devices: [{ device: device(i + 1), platform: 'mb' }] }))

async function post(t: TestEngine, path: string, query: Record<string, string>, lines: unknown[]): Promise<void> {
  const r = await t.engine.handle({ method: 'POST', path, query: { access_token: t.token, format: 'ndjson', ...query }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
}

describe('projections from decimal weights', () => {
  it('round an exact .5 up: universe, reach, GRP, target figures and the panel summary', async () => {
    expect(0.51 + 2.34 + 0.65).toBeLessThan(3.5) // what float addition gives
    const t = await makeEngine({ today: '2025-01-09' })
    const campaign = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'Ties', start_date: '2025-01-09', end_date: '2025-01-25', platform: 'pm' })).body.campaign_id as string
    const spot = (await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })).body.spot_id as string
    const panelId = (await t.get('/cms/v1/campaigns/show', { campaign_id: campaign })).body.linked_panels[0] as string
    await post(t, '/local/v1/panels/persons/import', { panel_id: panelId, mode: 'replace' }, PERSONS)
    expect((await t.post('/cms/v1/campaigns/publish_target', { campaign_id: campaign, target_name: 'Men', tag_id: 'male' })).status).toBe(200)
    const hit = (type: string, n: number) => ({ type, ts: '2025-01-09T10:00:00+08:00', campaign_id: campaign, spot_id: spot, identity: device(n), platform: 'mb', region_id: HOME })
    await post(t, '/local/v1/events/import', {}, [1, 2, 3].flatMap((n) => [hit('impression', n), hit('click', n)]))

    for (const audience of ['overall', 'target']) {
      const r = await t.get('/admonitor/v1/reports/reach/show', { campaign_id: campaign, date: '2025-01-09', platform: 'mb', by_audience: audience, metrics: 'all' })
      expect(r.status, r.raw.body).toBe(200)
      expect(r.body.items[0].attributes.universe, audience).toBe(4)
      expect(r.body.items[0].metrics, audience).toMatchObject({ imp_acc: 3, grp_acc: 86, rch_acc_p01: 3, rch_spl_p01: 3 })
    }
    const basic = await t.get('/admonitor/v1/reports/basic/show', { campaign_id: campaign, date: '2025-01-09', platform: 'mb', by_audience: 'target', metrics: 'acc' })
    expect(basic.status, basic.raw.body).toBe(200)
    expect(basic.body.items[0].attributes.universe).toBe(4)
    expect(basic.body.items[0].metrics).toMatchObject({ imp_acc: 3, clk_acc: 3, uim_acc: 3, ucl_acc: 3 })
    const overview = await t.get('/admonitor/v1/reports/audience/show_overview', { campaign_id: campaign, date: '2025-01-09' })
    expect(overview.body.items[0].metrics).toMatchObject({ uim_acc: 3, ucl_acc: 3, uim_spl: 3 })
    const summary = await t.get('/local/v1/panels/persons/summary', { panel_id: panelId })
    expect(summary.body.weight_total).toBe(4)
  })
})
