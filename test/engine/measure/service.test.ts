// The panel kernel follows new identities: the identity -> person map grows in place, so the copy of
// the panel persons' events kept for it stays valid, and a panel device seen for the first time after
// a report is counted by the next one
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../../engine'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { memory } from '../../../engine/storage/adapters/memory'
import { ACCOUNT, FakeClock, makeEngine, seededRandom, type TestEngine } from '../../helpers/make-engine'

const HOME = '000000000000001156440300'
const PERSONS = [
  { person_id: 'p1', weight: 1000, home_region: HOME, tags: ['male'], devices: [{ device: 'idfa:6d92078a-8246-4ba4-ae5b-76104861e7dc', platform: 'mb' }] },
  { person_id: 'p2', weight: 3000, home_region: HOME, tags: ['female'], devices: [{ device: 'idfa:1c2d3e4f-0000-4000-8000-00000000abcd', platform: 'mb' }] },
]

async function post(t: TestEngine, path: string, query: Record<string, string>, lines: unknown[]): Promise<unknown> {
  const r = await t.engine.handle({ method: 'POST', path, query: { access_token: t.token, format: 'ndjson', ...query }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
  return JSON.parse(r.body)
}

describe('the panel kernel with identities added between reports', () => {
  it('counts a panel device first seen after a report, and keeps the same identity map', async () => {
    const t = await makeEngine({ today: '2025-01-09' })
    const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Panel growth', start_date: '2025-01-12', end_date: '2025-01-25', platform: 'pm' })
    expect(c.status, JSON.stringify(c.body)).toBe(200)
    const campaign = c.body.campaign_id as string
    const s = await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })
    expect(s.status, JSON.stringify(s.body)).toBe(200)
    const spot = s.body.spot_id as string
    const panelId = (await t.get('/cms/v1/campaigns/show', { campaign_id: campaign })).body.linked_panels[0] as string
    await post(t, '/local/v1/panels/persons/import', { panel_id: panelId, mode: 'replace' }, PERSONS)
    t.clock.advance(11 * 86_400_000)
    t.token = await t.login()
    const hit = (device: string, day: string) => ({ type: 'impression', ts: `${day}T10:00:00+08:00`, campaign_id: campaign, spot_id: spot, identity: device, platform: 'mb', region_id: HOME })
    // the persons reached (rch_spl_p01) and the reach calibrated to the census (docs/metrics.md,
    // "Calibration"): census impressions / (reached persons' impressions x weight) x their weights
    const reach = async () => {
      const r = await t.get('/admonitor/v1/reports/reach/show', { campaign_id: campaign, date: '2025-01-20', platform: 'mb', by_position: 'campaign', metrics: 'all' })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      const m = r.body.items[0].metrics
      return [m.rch_spl_p01 as number, m.rch_acc_p01 as number]
    }
    await post(t, '/local/v1/events/import', {}, [hit(PERSONS[0]!.devices[0]!.device, '2025-01-13'), hit('idfa:00000000-0000-4000-8000-000000000001', '2025-01-13')])
    // p1 (1000) of 2 census impressions: k = 2 / 1000, reach 1000 x k = 2
    expect(await reach()).toEqual([1, 2])
    const panel = t.engine.measure.panel(panelId)!
    const before = t.engine.measure.personOf(panel)
    await post(t, '/local/v1/events/import', {}, [hit(PERSONS[1]!.devices[0]!.device, '2025-01-14'), hit('idfa:00000000-0000-4000-8000-000000000002', '2025-01-14')])
    // p1 and p2 (1000 + 3000) of 4 census impressions: k = 4 / 4000, reach 4000 x k = 4
    expect(await reach()).toEqual([2, 4])
    expect(t.engine.measure.personOf(panel)).toBe(before)
  })
})

