// docs/attribution.md §2: browsers behind one address with one user agent, as real
// traffic has them (each its own cookie jar, following the cookie check), and clients that keep no
// cookie. The truth is what each test sent, counted here by plain loops.
import { beforeEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, type Reply, type TestEngine } from '../../helpers/make-engine'
import { TrackingClient } from '../../helpers/tracking-client'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const BASIC = endpoints['reports.basic_show'].path
const GLOBAL = '000000000000000000000000'
/** Chrome's reduced user agent: every Chrome 131 on Windows sends exactly this. */
const CHROME_131 = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const OFFICE = '202.96.134.133'
const CARRIER_NAT = '117.136.12.34'

let t: TestEngine
let cid = ''
let tag = ''

beforeEach(async () => {
  t = await makeEngine({ today: '2025-01-10' })
  cid = await newCampaign(t)
  // (data-centre hits count on this spot: the scenario is about identities, not addresses' owners)
  const spot = await createSpot(t, cid, { dangerous_source_filtration: 0 })
  expect(spot.status, spot.raw.body).toBe(200)
  const listed = await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })
  tag = listed.body[0].tracking_tags.impression_url as string
})

/** The global row of basic/show on `date` (every platform). */
async function basic(date: string, filtration_type = 'net'): Promise<Record<string, number>> {
  t.token = await t.login()
  const r = await t.get(BASIC, { campaign_id: cid, date, platform: 'pm', metrics: 'all', filtration_type })
  expect(r.status, r.raw.body).toBe(200)
  return (r.body.items as { attributes: { region_id: string }; metrics: Record<string, number> }[]).find((i) => i.attributes.region_id === GLOBAL)?.metrics ?? {}
}

const counted = (answers: Reply[]): string => answers[answers.length - 1]!.headers['x-admonitor-counted'] ?? ''

describe('50 browsers behind one office address with one Chrome 131 agent', () => {
  it('are 50 persons, none of their 500 impressions abnormal, and stay 50 when later seen from their homes', async () => {
    const browsers = Array.from({ length: 50 }, () => new TrackingClient(t.engine, { userAgent: CHROME_131, ip: OFFICE }))
    let sent = 0
    const saidNotCounted: string[] = []
    for (let round = 0; round < 10; round++) {
      for (const b of browsers) {
        t.clock.advance(1_000) // 500 impressions within 500 s: within one 10-minute window
        const answers = await b.get(tag)
        sent++
        if (counted(answers) !== '1') saidNotCounted.push(counted(answers))
      }
    }
    // truth: 50 browsers, each sent 10 impressions
    expect(sent).toBe(500)
    expect(saidNotCounted).toEqual([])
    const day1 = await basic('2025-01-10')
    expect(day1.imp_acc).toBe(500)
    expect(day1.uim_acc).toBeGreaterThanOrEqual(50)
    expect(day1.uim_acc).toBeLessThanOrEqual(51)
    expect((await basic('2025-01-10', 'totalnet')).imp_acc).toBe(500)

    // the next day, each from its own home address, with the cookie it keeps
    t.clock.advance(86_400_000)
    browsers.forEach((b, i) => (b.ip = `113.${64 + (i >> 4)}.${(i * 7) % 250}.${10 + i}`))
    for (const b of browsers) {
      t.clock.advance(2_000)
      expect(counted(await b.get(tag))).toBe('1')
    }
    const both = await basic('2025-01-11')
    expect(both.imp_acc).toBe(550)
    expect(both.uim_acc).toBe(day1.uim_acc)
  })

  it('get a cookie each, never the same one, and not one computed from the address and agent', async () => {
    const values: string[] = []
    for (let i = 0; i < 200; i++) {
      const first = (await new TrackingClient(t.engine, { userAgent: CHROME_131, ip: OFFICE, followsRedirects: false }).get(tag))[0]!
      expect(first.status).toBe(302)
      values.push(/^amid=([0-9a-f]{32});/.exec(first.headers['set-cookie'] ?? '')?.[1] ?? '')
    }
    expect(values.every((v) => /^[0-9a-f]{32}$/.test(v))).toBe(true)
    expect(new Set(values).size).toBe(values.length)
  })
})

describe('200 phones on one carrier-NAT address that never keep a cookie', () => {
  it('are one stable identity, over two days, not one per hit', async () => {
    const phones = Array.from({ length: 200 }, () => new TrackingClient(t.engine, { userAgent: IPHONE, ip: CARRIER_NAT, keepsCookies: false }))
    for (const day of [0, 1]) {
      for (const p of phones) {
        t.clock.advance(3_000)
        const answers = await p.get(tag)
        // the check, then the hit counted (or beyond the one identity's frequency limit)
        expect(answers.map((a) => a.status)).toEqual([302, 200])
        expect(counted(answers)).toMatch(/^(1|0; invalid traffic \(beyond the identity's frequency limit)/)
      }
      if (day === 0) t.clock.advance(86_400_000 - 600_000)
    }
    const first = await basic('2025-01-10', 'totalnet')
    expect([first.imp_acc, first.uim_acc]).toEqual([200, 1])
    const both = await basic('2025-01-11', 'totalnet')
    expect([both.imp_acc, both.uim_acc, both.uim_day]).toEqual([400, 1, 1])
  })
})
