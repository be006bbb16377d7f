// sync.snapshots_*: report answers pulled from the remote, kept with fetch time, version and
// progress date; every fetch kept; a re-pull that differs shows what the service restated
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diffReports } from '../../../engine/sync/snapshot-diff'
import type { TestEngine } from '../../helpers/make-engine'
import { localWithProfile, startRemote, stopRemote, type Remote } from './remote'

let remote: Remote
let local: TestEngine
let profileId: string
let campaign: string
let spot: string

async function events(n: number, date: string): Promise<void> {
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ type: 'impression', ts: `${date}T10:00:00+08:00`, campaign_id: campaign, spot_id: spot, identity: `idfa:${date}-${i}` }))
  const r = await remote.t.engine.handle({ method: 'POST', path: '/local/v1/events/import', query: { access_token: remote.t.token }, body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
}

const pull = (params: string, extra: Record<string, string> = {}) => local.post('/local/v1/sync/snapshots/pull', { profile_id: profileId, report: 'basic_show', params, ...extra })

beforeAll(async () => {
  remote = await startRemote(1)
  campaign = remote.campaignIds[0]!
  spot = (await remote.t.get('/cms/v1/campaigns/list_spots', { campaign_id: campaign })).body[0].spot_id
  await events(5, '2025-01-11')
  await events(3, '2025-01-12')
  remote.t.clock.advance(3 * 86_400_000)
  remote.t.token = await remote.t.login()
  ;({ local, profileId } = await localWithProfile(remote.url))
})
afterAll(() => stopRemote(remote))

describe('sync.snapshots_pull', () => {
  it('keeps one snapshot per date with the version and the progress date; the body is the remote answer', async () => {
    // (idfa identities are mobile: platform=mb)
    const r = await pull(`campaign_id=${campaign}&date=2025-01-11&by_position=spot&metrics=all&platform=mb`, { to_date: '2025-01-12' })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body).toMatchObject({ state: 'done', problem: '' })
    expect(r.body.snapshots.map((s: { date: string }) => s.date)).toEqual(['2025-01-11', '2025-01-12'])
    const progress = (await remote.t.get('/admonitor/v1/reports/basic/progress', { campaign_id: campaign })).body.date
    expect(r.body.snapshots[1]).toMatchObject({ report: 'basic_show', campaign_id: campaign, params: 'by_position=spot&metrics=all&platform=mb', version: 'V1.0', progress_date: progress, previous_id: '', changed: false })
    const shown = await local.get('/local/v1/sync/snapshots/show', { snapshot_id: r.body.snapshots[1].snapshot_id })
    const direct = await remote.t.get('/admonitor/v1/reports/basic/show', { campaign_id: campaign, date: '2025-01-12', by_position: 'spot', metrics: 'all', platform: 'mb' })
    expect(shown.body.body).toEqual(direct.body)
    expect(shown.body.body.items[0].metrics.imp_acc).toBe(8)
  })

  it('keeps every re-pull; one whose numbers were restated shows the changes against the previous', async () => {
    const params = `campaign_id=${campaign}&date=2025-01-12&metrics=acc&platform=mb`
    const first = (await pull(params)).body.snapshots[0]
    const same = (await pull(params)).body.snapshots[0]
    expect(same).toMatchObject({ previous_id: first.snapshot_id, changed: false })
    await events(4, '2025-01-12') // late data: the service restates the day
    const restated = (await pull(params)).body.snapshots[0]
    expect(restated).toMatchObject({ previous_id: same.snapshot_id, changed: true })
    const d = (await local.get('/local/v1/sync/snapshots/show', { snapshot_id: restated.snapshot_id })).body.diff
    expect(d).toMatchObject({ previous_id: same.snapshot_id, items_added: 0, items_removed: 0 })
    expect(d.changes).toContainEqual({ attributes: expect.objectContaining({ audience: 'overall' }), name: 'imp_acc', before: 8, after: 12 })
    const list = (await local.get('/local/v1/sync/snapshots/list', { profile_id: profileId, report: 'basic_show' })).body
    expect(list.slice(0, 3).map((s: { snapshot_id: string }) => s.snapshot_id)).toEqual([restated.snapshot_id, same.snapshot_id, first.snapshot_id])
  })

  it('refuses parameters that would not work, naming them', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['date=2025-01-12', {}, "The 'params' must hold campaign_id"],
      [`campaign_id=${campaign}`, {}, "The 'params' must hold date"],
      [`campaign_id=${campaign}&date=2025-01-12&access_token=x`, {}, "The 'params' must not hold access_token"],
      [`campaign_id=${campaign}&date=2025-01-12&_=1700000000000`, {}, "The 'params' must not hold _"],
      [`campaign_id=${campaign}&date=2025-01-12&date=2025-01-13`, {}, "The 'params' names date twice"],
      [`campaign_id=${campaign}&date=2025-01-12&by_position=spots`, {}, "The 'params' would be refused by basic/show: The 'by_position' must be one of"],
      [`campaign_id=${campaign}&date=2025-01-12&metrics=day&by_audience=target`, {}, "The 'params' would be refused by basic/show: The 'metrics' 'day' is not valid when by_audience=target"],
      [`campaign_id=${campaign}&date=2025-01-12&by_positon=spot`, {}, "The 'params' would be refused by basic/show: The 'by_positon' is not a parameter of basic/show"],
      [`campaign_id=${campaign}&date=2025-01-12`, { to_date: '2025-01-01' }, "The 'to_date' must not be before"],
      [`campaign_id=${campaign}&date=2025-01-12`, { to_date: '2025-06-01' }, "The 'to_date' spans more than 92 days"],
    ]
    for (const [params, extra, message] of cases) {
      const r = await pull(params, extra)
      expect(r.status).toBe(400)
      expect(r.body.error_description).toContain(message)
    }
  })

  it('says what the remote refused and stores nothing', async () => {
    const before = (await local.get('/local/v1/sync/snapshots/list', { profile_id: profileId })).body.length
    const r = await pull('campaign_id=999&date=2025-01-12')
    expect(r.body).toMatchObject({ state: 'failed', problem: 'refused', snapshots: [] })
    expect(r.body.message).toMatch(/^The remote refused \/admonitor\/v1\/reports\/basic\/show \(invalid_campaign_id/)
    expect((await local.get('/local/v1/sync/snapshots/list', { profile_id: profileId })).body).toHaveLength(before)
  })
})

describe('diffReports', () => {
  it('matches items by attributes and lists changed metrics and members', () => {
    const a = { version: 'V1.0', items: [{ attributes: { spot_id: '1' }, metrics: { imp: 1, clk: 0 } }, { attributes: { spot_id: '2' }, metrics: { imp: 5 } }] }
    const b = { version: 'V1.1', items: [{ attributes: { spot_id: '1' }, metrics: { imp: 2, clk: 0 } }, { attributes: { spot_id: '3' }, metrics: { imp: 1 } }] }
    expect(diffReports(a, b)).toEqual({
      items_added: 1, items_removed: 1, values_changed: 2,
      changes: [{ attributes: {}, name: 'version', before: 'V1.0', after: 'V1.1' }, { attributes: { spot_id: '1' }, name: 'imp', before: 1, after: 2 }],
    })
  })
})