describe('media request ids in an import (docs/attribution.md)', () => {
  it('counts a request_id once within 24 hours, reports the repeats, and treats NDJSON and CSV alike', async () => {
    const t = await makeEngine({ today: '2025-01-09' })
    const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Repeats', start_date: '2025-01-09', end_date: '2025-01-25', platform: 'pm' })
    const campaign = c.body.campaign_id as string
    const s = await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })
    const spot = s.body.spot_id as string
    const line = (request_id: string | undefined, ts: string, type = 'impression') => ({ type, ts, campaign_id: campaign, spot_id: spot, identity: 'idfa:6d92078a-8246-4ba4-ae5b-76104861e7dc', ...(request_id === undefined ? {} : { request_id }) })
    const job = await post(t, '/local/v1/events/import', {}, [
      line('a', '2025-01-10T10:00:00+08:00'), line('a', '2025-01-10T10:00:01+08:00'), line('a', '2025-01-11T09:59:59+08:00'), // repeats within 24 h
      line('a', '2025-01-11T10:00:00+08:00'), // 24 h later: counts again
      line('a', '2025-01-10T10:00:02+08:00', 'click'), // a click is not a repeat of an impression
      line('__REQUESTID__', '2025-01-10T11:00:00+08:00'), line('__REQUESTID__', '2025-01-10T11:00:00+08:00'), line(undefined, '2025-01-10T11:00:00+08:00'),
    ])
    expect(job).toMatchObject({ state: 'done', imported: 6, rejected: 0, repeated: 2 })
    const csv = `type,ts,campaign_id,spot_id,identity,request_id\nimpression,2025-01-12T10:00:00+08:00,${campaign},${spot},idfa:x-1,b\nimpression,2025-01-12T10:05:00+08:00,${campaign},${spot},idfa:x-2,b\nimpression,2025-01-12T10:05:00+08:00,${campaign},${spot},idfa:x-2,c\n`
    const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'csv' }, body: csv, headers: { 'content-type': 'text/csv' } })
    expect(JSON.parse(r.body)).toMatchObject({ state: 'done', imported: 2, rejected: 0, repeated: 1 })
    // an id counted by the import is known to the tracking endpoint too (the same rule, one memory)
    expect(t.engine.measure.ingest.countedAt({ kind: 1, ts: Date.parse('2025-01-12T11:00:00+08:00'), campaign: Number(campaign), spot: Number(spot), keyword: 0, identity: '', platform: 1, sdk: 0, region: 0, ivt: 0, request: 'b' })).toBe(Date.parse('2025-01-12T10:00:00+08:00'))
  })

  it('still knows the ids counted before a line dated days ahead, in the import and after a rebuild', async () => {
    const t = await makeEngine({ today: '2025-01-09' })
    const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Ahead', start_date: '2025-01-09', end_date: '2025-01-25', platform: 'pm' })
    const campaign = c.body.campaign_id as string
    const spot = (await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })).body.spot_id as string
    const line = (request_id: string, ts: string) => ({ type: 'impression', ts, campaign_id: campaign, spot_id: spot, identity: 'idfa:6d92078a-8246-4ba4-ae5b-76104861e7dc', request_id })
    const job = await post(t, '/local/v1/events/import', {}, [line('a', '2025-01-10T10:00:00+08:00'), line('b', '2025-01-20T10:00:00+08:00'), line('a', '2025-01-10T11:00:00+08:00')])
    expect(job).toMatchObject({ state: 'done', imported: 2, repeated: 1 })
    const hit = { kind: 1 as const, ts: Date.parse('2025-01-10T12:00:00+08:00'), campaign: Number(campaign), spot: Number(spot), keyword: 0, identity: '', platform: 1 as const, sdk: 0 as const, region: 0, ivt: 0 as const, request: 'a' }
    const counted = Date.parse('2025-01-10T10:00:00+08:00')
    expect(t.engine.measure.ingest.countedAt(hit)).toBe(counted)
    const r = await t.engine.handle({ method: 'POST', path: '/local/v1/measurement/rebuild', query: { access_token: t.token }, body: '', headers: {} })
    expect(r.status).toBe(200)
    expect(t.engine.measure.ingest.countedAt(hit)).toBe(counted)
  })
})

describe('an event file over HTTP (docs/import.md)', () => {
  it('reads a text/csv body without format= as CSV, its header in any case, and counts the lines of a file ending with a newline', async () => {
    const t = await makeEngine({ today: '2025-01-09' })
    const campaign = (await t.post('/cms/v1/campaigns/create', { campaign_name: 'Formats', start_date: '2025-01-09', end_date: '2025-01-25', platform: 'pm' })).body.campaign_id as string
    const spot = (await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })).body.spot_id as string
    const send = async (body: string, type: string, query: Record<string, string> = {}) =>
      JSON.parse((await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, ...query }, body, headers: { 'content-type': type } })).body)
    const csv = `Type,TS,Campaign_ID,spot_id,IDENTITY\nimpression,2025-01-10T10:00:00+08:00,${campaign},${spot},idfa:x-1\nclick,2025-01-10T10:01:00+08:00,${campaign},${spot},idfa:x-1\n`
    expect(await send(csv, 'text/csv; charset=utf-8')).toMatchObject({ state: 'done', total: 3, processed: 3, imported: 2, rejected: 0 })
    // format= wins over the content type, and without either a body is NDJSON
    expect(await send(csv, 'text/csv', { format: 'ndjson' })).toMatchObject({ imported: 0, rejected: 3 })
    const ndjson = `${JSON.stringify({ type: 'impression', ts: '2025-01-10T11:00:00+08:00', campaign_id: campaign, spot_id: spot, identity: 'idfa:x-2' })}\n`
    expect(await send(ndjson, 'application/octet-stream')).toMatchObject({ total: 1, imported: 1 })
    expect(await send(`${ndjson}${ndjson.trim()}`, 'application/x-ndjson')).toMatchObject({ total: 2, imported: 2 })
    // blank lines and a quoted field over two lines are read too: a finished job has processed them all
    expect(await send(`\n\n${ndjson}\n`, 'application/x-ndjson')).toMatchObject({ state: 'done', total: 4, processed: 4, imported: 1 })
    const quoted = `type,ts,campaign_id,spot_id,identity,user_agent\r\nimpression,2025-01-10T12:00:00+08:00,${campaign},${spot},idfa:x-3,"two\r\nlines"\r\n\r\n`
    expect(await send(quoted, 'text/csv')).toMatchObject({ state: 'done', total: 4, processed: 4, imported: 1 })
    // a CSV header naming an unknown column: a 400 naming the body, and no job
    const jobs = ((await t.get('/local/v1/jobs/list')).body as unknown[]).length
    for (const wait of ['1', '0']) {
      expect(await send('type,ts,identty\nimpression,1736474400000,idfa:x\n', 'text/csv', { wait })).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/^The 'body' has unknown CSV columns identty; columns: type, ts, /) })
    }
    expect(((await t.get('/local/v1/jobs/list')).body as unknown[]).length).toBe(jobs)
  })
})

