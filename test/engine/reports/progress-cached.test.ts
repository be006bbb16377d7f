// docs/metrics.md (Progress: the latest day that ended 3 hours ago in the engine zone): the answer
// follows the clock while nothing is written or counted, i.e. an answer kept by the answer cache
// (engine/dispatch/steps/answer-cache.ts) is not sent once 03:00 has passed.
import { beforeAll, describe, expect, it } from 'vitest'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { CAMPAIGN_A, wall } from './dataset'
import { PATHS } from './helpers'

describe('reports.basic_progress asked again with no write between', () => {
  let t: TestEngine
  let cid = ''
  beforeAll(async () => {
    t = await makeEngine({ today: '2025-01-09' })
    cid = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'Progress kept', start_date: CAMPAIGN_A.start, end_date: CAMPAIGN_A.end })).body.campaign_id
  })

  it('moves to the next day at 03:00 with the same token and no write or counted event meanwhile', async () => {
    t.clock.advance(wall('2025-01-12T02:59:00') - t.clock.now())
    t.token = await t.login()
    const before = await t.get(PATHS.progress, { campaign_id: cid })
    expect(before.body).toEqual({ date: '2025-01-10', campaign_id: Number(cid) })
    t.clock.advance(wall('2025-01-12T03:00:00') - t.clock.now())
    const after = await t.get(PATHS.progress, { campaign_id: cid })
    expect(after.body).toEqual({ date: '2025-01-11', campaign_id: Number(cid) })
  })
})
