// docs/attribution.md "Devices: ids that arrive together": an iPhone whose media
// fill IDFA and CAID inconsistently, devices that meet only later, and a media filling one constant
// "id" for everyone. Hits go through the tracking tags (m5 = IDFA, m14 = CAID) and the event import
// (`identity` joining ids with '|'). The truth is computed here from what each test sent, by the
// documented rule (ids on one hit are one device from then on, at most 16 ids a device), with plain
// loops over the ids sent; never from the engine's state.
import { beforeEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { MemoryEventLog } from '../../../engine/measure/event-log'
import { makeEngine, seededRandom, type TestEngine } from '../../helpers/make-engine'
import { TrackingClient } from '../../helpers/tracking-client'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const BASIC = endpoints['reports.basic_show'].path
const GLOBAL = '000000000000000000000000'
const IPHONE_APP = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'
const CARRIER = '117.136.12.34'
const DAY = '2025-01-10'
const T0 = Date.parse('2025-01-10T09:00:00+08:00')
const MIN = 60_000

const idfa = (i: number) => `A1B2C3D4-0000-4000-8000-${String(i).padStart(12, '0')}`
const caid = (i: number) => `c0ffee${String(i).padStart(26, '0')}`

let t: TestEngine
let log: MemoryEventLog
let cid = ''
let sid = ''
let tag = ''

let opened = 0

/** An engine on the test's event log (and storage, to start again: a fresh seed, as a new process has). */
async function open(storage?: TestEngine['storage']): Promise<TestEngine> {
  return makeEngine({ today: DAY, ...(storage ? { storage } : {}), engine: { eventLog: log, random: seededRandom(++opened) } })
}

beforeEach(async () => {
  log = new MemoryEventLog()
  t = await open()
  cid = await newCampaign(t)
  const spot = await createSpot(t, cid)
  expect(spot.status, spot.raw.body).toBe(200)
  const listed = await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })
  sid = listed.body[0].spot_id as string
  tag = listed.body[0].tracking_tags.impression_url as string
})

/** The global row of basic/show (every platform). */
async function basic(filtration_type = 'net', e = t): Promise<Record<string, number>> {
  e.token = await e.login()
  const r = await e.get(BASIC, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'all', filtration_type })
  expect(r.status, r.raw.body).toBe(200)
  return (r.body.items as { attributes: { region_id: string }; metrics: Record<string, number> }[]).find((i) => i.attributes.region_id === GLOBAL)?.metrics ?? {}
}

/** Every report figure a test compares across a rebuild and a restart: basic/show by spot and region, net and totalnet. */
async function figures(e = t): Promise<string> {
  e.token = await e.login()
  const out: unknown[] = []
  for (const filtration_type of ['net', 'totalnet']) {
    const r = await e.get(BASIC, { campaign_id: cid, date: DAY, platform: 'pm', metrics: 'all', by_position: 'spot', by_region: 'level1', filtration_type })
    expect(r.status, r.raw.body).toBe(200)
    out.push(r.body)
  }
  return JSON.stringify(out)
}

/** A tracking hit of an app on an iPhone with the device ids given (m5 = IDFA, m14 = CAID, as a mobile tag carries them; an empty one unfilled). */
async function tracked(ids: { idfa?: string; caid?: string }): Promise<string> {
  const url = tag.replace('&o=', `&m5=${ids.idfa ?? ''}&m14=${ids.caid ?? ''}&o=`)
  const answers = await new TrackingClient(t.engine, { userAgent: IPHONE_APP, ip: CARRIER }).get(url)
  t.clock.advance(1_000)
  return answers[answers.length - 1]!.headers['x-admonitor-counted'] ?? ''
}

/** Imports impressions, one line each: `identity` as given (ids joined with '|'), at the time given. */
async function imported(lines: { identity: string; ts: number }[]): Promise<void> {
  const body = lines.map((l) => JSON.stringify({ type: 'impression', ts: l.ts, campaign_id: cid, spot_id: sid, identity: l.identity, platform: 'mb' })).join('\n')
  const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body, headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
  expect(JSON.parse(r.body).imported, r.body).toBe(lines.length)
}

/**
 * The truth of the rule, from the ids of each hit in arrival order: the device (a set of ids) of
 * each hit once all hits are in, and, for each hit, how many impressions of its device (its ids
 * at that moment) lie in the 10 minutes up to its time among the hits before it, itself counted.
 */
function truth(hits: { ids: string[]; ts: number }[]): { devices: number; inWindow: number[] } {
  const group = new Map<string, Set<string>>()
  const inWindow: number[] = []
  const seen: { id: string; ts: number }[] = []
  for (const h of hits) {
    const [first, ...links] = h.ids as [string, ...string[]]
    if (!group.has(first)) group.set(first, new Set([first]))
    for (const l of links) {
      const g = group.get(first)!
      const other = group.get(l)
      if (other === g) continue
      if (!other) {
        if (g.size < 16) (g.add(l), group.set(l, g))
      } else if (g.size + other.size <= 16) {
        for (const x of other) (g.add(x), group.set(x, g))
      }
    }
    const device = group.get(first)!
    inWindow.push(1 + seen.filter((s) => device.has(s.id) && s.ts > h.ts - 10 * MIN && s.ts <= h.ts).length)
    seen.push({ id: first, ts: h.ts })
  }
  return { devices: new Set(hits.map((h) => group.get(h.ids[0]!))).size, inWindow }
}