describe('jobs across a restart', () => {
  it('go on numbering from the last id the data directory gave, so an old id never names another job', async () => {
    const storage = memory()
    const ids: string[] = []
    for (let run = 1; run <= 2; run++) {
      const t = await makeEngine({ storage, engine: { random: seededRandom(run) } })
      for (let i = 0; i < 2; i++) ids.push(String((await post(t, '/local/v1/events/import', {}, []) as { job_id: string }).job_id))
      if (run === 2) expect((await t.get('/local/v1/jobs/show', { job_id: ids[0]! })).body.error_description).toBe(`The 'job_id' ${ids[0]} is not a job of this run of the engine.`)
      await t.engine.close()
    }
    expect(ids).toEqual(['1', '2', '3', '4'])
  })
})


describe('reports during a rebuild', () => {
  it('wait until the log is read again: never 0 or part of the figures', async () => {
    // on files, as the server runs: reading the log back then takes turns of the event loop
    const dir = mkdtempSync(join(tmpdir(), 'admonitor-rebuild-'))
    const engine = await createEngine({ storage: fileStorage(dir), clock: new FakeClock('2025-01-09'), random: seededRandom(), account: ACCOUNT, log: { error: () => undefined, info: () => undefined } })
    try {
      const t = { engine, token: '' } as TestEngine
      const login = await engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: new URLSearchParams({ grant_type: 'password', ...ACCOUNT }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      t.token = JSON.parse(login.body).access_token
      const form = async (path: string, f: Record<string, string>) => JSON.parse((await engine.handle({ method: 'POST', path, query: {}, body: new URLSearchParams({ ...f, access_token: t.token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body)
      const campaign = (await form('/cms/v1/campaigns/create', { campaign_name: 'Rebuild', start_date: '2025-01-09', end_date: '2025-01-25', platform: 'pm' })).campaign_id as string
      const spot = (await form('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })).spot_id as string
      const lines = Array.from({ length: 60_000 }, (_, i) => ({ type: 'impression', ts: `2025-01-09T${String(8 + (i % 12)).padStart(2, '0')}:00:00+08:00`, campaign_id: campaign, spot_id: spot, identity: `idfa:00000000-0000-4000-8000-${String(i % 5000).padStart(12, '0')}` }))
      await post(t, '/local/v1/events/import', { wait: '1' }, lines)
      const report = async () => (await engine.handle({ method: 'GET', path: '/admonitor/v1/reports/basic/show', query: { access_token: t.token, campaign_id: campaign, date: '2025-01-09', platform: 'pm', metrics: 'acc' } })).body
      const before = await report()
      expect(JSON.parse(before).items[0].metrics).toMatchObject({ imp_acc: 60_000, uim_acc: 5000 })
      // a slow disk: reading the log back takes 100 ms, the columns emptied meanwhile
      const ingest = engine.measure.ingest
      const open = ingest.open.bind(ingest)
      ingest.open = async (useCheckpoint?: boolean) => {
        await new Promise((resolve) => setTimeout(resolve, 100))
        return open(useCheckpoint)
      }
      const rebuilt = engine.handle({ method: 'POST', path: '/local/v1/measurement/rebuild', query: { access_token: t.token }, body: '', headers: {} })
      const during: string[] = []
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        during.push(await report())
      }
      expect((await rebuilt).status).toBe(200)
      expect(new Set(during)).toEqual(new Set([before]))
    } finally {
      await engine.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
