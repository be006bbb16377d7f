/**
 * A tracking hit never waits for an import, a simulation or a rebuild. Each test starts
 * the long work through engine.handle(), sends a hit right after, and checks that the hit was
 * answered (durable and counted) while the work was still running, and that afterwards the
 * counts are those of the work and the hits together, as a fresh read of the log has them.
 * (How long a hit takes meanwhile is measured by `npm run bench -- contention`.)
 */
import { describe, expect, it } from 'vitest'
import { Columns } from '../../../engine/measure/columns'
import { MemoryEventLog } from '../../../engine/measure/event-log'
import type { LogExtent } from '../../../engine/measure/log-extent'
import { Identities } from '../../../engine/measure/identities'
import { Ingest } from '../../../engine/measure/ingest'
import type { Job } from '../../../engine/measure/jobs'
import type { RecordVisitor } from '../../../engine/measure/record'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { trackingRequest } from '../../helpers/tracking-client'

const APP_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148'
const device = (n: number) => `6d92078a-8246-4ba4-ae5b-${n.toString(16).padStart(12, '0')}`

/** A campaign of today (the test clock: 2025-01-10 12:00, Shanghai) with one spot planned for it; its id, spot id and impression tag. */
async function busyCampaign(t: TestEngine): Promise<{ campaign: string; spot: string; tag: string }> {
  const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Busy', start_date: '2025-01-10', end_date: '2025-01-20', platform: 'pm' })
  const campaign = c.body.campaign_id as string
  const s = await t.post('/cms/v1/campaigns/create_spot_with_plan', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top', slot_begin: '2025-01-10', slot_duration: 5, est_impression: 500_000, est_click: 5_000 })
  expect(s.status, JSON.stringify(s.body)).toBe(200)
  const listed = await t.get('/cms/v1/campaigns/list_spots', { campaign_id: campaign, code_type: 'mma' })
  return { campaign, spot: s.body.spot_id as string, tag: listed.body[0].tracking_tags.impression_url as string }
}

/** One impression of device `n` through the tracking endpoint; its X-AdMonitor-Counted answer. */
async function hit(t: TestEngine, tag: string, n: number): Promise<string> {
  const r = await t.engine.handle(trackingRequest(tag.replace('__IDFA__', device(n)), { 'user-agent': APP_AGENT }, '123.112.1.1'))
  expect(r.status).toBe(200)
  return r.headers['x-admonitor-counted'] ?? ''
}

/** The job the request just sent started, as soon as it is there (the route may let a turn of the event loop pass first). */
async function started(t: TestEngine): Promise<Job> {
  for (let i = 0; i < 1_000; i++) {
    const job = t.engine.measure.jobs.list()[0]
    if (job) return job
    await new Promise((resolve) => (i % 100 === 99 ? setImmediate(resolve) : resolve(undefined)))
  }
  throw new Error('no job started')
}

const events = (t: TestEngine, campaign: string) => t.engine.measure.columns.campaign(Number(campaign))?.n ?? 0

function importRequest(t: TestEngine, lines: object[]) {
  return { method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson', wait: '1' }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } }
}

describe('tracking hits while the engine is busy', () => {
  it('answers a hit during an import before the import ends, and counts both', async () => {
    const t = await makeEngine()
    const { campaign, spot, tag } = await busyCampaign(t)
    expect(await hit(t, tag, 0)).toBe('1') // (the first hit loads the IP database)
    // 20,000 lines: one chunk that a whole import once parsed and recorded before anything else ran
    const lines = Array.from({ length: 20_000 }, (_, i) => ({ type: 'impression', ts: `2025-01-10T09:${String(i % 60).padStart(2, '0')}:00+08:00`, campaign_id: campaign, spot_id: spot, ip: `36.${i % 200}.${i % 251}.9`, user_agent: APP_AGENT }))
    const importing = t.engine.handle(importRequest(t, lines))
    const job = await started(t)
    expect(await hit(t, tag, 1)).toBe('1')
    expect([job.state, job.processed < job.total]).toEqual(['running', true])
    expect(JSON.parse((await importing).body)).toMatchObject({ state: 'done', imported: 20_000, rejected: 0 })
    expect(events(t, campaign)).toBe(20_002)
  })

  it('answers a hit during a simulation before the simulation ends, and counts both', async () => {
    const t = await makeEngine()
    const { campaign, tag } = await busyCampaign(t)
    expect(await hit(t, tag, 0)).toBe('1')
    const running = t.post('/local/v1/simulate/run', { campaign_id: campaign, max_hits: 20_000, append: 1 })
    const job = await started(t)
    expect(await hit(t, tag, 1)).toBe('1')
    expect([job.state, job.processed < job.total]).toEqual(['running', true])
    const done = (await running).body
    expect(done).toMatchObject({ state: 'done', processed: 20_000 })
    expect(events(t, campaign)).toBe(2 + done.imported)
  })

  it('answers a hit during a rebuild before the log is read again, and the rebuilt state has it', async () => {
    // the log's reading for the rebuild waits until the hit is answered (or 2 s, not to hang when it is not)
    let release = () => undefined as void
    const gate = new Promise<void>((resolve) => ((release = resolve), setTimeout(resolve, 2_000)))
    let slow = false
    let read = false
    const log = new (class extends MemoryEventLog {
      override async readAll(visit: RecordVisitor, after?: LogExtent, until?: LogExtent): Promise<number> {
        if (!slow) return super.readAll(visit, after, until)
        await gate
        const n = await super.readAll(visit, after, until)
        read = true
        return n
      }
    })()
    const t = await makeEngine({ engine: { eventLog: log } })
    const { campaign, spot, tag } = await busyCampaign(t)
    expect(await hit(t, tag, 0)).toBe('1')
    const lines = Array.from({ length: 5_000 }, (_, i) => ({ type: 'impression', ts: '2025-01-10T09:00:00+08:00', campaign_id: campaign, spot_id: spot, identity: `idfa:${device(1000 + (i % 700))}` }))
    expect(JSON.parse((await t.engine.handle(importRequest(t, lines))).body)).toMatchObject({ imported: 5_000 })
    slow = true
    const rebuilding = t.post('/local/v1/measurement/rebuild')
    // a hit of a device seen before (its frequency state) and one of a new device
    expect(await hit(t, tag, 1000)).toBe('1')
    expect(await hit(t, tag, 7)).toBe('1')
    expect(read).toBe(false)
    release()
    expect((await rebuilding).body.events).toBe(5_003)
    expect(events(t, campaign)).toBe(5_003)
    expect(t.engine.measure.identities.get(`idfa:${device(7)}`)).toBeDefined()
    // the state is the one a fresh read of the whole log makes
    const fresh = new Ingest(log, new Columns(), new Identities(), () => 'Asia/Shanghai')
    slow = false
    await fresh.open(false)
    const part = t.engine.measure.columns.campaign(Number(campaign))!
    const again = fresh.columns.campaign(Number(campaign))!
    expect([part.n, t.engine.measure.identities.size]).toEqual([again.n, fresh.identities.size])
    const byIdentity = (p: typeof part) => [...p.identity.subarray(0, p.n)].sort((a, b) => a - b)
    expect(byIdentity(part)).toEqual(byIdentity(again))
    // and a hit after the rebuild goes on from it
    expect(await hit(t, tag, 8)).toBe('1')
    expect(events(t, campaign)).toBe(5_004)
  })
})
