// docs/attribution.md §5 "Abnormal frequency": the limit slides with each hit (the
// 10 minutes up to it), not clock-aligned windows. Impressions go through the event import (times
// to the millisecond); the truth is counted here by a plain loop over the times the test sent.
import { beforeEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const BASIC = endpoints['reports.basic_show'].path
const GLOBAL = '000000000000000000000000'
const DAY = '2025-01-10'
/** 2025-01-10 10:00:00 +08:00: a boundary of clock-aligned 10-minute windows. */
const BOUNDARY = Date.parse('2025-01-10T10:00:00+08:00')
const SEC = 1_000
const MIN = 60_000

let t: TestEngine
let cid = ''
let sid = ''

beforeEach(async () => {
  t = await makeEngine({ today: DAY })
  cid = await newCampaign(t)
  expect((await createSpot(t, cid)).status).toBe(200)
  sid = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })).body[0].spot_id as string
})

async function importTimes(identity: string, times: number[]): Promise<void> {
  const body = times.map((ts) => JSON.stringify({ type: 'impression', ts, campaign_id: cid, spot_id: sid, identity, platform: 'mb' })).join('\n')
  const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body, headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
  expect(JSON.parse(r.body).imported, r.body).toBe(times.length)
}

async function impressions(filtration_type: string): Promise<number> {
  t.token = await t.login()
  const r = await t.get(BASIC, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'acc', filtration_type })
  expect(r.status, r.raw.body).toBe(200)
  return (r.body.items as { attributes: { region_id: string }; metrics: Record<string, number> }[]).find((i) => i.attributes.region_id === GLOBAL)!.metrics.imp_acc!
}

/** The truth: how many of the impressions (in the order sent) are within the limit, each judged by the times sent before it. */
function withinLimit(times: number[]): number {
  let ok = 0
  times.forEach((ts, i) => {
    const before = times.slice(0, i).filter((x) => x > ts - 10 * MIN && x <= ts).length
    if (before + 1 <= 30) ok++
  })
  return ok
}

/** The impressions an aligned 10-minute window holds at most (the rule this one replaces). */
const alignedMost = (times: number[]): number => Math.max(...[...new Set(times.map((x) => Math.floor(x / (10 * MIN))))].map((w) => times.filter((x) => Math.floor(x / (10 * MIN)) === w).length))

describe('the frequency limit over the 10 minutes up to each impression', () => {
  it('marks 28 of 58 impressions within 60 s that straddle a 10-minute boundary', async () => {
    const times = Array.from({ length: 58 }, (_, i) => BOUNDARY - 29 * SEC + i * SEC)
    expect(alignedMost(times)).toBeLessThanOrEqual(30)
    await importTimes('idfa:A1B2C3D4-0000-4000-8000-000000000001', times)
    expect(withinLimit(times)).toBe(30)
    expect(await impressions('net')).toBe(withinLimit(times))
    expect(await impressions('totalnet')).toBe(58)
    // a rebuild replays the same classes
    expect((await t.post('/local/v1/measurement/rebuild')).status).toBe(200)
    expect(await impressions('net')).toBe(30)
  })

  it('marks the 31st of 31 impressions spread so that no aligned window holds 31 but the 10 minutes before the last one do', async () => {
    // 16 in the 4 minutes before the boundary, 15 in the 4 minutes after it
    const times = [...Array.from({ length: 16 }, (_, i) => BOUNDARY - 4 * MIN + i * 15 * SEC), ...Array.from({ length: 15 }, (_, i) => BOUNDARY + i * 15 * SEC)]
    expect(alignedMost(times)).toBe(16)
    await importTimes('idfa:A1B2C3D4-0000-4000-8000-000000000002', times)
    expect(withinLimit(times)).toBe(30)
    expect(await impressions('net')).toBe(30)
    expect(await impressions('totalnet')).toBe(31)
    expect((await t.post('/local/v1/measurement/rebuild')).status).toBe(200)
    expect(await impressions('net')).toBe(30)
  })

  it('counts an impression again once 10 minutes have passed since the ones before it', async () => {
    const times = [...Array.from({ length: 30 }, (_, i) => BOUNDARY + i * SEC), BOUNDARY + 29 * SEC + 10 * MIN, BOUNDARY + 29 * SEC + 10 * MIN + 1]
    await importTimes('idfa:A1B2C3D4-0000-4000-8000-000000000003', times)
    expect(await impressions('net')).toBe(withinLimit(times))
    expect(await impressions('net')).toBe(32)
  })

  it('judges a hit that arrives after later ones by the times before it (an import out of order, a late server-to-server hit)', async () => {
    // 30 in the first half minute, 30 five minutes later, then one dated between them arriving last
    const times = [...Array.from({ length: 30 }, (_, i) => BOUNDARY + i * SEC), ...Array.from({ length: 30 }, (_, i) => BOUNDARY + 5 * MIN + i * SEC), BOUNDARY + 100 * SEC]
    await importTimes('idfa:A1B2C3D4-0000-4000-8000-000000000004', times)
    // (the second 30 and the late one each have the first 30 in their 10 minutes)
    expect(withinLimit(times)).toBe(30)
    expect(await impressions('net')).toBe(withinLimit(times))
  })

  it('judges a shuffled import of several devices as the times sent before each hit say', async () => {
    // five devices, 400 impressions each over 40 minutes, sent in an order up to 4 minutes off time order
    let seed = 11
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32)
    const lines: { identity: string; ts: number }[] = []
    for (let d = 0; d < 5; d++) for (let i = 0; i < 400; i++) lines.push({ identity: `idfa:A1B2C3D4-0000-4000-8000-0000000001${d}0`, ts: BOUNDARY + Math.floor(rnd() * 40 * MIN) })
    const sent = lines.map((l) => ({ ...l, key: l.ts + rnd() * 4 * MIN })).sort((a, b) => a.key - b.key)
    const body = sent.map((l) => JSON.stringify({ type: 'impression', ts: l.ts, campaign_id: cid, spot_id: sid, identity: l.identity, platform: 'mb' })).join('\n')
    const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body, headers: { 'content-type': 'application/x-ndjson' } })
    expect(JSON.parse(r.body).imported, r.body).toBe(2_000)
    let truth = 0
    for (let d = 0; d < 5; d++) truth += withinLimit(sent.filter((l) => l.identity.endsWith(`1${d}0`)).map((l) => l.ts))
    expect(await impressions('net')).toBe(truth)
  })

  it('never cuts an address+agent identity (a carrier NAT): 200 phones behind it seeing 10 ads each', async () => {
    const body = Array.from({ length: 2_000 }, (_, i) => JSON.stringify({ type: 'impression', ts: BOUNDARY + i * 100, campaign_id: cid, spot_id: sid, ip: '117.136.12.34', user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148' })).join('\n')
    const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body, headers: { 'content-type': 'application/x-ndjson' } })
    expect(JSON.parse(r.body).imported, r.body).toBe(2_000)
    expect(await impressions('net')).toBe(2_000)
  })
})
