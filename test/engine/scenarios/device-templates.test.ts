// Apps filling ids inconsistently. A media that leaves the IDFA macro
// unfilled in its own template syntax ({IDFA}, ${IDFA}, [IDFA], %s, __IDFA, IDFA, 0x0) sends the
// same text for every device it serves. Taken for an IDFA, that text made its whole audience one
// device (100 iPhones with their own CAIDs: 1 person, 70 of 100 impressions abnormal). The truth
// counted here: one person per iPhone, each by its own CAID.
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, toReply } from '../../helpers/make-engine'
import { trackingRequest } from '../../helpers/tracking-client'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const IPHONE_APP = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
const TEMPLATES = ['{IDFA}', '${IDFA}', '[IDFA]', '%s', '__IDFA', 'IDFA', '0x0', 'idfa']
const DAY = '2025-01-10'

describe('device ids a media left unfilled in its own syntax (docs/attribution.md §2)', () => {
  it('are no id: each iPhone counts by its own CAID', async () => {
    const t = await makeEngine({ today: DAY })
    const cid = await newCampaign(t)
    await createSpot(t, cid)
    const tag = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid, code_type: 'mma' })).body[0].tracking_tags.impression_url as string
    const answers: string[] = []
    for (let i = 0; i < 100; i++) {
      t.clock.advance(3_000)
      const caid = (0xc0ffee00 + i).toString(16).padStart(32, '0')
      const url = tag.replace('__IDFA__', encodeURIComponent(TEMPLATES[i % TEMPLATES.length]!)).replace('__CAID__', caid).replace('__OS__', '1')
      answers.push(toReply(await t.engine.handle(trackingRequest(url, { 'user-agent': IPHONE_APP }, '202.96.134.133'))).headers['x-admonitor-counted'] ?? '')
    }
    expect(answers.filter((a) => a !== '1')).toEqual([])
    const r = await t.get(endpoints['reports.basic_show'].path, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'acc' })
    expect(r.body.items[0].metrics).toMatchObject({ imp_acc: 100, uim_acc: 100 })
  })
})
