// The cookie check, as real browsers and crawlers meet it: a browser whose first
// request comes seconds before midnight of the campaign's last day and whose redirect comes back after
// it is one impression of that day, at that hour (the impression it saw); a declared crawler gets no
// check (no redirect, no cookie) and is counted at once, in realtime only.
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, toReply } from '../../helpers/make-engine'
import { trackingRequest } from '../../helpers/tracking-client'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const DAY = '2025-01-10'

describe('the cookie check (docs/attribution.md §2)', () => {
  it('dates the hit at the first request, not at the browser\'s return', async () => {
    const t = await makeEngine({ today: DAY })
    const cid = await newCampaign(t, DAY, DAY)
    await createSpot(t, cid)
    const tag = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })).body[0].tracking_tags.impression_url as string
    t.clock.t = Date.parse(`${DAY}T23:59:55+08:00`)
    const first = toReply(await t.engine.handle(trackingRequest(tag, { 'user-agent': CHROME }, '202.96.134.133')))
    expect(first.status).toBe(302)
    const cookie = first.headers['set-cookie']!.split(';')[0]!
    // the browser comes back 8 s later: past midnight, a day after the campaign's last
    t.clock.advance(8_000)
    const second = toReply(await t.engine.handle(trackingRequest(first.headers.location!, { 'user-agent': CHROME, cookie }, '202.96.134.133')))
    expect(second.headers['x-admonitor-counted']).toBe('1')
    t.token = await t.login()
    const rt = await t.get(endpoints['reports.realtime_show'].path, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'all' })
    expect(rt.body.items[0].metrics).toMatchObject({ imp_day: 1, imp_h23: 1 })
    const basic = await t.get(endpoints['reports.basic_show'].path, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'acc' })
    expect(basic.body.items[0].metrics).toMatchObject({ imp_acc: 1, uim_acc: 1 })
  })

  it('gives a declared crawler none: counted at once, in realtime only', async () => {
    const t = await makeEngine({ today: DAY })
    const cid = await newCampaign(t, DAY, '2025-01-31')
    await createSpot(t, cid)
    const tag = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })).body[0].tracking_tags.impression_url as string
    for (const ua of ['curl/8.5.0', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)']) {
      const r = toReply(await t.engine.handle(trackingRequest(tag, { 'user-agent': ua }, '202.96.134.133')))
      expect(r.status, ua).toBe(200)
      expect(r.headers['set-cookie'], ua).toBeUndefined()
      expect(r.headers['x-admonitor-counted'], ua).toMatch(/^0; invalid traffic \(declared bot: .*\): counted in realtime only$/)
    }
    const rt = await t.get(endpoints['reports.realtime_show'].path, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'day' })
    expect(rt.body.items[0].metrics).toMatchObject({ imp_day: 2 })
  })
})
