// /local/v1/reports/basic_days while the reports group is forwarded: the remote's basic/show of
// each day (the vendor API answers one date a request), asked a few days at a time behind one
// login with the client's pacing between the requests' starts, answered in date order exactly as
// the remote answers each day; the earliest failing day's refusal, with no day started after it;
// and offline from the recordings once the remote is gone
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHttpDoor, type HttpDoor } from '../../../engine/server/http'
import type { TestEngine } from '../../helpers/make-engine'
import { addDays, buildDataset, type Dataset } from '../reports/dataset'
import { FAST, localWithProfile } from './remote'

const PATH = '/local/v1/reports/basic_days'
const FIRST = '2025-01-11'
const LAST = '2025-01-22'
const DAYS = 12

let ds: Dataset
let door: HttpDoor
beforeAll(async () => {
  // the remote: an engine holding the report dataset's traffic, on its own HTTP door
  ds = await buildDataset(5)
  door = await startHttpDoor(ds.t.engine, { port: 0 })
  ds.t.engine.settings.publicUrl = door.url
})
afterAll(async () => {
  await door?.close()
})

/** What the remote saw: logins, and the dates of the basic/show requests and how many were in flight at most. */
interface Seen {
  logins: number
  days: string[]
  maxInFlight: number
}

/**
 * A local engine whose reports group forwards to the remote through a fetch that holds each
 * basic/show answer for a few milliseconds (a remote's latency), or answers `refuse(date)` at once.
 */
async function forwarding(pacingMs: number, refuse: (date: string) => string | null = () => null): Promise<{ local: TestEngine; seen: Seen; profileId: string }> {
  const seen: Seen = { logins: 0, days: [], maxInFlight: 0 }
  let inFlight = 0
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.pathname.endsWith('/oauth/token')) seen.logins++
    if (!url.pathname.endsWith('/reports/basic/show')) return globalThis.fetch(input, init)
    const date = url.searchParams.get('date')!
    inFlight++
    seen.maxInFlight = Math.max(seen.maxInFlight, inFlight)
    seen.days.push(date)
    try {
      const refusal = refuse(date)
      if (refusal) return new Response(JSON.stringify({ error: 'invalid_campaign_id', error_description: refusal }), { status: 400, headers: { 'content-type': 'application/json' } })
      await new Promise((r) => setTimeout(r, 15))
      return await globalThis.fetch(input, init)
    } finally {
      inFlight--
    }
  }
  const { local, profileId } = await localWithProfile(door.url, { ...FAST, pacingMs, fetch })
  const set = await local.post('/local/v1/sync/modes/set', { group: 'reports', mode: 'forward', profile_id: profileId })
  expect(set.status, set.raw.body).toBe(200)
  return { local, seen, profileId }
}

/** The remote's own basic/show of each day of the range, as text. */
async function remoteDays(q: Record<string, string>): Promise<string[]> {
  const out: string[] = []
  for (let date = FIRST; date <= LAST; date = addDays(date, 1)) out.push((await ds.t.get('/admonitor/v1/reports/basic/show', { ...q, date, metrics: 'day' })).raw.body)
  return out
}

describe('reports.basic_days forwarded', () => {
  it("asks the remote four days at a time behind one login and answers each day as the remote does, in date order", async () => {
    const { local, seen } = await forwarding(0)
    const q = { campaign_id: ds.campaigns[0]!.campaign_id, platform: 'pm', by_position: 'spot' }
    const r = await local.get(PATH, { ...q, start_date: FIRST, end_date: LAST })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.headers['x-admonitor-source']).toBeUndefined()
    const want = await remoteDays(q)
    expect((r.body.reports as unknown[]).map((x) => JSON.stringify(x))).toEqual(want)
    // the answers carry figures (not only empty days)
    expect(want.filter((w) => w.includes('imp_day')).length).toBeGreaterThan(5)
    expect(seen.days).toHaveLength(DAYS)
    expect(seen.maxInFlight).toBe(4)
    expect(seen.logins).toBe(1)
    await local.engine.close()
  })

  it('keeps the pacing between the starts of requests sent together', async () => {
    const { local, seen } = await forwarding(200)
    const before = local.clock.now()
    const r = await local.get(PATH, { campaign_id: ds.campaigns[1]!.campaign_id, platform: 'pc', start_date: FIRST, end_date: LAST })
    expect(r.status, r.raw.body).toBe(200)
    expect(seen.maxInFlight).toBeGreaterThan(1)
    // the test clock moves on with each pause (a sleep there takes no time): the login and the
    // days, started 200 ms apart each, took at least that much of it
    expect(local.clock.now() - before).toBeGreaterThanOrEqual((seen.logins + DAYS - 1) * 200)
    await local.engine.close()
  })

  it("answers the earliest failing day's refusal and starts no day after it", async () => {
    const bad = addDays(FIRST, 2)
    const { local, seen } = await forwarding(0, (date) => (date >= bad ? `no campaign on ${date}` : null))
    const r = await local.get(PATH, { campaign_id: ds.campaigns[0]!.campaign_id, start_date: FIRST, end_date: LAST })
    expect([r.status, r.body.error]).toEqual([400, 'invalid_campaign_id'])
    expect(r.body.error_description).toContain(`no campaign on ${bad}`)
    // the first four went together; the refusal came before any other ended
    expect(seen.days).toEqual([FIRST, addDays(FIRST, 1), bad, addDays(FIRST, 3)])
    await local.engine.close()
  })

  it('answers the range offline from the recorded days once the remote is gone', async () => {
    const { local, profileId } = await forwarding(0)
    const q = { campaign_id: ds.campaigns[0]!.campaign_id, platform: 'mb', by_region: 'level1' }
    const fwd = await local.get(PATH, { ...q, start_date: FIRST, end_date: LAST })
    expect(fwd.status, fwd.raw.body).toBe(200)
    const set = await local.post('/local/v1/sync/modes/set', { group: 'reports', mode: 'offline', profile_id: profileId })
    expect(set.status, set.raw.body).toBe(200)
    await door.close()
    const off = await local.get(PATH, { ...q, start_date: FIRST, end_date: LAST })
    expect(off.status, off.raw.body).toBe(200)
    expect(off.headers['x-admonitor-source']).toBeUndefined()
    expect(off.body).toEqual(fwd.body)
    await local.engine.close()
  })
})
