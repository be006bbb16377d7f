// spec §4.4 basic/progress; docs/metrics.md (Progress: the latest day that ended 3 hours ago in the engine zone, never past the end)
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { validate } from '../../../engine/contract/schema'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { CAMPAIGN_A, wall } from './dataset'
import { PATHS } from './helpers'
import { progress } from './oracle'

describe('reports.basic_progress', () => {
  let t: TestEngine
  let cid = ''
  beforeAll(async () => {
    t = await makeEngine({ today: '2025-01-09' })
    cid = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'Progress', start_date: CAMPAIGN_A.start, end_date: CAMPAIGN_A.end })).body.campaign_id
  })

  // Local wall times (UTC+8), in increasing order: the clock only moves forward.
  // A day is complete 3 hours after its end: a server-to-server hit dated by the media (nt=) may
  // arrive up to 3 hours late.
  const cases: [string, string][] = [
    ['2025-01-09T12:00:00', '2025-01-08'],
    ['2025-01-12T00:00:00', '2025-01-10'],
    ['2025-01-12T02:59:59.999', '2025-01-10'],
    ['2025-01-12T03:00:00', '2025-01-11'],
    ['2025-01-12T23:59:59.999', '2025-01-11'],
    ['2025-01-20T00:30:00', '2025-01-18'],
    ['2025-01-20T07:59:59', '2025-01-19'], // still 2025-01-19 in UTC
    ['2025-01-20T08:00:00', '2025-01-19'], // 2025-01-20 in UTC too
    ['2025-01-25T23:00:00', '2025-01-24'],
    ['2025-01-26T00:00:00', '2025-01-24'],
    ['2025-01-26T07:00:00', '2025-01-25'],
    ['2025-03-01T12:00:00', '2025-01-25'],
  ]

  it('answers the latest day that ended 3 hours ago in the engine zone, never later than the end date, the same for net and totalnet', async () => {
    const c = { campaign_id: cid, start: CAMPAIGN_A.start, end: CAMPAIGN_A.end, panel_id: '', spots: [], targets: [] }
    for (const [at, want] of cases) {
      t.clock.advance(wall(at) - t.clock.now())
      t.token = await t.login()
      expect(progress(c, t.clock.now()), at).toBe(want)
      for (const filtration_type of [undefined, 'net', 'totalnet']) {
        const r = await t.get(PATHS.progress, { campaign_id: cid, ...(filtration_type ? { filtration_type } : {}) })
        expect(r.status, r.raw.body).toBe(200)
        expect(validate(endpoints['reports.basic_progress'].response, r.body)).toEqual([])
        expect(r.body, `${at} ${filtration_type}`).toEqual({ date: want, campaign_id: Number(cid) })
      }
    }
  })

  it('refuses an unknown campaign and an unknown filtration_type, naming them', async () => {
    const unknown = await t.get(PATHS.progress, { campaign_id: '99999' })
    expect(unknown.status).toBe(400)
    expect(unknown.raw.body).toContain('campaign_id')
    const bad = await t.get(PATHS.progress, { campaign_id: cid, filtration_type: 'gross' })
    expect(bad.status).toBe(400)
    expect(bad.body.error_description).toContain("'filtration_type'")
  })
})
