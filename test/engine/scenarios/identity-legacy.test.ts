// Identities after an upgrade: earlier versions gave every browser first
// seen behind one address with one agent the same cookie, SHA-256 of the address and agent, for two
// years. Those browsers come back with it. Behind the address it was issued for, it tells none of
// them apart: each goes through the cookie check and gets its own (50 browsers stay 50 persons, none
// abnormal). A browser that carries such a cookie from another address (it moved) keeps counting as
// the identity it had. The truth is counted from the browsers the test made.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine } from '../../helpers/make-engine'
import { TrackingClient } from '../../helpers/tracking-client'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const DAY = '2025-01-10'
const CHROME_131 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const OFFICE = '1.2.4.8'
/** The cookie an earlier version gave a browser on its first hit: SHA-256 of address and agent. */
const oldCookie = (ip: string, ua: string) => createHash('sha256').update(`${ip}\n${ua}`).digest('hex').slice(0, 32)

describe('cookies that earlier versions gave (docs/attribution.md §2)', () => {
  it('split the browsers that share one behind its address, and keep a moved browser as it was', async () => {
    const t = await makeEngine({ today: DAY })
    const cid = await newCampaign(t)
    await createSpot(t, cid)
    const tag = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })).body[0].tracking_tags.impression_url as string
    const shared = oldCookie(OFFICE, CHROME_131)
    const office = Array.from({ length: 50 }, () => {
      const b = new TrackingClient(t.engine, { userAgent: CHROME_131, ip: OFFICE })
      b.jar.set('amid', shared)
      return b
    })
    // a browser whose old cookie was issued at its former address, now seen from the office
    const moved = new TrackingClient(t.engine, { userAgent: CHROME_131, ip: OFFICE })
    const movedCookie = oldCookie('61.135.169.121', CHROME_131)
    moved.jar.set('amid', movedCookie)
    const answers: string[] = []
    for (let round = 0; round < 10; round++) {
      for (const b of [...office, moved]) {
        t.clock.advance(1_000)
        answers.push((await b.last(tag)).headers['x-admonitor-counted'] ?? '')
      }
    }
    // none abnormal: 510 impressions of 51 browsers, 10 each within 10 minutes
    expect(answers.filter((a) => a !== '1')).toEqual([])
    expect(new Set(office.map((b) => b.jar.get('amid'))).size).toBe(50)
    expect(office.some((b) => b.jar.get('amid') === shared)).toBe(false)
    expect(moved.jar.get('amid')).toBe(movedCookie)
    const r = await t.get(endpoints['reports.basic_show'].path, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'acc' })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body.items[0].metrics).toMatchObject({ imp_acc: 510, uim_acc: 51 })
  })
})