describe('an iPhone whose media fill IDFA and CAID inconsistently', () => {
  it('is one person when it sends IDFA + CAID on one hit and CAID alone on the next', async () => {
    expect(await tracked({ idfa: idfa(1), caid: caid(1) })).toBe('1')
    expect(await tracked({ caid: caid(1) })).toBe('1')
    const sent = [{ ids: [`idfa:${idfa(1)}`, `caid:${caid(1)}`], ts: 0 }, { ids: [`caid:${caid(1)}`], ts: 1 }]
    const got = await basic()
    expect(got.imp_acc).toBe(2)
    expect(got.uim_acc).toBe(truth(sent).devices)
    expect(got.uim_acc).toBe(1)
  })

  it('is one person over the window when IDFA alone, then CAID alone, then both arrive: counted once after the merge, its frequency combined', async () => {
    // 20 impressions by IDFA, 10 by CAID, then one with both: 31 of one device within 10 minutes
    const hits: { ids: string[]; ts: number }[] = []
    for (let i = 0; i < 20; i++) hits.push({ ids: [`idfa:${idfa(2)}`], ts: T0 + i * 1_000 })
    for (let i = 0; i < 10; i++) hits.push({ ids: [`caid:${caid(2)}`], ts: T0 + MIN + i * 1_000 })
    hits.push({ ids: [`idfa:${idfa(2)}`, `caid:${caid(2)}`], ts: T0 + 2 * MIN })
    await imported(hits.slice(0, 30).map((h) => ({ identity: h.ids[0]!, ts: h.ts })))
    const before = await basic()
    expect(before.uim_acc).toBe(2)
    await imported([{ identity: hits[30]!.ids.join('|'), ts: hits[30]!.ts }])
    const want = truth(hits)
    const net = await basic('net')
    const totalnet = await basic('totalnet')
    expect(net.uim_acc).toBe(want.devices)
    expect(net.uim_acc).toBe(1)
    expect(totalnet.imp_acc).toBe(31)
    expect(net.imp_acc).toBe(want.inWindow.filter((n) => n <= 30).length)
    expect(net.imp_acc).toBe(30)
  })

  it('counts a device that joins another once in a report asked before and after the merge (kept censuses are counted afresh)', async () => {
    await tracked({ idfa: idfa(3) })
    await tracked({ caid: caid(3) })
    await tracked({ idfa: idfa(4) })
    expect((await basic()).uim_acc).toBe(3)
    await tracked({ idfa: idfa(3), caid: caid(3) })
    const sent = [[idfa(3)], [caid(3)], [idfa(4)], [idfa(3), caid(3)]].map((ids, i) => ({ ids: ids.map((x) => (x.startsWith('c0ffee') ? `caid:${x}` : `idfa:${x}`)), ts: i }))
    expect((await basic()).uim_acc).toBe(truth(sent).devices)
    expect((await basic()).uim_acc).toBe(2)
  })
})

describe('a media that fills one constant CAID for everyone', () => {
  it('links at most 16 ids into one device: 100 devices stay 85 + 1 persons, not one', async () => {
    const hits: { ids: string[]; ts: number }[] = []
    for (let i = 0; i < 100; i++) hits.push({ ids: [`idfa:${idfa(100 + i)}`, `caid:${caid(999)}`], ts: T0 + i * 1_000 })
    await imported(hits.map((h) => ({ identity: h.ids.join('|'), ts: h.ts })))
    const want = truth(hits)
    expect(want.devices).toBe(86)
    expect((await basic()).uim_acc).toBe(want.devices)
  })
})

describe('devices on replay', () => {
  it('gives the same reports after a rebuild, after a restart from the checkpoint and after a restart replaying the whole log', async () => {
    await tracked({ idfa: idfa(5) })
    await tracked({ caid: caid(5) })
    await tracked({ idfa: idfa(5), caid: caid(5) })
    const hits: { identity: string; ts: number }[] = []
    for (let i = 0; i < 40; i++) hits.push({ identity: i % 2 ? `caid:${caid(6)}` : `idfa:${idfa(6)}`, ts: T0 + i * 1_000 })
    hits.push({ identity: `idfa:${idfa(6)}|caid:${caid(6)}`, ts: T0 + 41_000 })
    for (let i = 0; i < 30; i++) hits.push({ identity: `idfa:${idfa(200 + i)}|caid:${caid(7)}`, ts: T0 + 60_000 + i })
    await imported(hits)
    const live = await figures()
    expect(live).toContain('"uim_acc"')
    const rebuilt = await t.post('/local/v1/measurement/rebuild')
    expect(rebuilt.status, rebuilt.raw.body).toBe(200)
    expect(await figures()).toBe(live)
    // a restart from the checkpoint the close saves
    await t.engine.close()
    t = await open(t.storage)
    expect(await figures()).toBe(live)
    // a restart replaying every frame (no checkpoint)
    await t.engine.close()
    log.checkpoint = null
    t = await open(t.storage)
    expect(await figures()).toBe(live)
  })
})
