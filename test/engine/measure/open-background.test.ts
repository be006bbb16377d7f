// An engine that answers while it reads its event log (createEngine's openInBackground: the server and
// the desktop app listen at once, where a start at millions of events took seconds with the port
// closed, refusing tracking hits). Hits wait and are counted after the events read, reports and the
// status wait for the whole log (never part of the figures), the other endpoints answer at once; a log
// that cannot be read leaves no figures.
import { describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../engine'
import { endpoints } from '../../../engine/contract/endpoints'
import type { EngineRequest } from '../../../engine/contract/envelope'
import { MemoryEventLog, type EventLog } from '../../../engine/measure/event-log'
import { ACCOUNT, FakeClock, makeEngine, seededRandom, toReply, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const TODAY = '2025-01-10'
const IMPORTED = 3000

/** The log of `log`, whose reading waits until release() (a slow disk at a start of millions of events). */
function slowLog(log: MemoryEventLog, fail?: Error): { log: EventLog; release: () => void; reading: Promise<void> } {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let began!: () => void
  const reading = new Promise<void>((resolve) => (began = resolve))
  const slow = Object.create(log) as EventLog
  slow.readAll = async (visit, after) => {
    began()
    await released
    if (fail) throw fail
    return log.readAll(visit, after)
  }
  return { log: slow, release, reading }
}

/** Whether `p` is still unsettled after 50 ms (it waits for the log, which is not released meanwhile). */
async function pending(p: Promise<unknown>): Promise<boolean> {
  return Promise.race([p.then(() => false, () => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50))])
}

/** A data directory (in memory) with a campaign, a spot, IMPORTED events of today and no checkpoint (`checkpointed`: the one its close saved). */
async function recorded(checkpointed = false): Promise<{ t: TestEngine; log: MemoryEventLog; campaign: string; spot: string; tag: string }> {
  const log = new MemoryEventLog()
  const t = await makeEngine({ today: TODAY, engine: { eventLog: log } })
  const campaign = await newCampaign(t)
  const spot = (await createSpot(t, campaign)).body.spot_id as string
  const lines = Array.from({ length: IMPORTED }, (_, i) => JSON.stringify({ type: 'impression', ts: `${TODAY}T09:00:00+08:00`, campaign_id: campaign, spot_id: spot, identity: `idfa:00000000-0000-4000-8000-${String(i % 500).padStart(12, '0')}`, platform: 'mb' }))
  const r = await t.engine.handle({ method: 'POST', path: endpoints['events.import'].path, query: { access_token: t.token, format: 'ndjson', wait: '1' }, body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(JSON.parse(r.body)).toMatchObject({ imported: IMPORTED })
  const listed = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: campaign })).body as { tracking_tags: { impression_url: string } }[]
  await t.engine.close()
  // every event is replayed from the log, as after a crash
  if (!checkpointed) log.checkpoint = null
  return { t, log, campaign, spot, tag: listed[0]!.tracking_tags.impression_url }
}

