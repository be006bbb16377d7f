// /local/v1/reports/basic_days while the reports group is forwarded (docs/api.md, "Daily figures
// of a range"): the remote is asked under the local answer's bounds. A range of more than 367 days
// is refused naming end_date before the remote is asked anything; the range's rows in all are held
// to one answer's (250,000), counted in date order as the remote's days come, refused naming
// end_date at the first day past it, with no day started after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays } from '../reports/dataset'
import { FAST, localWithProfile, startRemote, stopRemote, type Remote } from './remote'

const PATH = '/local/v1/reports/basic_days'
const FIRST = '2025-01-11'
/** One answer's rows at most (engine/reports/setup.ts MAX_ANSWER_ROWS), written out here as the test's own truth. */
const ANSWER_ROWS = 250_000

let remote: Remote
beforeAll(async () => {
  remote = await startRemote(1)
})
afterAll(async () => {
  await stopRemote(remote)
})

/**
 * A local engine forwarding the reports group to the remote (which logs it in), whose basic/show
 * of each day is answered here with `rows(date)` rows after `latency(date)` ms.
 */
async function forwarding(rows: (date: string) => number, latency: (date: string) => number = () => 0) {
  const seen = { logins: 0, days: [] as string[] }
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(String(input))
    if (url.pathname.endsWith('/oauth/token')) seen.logins++
    if (!url.pathname.endsWith('/reports/basic/show')) return globalThis.fetch(input, init)
    const date = url.searchParams.get('date')!
    seen.days.push(date)
    await new Promise((r) => setTimeout(r, latency(date)))
    const items = Array.from({ length: rows(date) }, (_, i) => ({ spot_id: String(i + 1), imp_day: 1 }))
    return new Response(JSON.stringify({ campaign_id: url.searchParams.get('campaign_id'), date, version: 'V1.0', platform: 'pm', items }), { headers: { 'content-type': 'application/json' } })
  }
  const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch })
  const set = await local.post('/local/v1/sync/modes/set', { group: 'reports', mode: 'forward', profile_id: profileId })
  expect(set.status, set.raw.body).toBe(200)
  return { local, seen }
}

describe('reports.basic_days forwarded, bounded as the local answer', () => {
  it('refuses more than 367 days naming end_date before asking the remote anything', async () => {
    const { local, seen } = await forwarding(() => 0)
    const r = await local.get(PATH, { campaign_id: remote.campaignIds[0]!, start_date: FIRST, end_date: addDays(FIRST, 367) })
    expect([r.status, r.body.error]).toEqual([400, 'invalid_request'])
    expect(r.body.error_description).toMatch(/^The 'end_date' leaves more than 367 days after start_date/)
    expect(seen).toEqual({ logins: 0, days: [] })
    await local.engine.close()
  })

  it('refuses a range whose days hold more rows in all than one answer, naming end_date and the first day past it, asking no day after it', async () => {
    // 100,000 rows a day: the third day passes 250,000; the first comes last, after 300 ms
    const { local, seen } = await forwarding(() => 100_000, (date) => (date === FIRST ? 300 : 0))
    const r = await local.get(PATH, { campaign_id: remote.campaignIds[0]!, start_date: FIRST, end_date: addDays(FIRST, 29) })
    expect([r.status, r.body.error], r.raw.body.slice(0, 300)).toEqual([400, 'invalid_request'])
    const third = addDays(FIRST, 2)
    expect(r.body.error_description).toContain(`The 'end_date' would give an answer of more than the ${ANSWER_ROWS} rows one answer holds (300000 rows up to ${third})`)
    // four days go together; once three days have come (300,000 rows, whichever they are) no day
    // starts: at most the three come and three asked meanwhile
    expect(seen.days.slice(0, 4)).toEqual([0, 1, 2, 3].map((k) => addDays(FIRST, k)))
    expect(seen.days.length).toBeLessThanOrEqual(6)
    await local.engine.close()
  }, 60_000)

  it('answers a range of exactly one answer\'s rows', async () => {
    const { local, seen } = await forwarding((date) => (date === FIRST ? ANSWER_ROWS - 2 : 1))
    const r = await local.get(PATH, { campaign_id: remote.campaignIds[0]!, start_date: FIRST, end_date: addDays(FIRST, 1) })
    expect(r.status, r.raw.body.slice(0, 300)).toBe(200)
    expect((r.body.reports as { items: unknown[] }[]).map((d) => d.items.length)).toEqual([ANSWER_ROWS - 2, 1])
    expect(seen.days).toHaveLength(2)
    await local.engine.close()
  }, 60_000)
})
