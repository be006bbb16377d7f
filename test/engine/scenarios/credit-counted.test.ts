// docs/metrics.md (minisite credit): an impression earns minisite credit only when it
// counts in its spot's net figures. A data-centre hit its spot leaves out (dangerous_source_filtration
// = 1) and a bot's hit earn none; a data-centre hit of a spot that counts them does. The truth is
// counted here from what the test sent, by a plain loop.
import { beforeEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { createSpot, newCampaign } from '../routes/spot-helpers'

const DAY = '2025-01-10'
const T0 = Date.parse('2025-01-10T09:00:00+08:00')
/** An address of a hosting provider (Aliyun): a data-centre hit. */
const DC_IP = '47.100.1.1'
const HOME_IP = '113.64.1.10'
const GLOBAL = '000000000000000000000000'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let t: TestEngine
let cid = ''
/** Spot ids: `filters` leaves data-centre hits out, `counts` counts them. */
const spots = { filters: '', counts: '' }
let site = ''
let event = ''

beforeEach(async () => {
  t = await makeEngine({ today: DAY })
  cid = await newCampaign(t)
  expect((await createSpot(t, cid, { placement_name: 'filters', dangerous_source_filtration: 1 })).status).toBe(200)
  expect((await createSpot(t, cid, { placement_name: 'counts', dangerous_source_filtration: 0 })).status).toBe(200)
  const listed = (await t.get(endpoints['campaigns.list_spots'].path, { campaign_id: cid })).body as { spot_id: string; placement_name: string }[]
  spots.filters = listed.find((s) => s.placement_name === 'filters')!.spot_id
  spots.counts = listed.find((s) => s.placement_name === 'counts')!.spot_id
  const made = await t.post('/local/v1/minisites/create', { minisite_name: 'landing', campaign_id: cid, events: 'view' })
  expect(made.status, made.raw.body).toBe(200)
  site = made.body.minisite_id as string
  event = ((await t.get('/local/v1/minisites/list')).body as { minisite_id: string; events: { event_id: string }[] }[]).find((m) => m.minisite_id === site)!.events[0]!.event_id
})

interface Sent {
  identity: string
  spot: string
  ip: string
  agent?: string
}

/** Each visitor's impression on its spot, then a page view of the minisite naming no campaign (credited to the visitor's latest counted touch). */
async function send(visitors: Sent[]): Promise<void> {
  const lines = [
    ...visitors.map((v, i) => ({ type: 'impression', ts: T0 + i, campaign_id: cid, spot_id: v.spot, identity: v.identity, ip: v.ip, platform: 'mb', ...(v.agent ? { user_agent: v.agent } : {}) })),
    ...visitors.map((v, i) => ({ type: 'event', ts: T0 + 60_000 + i, minisite_id: site, event_id: event, identity: v.identity, ip: HOME_IP, platform: 'mb' })),
  ]
  const r = await t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: t.token, format: 'ndjson' }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
  expect(JSON.parse(r.body).imported, r.body).toBe(lines.length)
}

/** The minisite's page views credited to each spot (its global row). */
async function creditedBySpot(): Promise<Record<string, number>> {
  t.token = await t.login()
  const r = await t.get('/admonitor/v1/reports/basic/show_minisite', { minisite_id: site, date: DAY, by_position: 'spot', campaign_id: cid, metrics: 'acc' })
  expect(r.status, r.raw.body).toBe(200)
  const out: Record<string, number> = {}
  for (const i of r.body.items as { attributes: { spot_id?: string; region_id: string }; metrics: { evt_acc: number | null } }[]) {
    if (i.attributes.spot_id && i.attributes.region_id === GLOBAL) out[i.attributes.spot_id] = (out[i.attributes.spot_id] ?? 0) + (i.metrics.evt_acc ?? 0)
  }
  return out
}

describe('minisite credit from counted touches only', () => {
  it('gives none to a data-centre impression its spot leaves out, nor to a bot\'s, and gives it where the spot counts data centres', async () => {
    const visitors: (Sent & { counts: boolean })[] = [
      { identity: 'idfa:A1B2C3D4-0000-4000-8000-000000000001', spot: spots.filters, ip: DC_IP, counts: false },
      { identity: 'idfa:A1B2C3D4-0000-4000-8000-000000000002', spot: spots.filters, ip: HOME_IP, agent: GOOGLEBOT, counts: false },
      { identity: 'idfa:A1B2C3D4-0000-4000-8000-000000000003', spot: spots.counts, ip: DC_IP, counts: true },
      { identity: 'idfa:A1B2C3D4-0000-4000-8000-000000000004', spot: spots.filters, ip: HOME_IP, counts: true },
      { identity: 'idfa:A1B2C3D4-0000-4000-8000-000000000005', spot: spots.counts, ip: HOME_IP, counts: true },
    ]
    await send(visitors)
    // the truth: one page view for each visitor whose impression counts in its spot's net figures
    const want: Record<string, number> = {}
    for (const v of visitors) if (v.counts) want[v.spot] = (want[v.spot] ?? 0) + 1
    const got = await creditedBySpot()
    expect(got[spots.filters] ?? 0).toBe(want[spots.filters])
    expect(got[spots.counts] ?? 0).toBe(want[spots.counts])
    expect(got).toEqual({ [spots.filters]: 1, [spots.counts]: 2 })
    // a rebuild credits the same
    expect((await t.post('/local/v1/measurement/rebuild')).status).toBe(200)
    expect(await creditedBySpot()).toEqual(got)
  })
})
