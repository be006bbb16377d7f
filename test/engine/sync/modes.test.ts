// sync.modes_*: the localhost door answers a group of the vendor API from local data (default),
// forwarded to a second engine started as the remote (answers recorded, reports as snapshots), or
// offline from those recordings once the remote is gone; the request log says which
import { afterEach, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { cmsEndpoints } from '../../../engine/contract/endpoints-cms'
import { modeGroupOf } from '../../../engine/contract/endpoints-sync-modes'
import { referenceEndpoints } from '../../../engine/contract/endpoints-reference'
import { reportEndpoints } from '../../../engine/contract/endpoints-reports'
import { DATES, type TestEngine } from '../../helpers/make-engine'
import { localWithProfile, startRemote, stopRemote, type Remote } from './remote'

let remote: Remote | undefined
afterEach(async () => {
  if (remote) await stopRemote(remote)
  remote = undefined
})

const lastLog = async (t: TestEngine, path: string) => {
  const log = (await t.get('/local/v1/requests/list', { limit: 1000 })).body as Record<string, unknown>[]
  return log.filter((e) => e.path === path).at(-1)
}

async function setup() {
  remote = await startRemote(2)
  const { local, profileId } = await localWithProfile(remote.url)
  return { local, profileId, r: remote }
}

describe('sync.modes_set', () => {
  it('answers locally by default, and lists every group as local', async () => {
    const { local } = await setup()
    expect((await local.get('/local/v1/sync/modes/list')).body.map((m: { group: string; mode: string }) => [m.group, m.mode])).toEqual([['campaigns', 'local'], ['reference', 'local'], ['reports', 'local']])
    expect((await local.get('/cms/v1/campaigns/list')).body).toEqual([])
    const entry = await lastLog(local, '/cms/v1/campaigns/list')
    expect(entry).toMatchObject({ status: 200 })
    expect(entry?.source).toBeUndefined()
  })

  it('forwards a group to the remote, records the answers, then answers offline from them', async () => {
    const { local, profileId, r } = await setup()
    const set = await local.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'forward', profile_id: profileId })
    expect(set.body[0]).toMatchObject({ group: 'campaigns', mode: 'forward', profile_id: profileId, profile_name: 'Real service', recorded: 0 })
    const c1 = r.campaignIds[0]!
    const fwd = await local.get('/cms/v1/campaigns/show', { campaign_id: c1, dm_info: 1 })
    expect(fwd.status, fwd.raw.body).toBe(200)
    expect(fwd.body).toEqual((await r.t.get('/cms/v1/campaigns/show', { campaign_id: c1, dm_info: 1 })).body)
    expect(fwd.headers['x-admonitor-source']).toBe('forward')
    expect(await lastLog(local, '/cms/v1/campaigns/show')).toMatchObject({ status: 200, source: 'forward', profile_id: profileId })
    // the other groups stay local
    expect((await local.get('/cms/v1/advertisers/list')).headers['x-admonitor-source']).toBeUndefined()
    // a write of the group is refused while its reads show the remote's records: it would change
    // the local record of the same id (a campaign the screen does not show)
    const draft = await local.post('/cms/v1/campaigns/delete', { campaign_id: c1 })
    expect([draft.status, draft.body.error]).toEqual([400, 'invalid_request'])
    expect(draft.body.error_description).toBe("The campaigns group is answered by profile Real service (forward mode): this write would change a local record, not the one the reads show. Queue it in the Sync outbox for the remote, or set the campaigns group back to local (POST /local/v1/sync/modes/set).")
    expect((await local.post('/cms/v1/campaigns/create', { campaign_name: 'Local draft', start_date: DATES.tomorrow, end_date: DATES.nextMonth })).status).toBe(400)
    // the remote refuses: the same error here, checked locally first when it can be
    const missing = await local.get('/cms/v1/campaigns/show', { campaign_id: '999' })
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_campaign_id'])
    const bad = await local.get('/cms/v1/campaigns/show', { campaign_id: 'x' })
    expect(bad.body.error_description).toContain("'campaign_id'")

    await local.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'offline', profile_id: profileId })
    await stopRemote(r)
    remote = undefined
    const off = await local.get('/cms/v1/campaigns/show', { dm_info: 1, campaign_id: c1 })
    expect(off.status, off.raw.body).toBe(200)
    expect(off.body).toEqual(fwd.body)
    expect(off.headers['x-admonitor-source']).toBe('offline')
    expect(await lastLog(local, '/cms/v1/campaigns/show')).toMatchObject({ source: 'offline', profile_id: profileId })
    // a cache buster (_) is the door's, like the token: the recorded answer is found with it too
    const busted = await local.get('/cms/v1/campaigns/show', { dm_info: 1, campaign_id: c1, _: '1732230000000' })
    expect([busted.status, busted.body]).toEqual([200, fwd.body])
    const never = await local.get('/cms/v1/campaigns/show', { campaign_id: c1 })
    expect([never.status, never.body.error]).toEqual([503, 'temporarily_unavailable'])
    expect(never.body.error_description).toMatch(/^Offline from profile Real service: no answer of \/cms\/v1\/campaigns\/show with these parameters was recorded/)
  })

  it('records forwarded reports as snapshots, and answers them offline', async () => {
    const { local, profileId, r } = await setup()
    await local.post('/local/v1/sync/modes/set', { group: 'reports', mode: 'forward', profile_id: profileId })
    const q = { campaign_id: r.campaignIds[0]!, date: DATES.nextWeek, platform: 'pm' }
    const fwd = await local.get('/admonitor/v1/reports/basic/show', q)
    expect(fwd.status, fwd.raw.body).toBe(200)
    const snaps = (await local.get('/local/v1/sync/snapshots/list', { profile_id: profileId })).body
    expect(snaps).toEqual([expect.objectContaining({ report: 'basic_show', campaign_id: q.campaign_id, date: q.date, params: 'platform=pm' })])
    expect((await local.get('/local/v1/sync/modes/list')).body[2]).toMatchObject({ group: 'reports', recorded: 1 })
    // the same answer again is not kept twice
    expect((await local.get('/admonitor/v1/reports/basic/show', { ...q })).body).toEqual(fwd.body)
    expect((await local.get('/local/v1/sync/snapshots/list', { profile_id: profileId })).body).toHaveLength(1)
    expect((await local.get('/local/v1/sync/modes/list')).body[2]).toMatchObject({ group: 'reports', recorded: 1 })
    await local.post('/local/v1/sync/modes/set', { group: 'reports', mode: 'offline', profile_id: profileId })
    await stopRemote(r)
    remote = undefined
    const off = await local.get('/admonitor/v1/reports/basic/show', { platform: 'pm', date: q.date, campaign_id: q.campaign_id })
    expect(off.status, off.raw.body).toBe(200)
    expect(off.body).toEqual(fwd.body)
    // found however the defaults are spelled: by_position=campaign and metrics=acc are the defaults
    const spelled = await local.get('/admonitor/v1/reports/basic/show', { ...q, by_position: 'campaign', metrics: 'acc' })
    expect(spelled.status, spelled.raw.body).toBe(200)
    expect(spelled.body).toEqual(fwd.body)
  })

  it('answers a report offline from a pulled snapshot of it (the same series key)', async () => {
    const { local, profileId, r } = await setup()
    const c1 = r.campaignIds[0]!
    const pulled = await local.post('/local/v1/sync/snapshots/pull', { profile_id: profileId, report: 'basic_show', params: `platform=mb&metrics=all&date=2025-01-11&by_position=spot&campaign_id=${c1}` })
    expect(pulled.body.state, pulled.raw.body).toBe('done')
    const shown = await local.get('/local/v1/sync/snapshots/show', { snapshot_id: pulled.body.snapshots[0].snapshot_id })
    await local.post('/local/v1/sync/modes/set', { group: 'reports', mode: 'offline', profile_id: profileId })
    await stopRemote(r)
    remote = undefined
    const off = await local.get('/admonitor/v1/reports/basic/show', { campaign_id: c1, date: '2025-01-11', by_position: 'spot', metrics: 'all', platform: 'mb' })
    expect(off.status, off.raw.body).toBe(200)
    expect(off.headers['x-admonitor-source']).toBe('offline')
    expect(off.body).toEqual(shown.body.body)
  })

  it('says when the remote cannot answer in the forward mode, and goes back to local', async () => {
    const { local, profileId, r } = await setup()
    await local.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'forward', profile_id: profileId })
    await r.door.close()
    const down = await local.get('/cms/v1/agencies/list')
    expect([down.status, down.body.error]).toEqual([503, 'temporarily_unavailable'])
    expect(down.body.error_description).toMatch(/^Forwarding to the remote of profile Real service failed \(unreachable\)/)
    // a failed forward says where it came from too, in its headers and in the request log
    expect([down.headers['x-admonitor-source'], down.headers['x-admonitor-profile-id']]).toEqual(['forward', String(profileId)])
    expect(await lastLog(local, '/cms/v1/agencies/list')).toMatchObject({ status: 503, source: 'forward', profile_id: String(profileId) })
    await local.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'offline', profile_id: profileId })
    const never = await local.get('/cms/v1/agencies/list')
    expect([never.status, never.headers['x-admonitor-source'], never.headers['x-admonitor-profile-id']]).toEqual([503, 'offline', String(profileId)])
    const back = await local.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'local' })
    expect(back.body[1]).toMatchObject({ mode: 'local', profile_id: '' })
    expect((await local.get('/cms/v1/agencies/list')).status).toBe(200)
    const noProfile = await local.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'offline' })
    expect(noProfile.body.error_description).toBe("The 'profile_id' is required for the offline mode.")
    local.engine.settings.publicUrl = r.url.replace('127.0.0.1', 'localhost')
    const loop = await local.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'forward', profile_id: profileId })
    expect(loop.body.error_description).toMatch(/whose base_url is this engine itself .*: forwarding would loop\.$/)
  })

  it('never forwards to itself: a forwarding profile cannot be pointed at this engine, nor a forwarded group answer from it', async () => {
    const { local, profileId, r } = await setup()
    await local.post('/local/v1/sync/modes/set', { group: 'reference', mode: 'forward', profile_id: profileId })
    const self = local.engine.settings.publicUrl
    const pointed = await local.post('/local/v1/sync/profiles/update', { profile_id: profileId, base_url: self })
    expect([pointed.status, pointed.body.error_description]).toEqual([400, `The 'base_url' is this engine itself (${self}), and the reference group forwards to profile Real service: forwarding would loop; answer it locally first.`])
    // the engine's own address changing under a forwarding profile (another --public-url): refused at once, not sent round and round
    local.engine.settings.publicUrl = r.url
    const loop = await local.get('/cms/v1/agencies/list')
    expect([loop.status, loop.body.error]).toEqual([503, 'temporarily_unavailable'])
    expect(loop.body.error_description).toContain('forwarding would loop')
  })

  it('fails a forwarded GET after one retry with the default settings, and engine close does not wait for one in flight', async () => {
    let attempts = 0
    const refusing = (async () => {
      attempts++
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })
    }) as typeof fetch
    const a = await localWithProfile('https://remote.invalid', { fetch: refusing })
    await a.local.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'forward', profile_id: a.profileId })
    const down = await a.local.get('/cms/v1/campaigns/list')
    expect([down.status, down.body.error]).toEqual([503, 'temporarily_unavailable'])
    expect(attempts).toBe(2)
    await a.local.engine.close()

    let asked = 0
    // never answers, and ignores its abort signal
    const silent = (() => {
      asked++
      return new Promise<Response>(() => undefined)
    }) as typeof fetch
    const b = await localWithProfile('https://remote.invalid', { fetch: silent })
    await b.local.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'forward', profile_id: b.profileId })
    const pending = b.local.get('/cms/v1/campaigns/list')
    while (asked === 0) await new Promise((r) => setTimeout(r, 10))
    const started = performance.now()
    await b.local.engine.close()
    expect(performance.now() - started).toBeLessThan(2_000)
    const cut = await pending
    expect([cut.status, cut.body.error]).toEqual([503, 'temporarily_unavailable'])
    expect(asked).toBe(1)
  })

  it('goes back to local when the profile is deleted', async () => {
    const { local, profileId } = await setup()
    await local.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'offline', profile_id: profileId })
    await local.post('/local/v1/sync/profiles/delete', { profile_id: profileId })
    expect((await local.get('/local/v1/sync/modes/list')).body[0]).toMatchObject({ mode: 'local' })
    expect((await local.get('/cms/v1/campaigns/list')).status).toBe(200)
  })
})

describe('modeGroupOf', () => {
  it('puts every read endpoint of the vendor API in its group, and nothing else', () => {
    const gets = (table: Record<string, { method: string }>) => Object.keys(table).filter((id) => table[id]!.method === 'GET')
    for (const id of gets(cmsEndpoints)) expect(modeGroupOf(id), id).toBe('campaigns')
    for (const id of gets(referenceEndpoints)) expect(modeGroupOf(id), id).toBe('reference')
    for (const id of gets(reportEndpoints)) expect(modeGroupOf(id), id).toBe('reports')
    expect(gets(referenceEndpoints)).toEqual(expect.arrayContaining(['panels.list', 'regions.list', 'advertisers.list', 'brands.list', 'product.list', 'agencies.list', 'programs.list', 'plmttype.list', 'extensiontype.list']))
    for (const id of ['panels.persons_summary', 'sync.modes_list', 'oauth.token']) expect(modeGroupOf(id), id).toBeNull()
    expect(Object.keys(endpoints)).toEqual(expect.arrayContaining(['panels.persons_summary', 'oauth.token']))
  })
})