/** The tag's request with its macros left empty, from a browser with a cookie of its own. */
function tagRequest(url: string): EngineRequest {
  const filled = url.replace(/__[A-Z0-9]+__/g, '').replace(/^https?:\/\/[^/]+/, '')
  const q = filled.indexOf('?')
  const rawQuery = q < 0 ? '' : filled.slice(q + 1)
  return { method: 'GET', path: q < 0 ? filled : filled.slice(0, q), query: Object.fromEntries(new URLSearchParams(rawQuery)), rawQuery, headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', cookie: `amid=${'a'.repeat(32)}` }, remoteAddress: '10.0.0.9' }
}

async function reopen(t: TestEngine, log: EventLog): Promise<{ engine: Engine; get: (path: string, q: Record<string, string>) => Promise<{ status: number; body: any }> }> {
  const engine = await createEngine({ storage: t.storage, eventLog: log, clock: new FakeClock(TODAY), random: seededRandom(2), account: ACCOUNT, log: { error: () => undefined, info: () => undefined }, openInBackground: true })
  const get = async (path: string, q: Record<string, string>) => {
    const r = toReply(await engine.handle({ method: 'GET', path, query: { ...q, access_token: t.token } }))
    return { status: r.status, body: r.body }
  }
  return { engine, get }
}

describe('an engine reading its event log in the background', () => {
  it('answers other endpoints at once, holds hits and reports until the log is read, then counts the hits after it', async () => {
    const { t, log, campaign, spot, tag } = await recorded()
    const slow = slowLog(log)
    const { engine, get } = await reopen(t, slow.log)
    try {
      await slow.reading
      const report = get(endpoints['reports.basic_show'].path, { campaign_id: campaign, date: TODAY, platform: 'pm', metrics: 'acc' })
      const status = get(endpoints['measurement.status'].path, {})
      const hit = engine.handle(tagRequest(tag))
      // the campaign's metadata is no measurement: answered while the log is read
      const shown = await get(endpoints['campaigns.show'].path, { campaign_id: campaign })
      expect(shown.status).toBe(200)
      expect(await pending(report)).toBe(true)
      expect(await pending(status)).toBe(true)
      expect(await pending(hit)).toBe(true)
      slow.release()
      expect((await engine.ready).ms).toBeGreaterThanOrEqual(0)
      expect(engine.measure.loaded).toBe(IMPORTED)
      // the report waited for the whole log (never 0 or part of it); the hit counted after it
      expect((await report).body.items[0].metrics.imp_acc).toBeGreaterThanOrEqual(IMPORTED)
      expect(toReply(await hit).headers['x-admonitor-counted']).toBe('1')
      expect((await status).body.events).toBeGreaterThanOrEqual(IMPORTED)
      const after = await get(endpoints['reports.basic_show'].path, { campaign_id: campaign, date: TODAY, platform: 'pm', metrics: 'acc', by_position: 'spot', spot_id: spot })
      expect(after.body.items[0].metrics.imp_acc).toBe(IMPORTED + 1)
      expect((await get(endpoints['measurement.status'].path, {})).body.events).toBe(IMPORTED + 1)
    } finally {
      await engine.close()
    }
  })

  it('answers a report from a checkpoint before the rest of its identities is taken, and counts a hit meanwhile as a start without it', async () => {
    const { t, log, campaign, spot, tag } = await recorded(true)
    expect(log.checkpoint).not.toBeNull()
    const q = { campaign_id: campaign, date: TODAY, platform: 'pm', metrics: 'acc', by_position: 'spot', spot_id: spot }
    // the truth: the same log read whole, no checkpoint
    const whole = Object.create(log) as MemoryEventLog
    whole.checkpoint = null
    const plain = await reopen(t, whole)
    await plain.engine.ready
    const truth = (await plain.get(endpoints['reports.basic_show'].path, q)).body
    expect(truth.items[0].metrics.imp_acc).toBeGreaterThan(0)
    await plain.engine.close()
    const { engine, get } = await reopen(t, log)
    try {
      await engine.ready
      expect(engine.measure.identities.restTaken).toBe(false)
      const report = get(endpoints['reports.basic_show'].path, q)
      const hit = engine.handle(tagRequest(tag))
      expect((await report).body).toEqual(truth)
      expect(toReply(await hit).headers['x-admonitor-counted']).toBe('1')
      expect(engine.measure.identities.restTaken).toBe(true)
      const after = (await get(endpoints['reports.basic_show'].path, q)).body
      expect(after.items[0].metrics.imp_acc).toBe(truth.items[0].metrics.imp_acc + 1)
    } finally {
      await engine.close()
    }
  })

  it('refuses hits and answers reports 503 when the log cannot be read, and still closes', async () => {
    const { t, log, campaign, tag } = await recorded()
    const slow = slowLog(log, new Error('segment 000001.seg: input/output error'))
    const { engine, get } = await reopen(t, slow.log)
    await slow.reading
    const report = get(endpoints['reports.basic_show'].path, { campaign_id: campaign, date: TODAY, platform: 'pm', metrics: 'acc' })
    const hit = engine.handle(tagRequest(tag))
    slow.release()
    await expect(engine.ready).rejects.toThrow('input/output error')
    const r = await report
    expect(r.status).toBe(503)
    expect(r.body.error_description).toContain('input/output error')
    // (a 503 naming the cause, not a 500 logged again at every hit; the pixel is not answered as counted)
    const refused = toReply(await hit)
    expect(refused.status).toBe(503)
    expect(refused.body.error_description).toContain('input/output error')
    expect(refused.headers['x-admonitor-counted']).toBeUndefined()
    expect((await get(endpoints['measurement.status'].path, {})).status).toBe(503)
    await engine.close()
  })
})
