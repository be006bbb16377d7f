// sync.pull_*: a pull from a second engine started as the remote, compared field by field;
// incremental, token expiry in the middle, resumable, cancellable
import { afterEach, describe, expect, it } from 'vitest'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import { ACCOUNT, makeEngine } from '../../helpers/make-engine'
import { expectSameAsRemote } from './compare'
import { FAST, addCampaign, localWithProfile, startRemote, stopRemote, type Remote } from './remote'

const remotes: Remote[] = []
async function remoteWith(n: number): Promise<Remote> {
  const r = await startRemote(n)
  remotes.push(r)
  return r
}
afterEach(async () => {
  for (const r of remotes.splice(0)) await stopRemote(r)
})

type Counts = { kind: string; added: number; changed: number; removed: number; unchanged: number }[]
const countsOf = (c: Counts, kind: string) => {
  const x = c.find((k) => k.kind === kind)
  return x ? [x.added, x.changed, x.removed, x.unchanged] : [0, 0, 0, 0]
}

/** A fetch that sees every request before the real one is sent, and may answer it instead. */
function watching(before: (url: URL, n: number) => void | Response | Promise<void | Response>): typeof fetch {
  let n = 0
  return (async (input: URL | RequestInfo, init?: RequestInit) => {
    const instead = await before(new URL(String(input)), ++n)
    return instead ?? fetch(input, init)
  }) as typeof fetch
}

describe('sync.pull_start', () => {
  it('pulls every campaign (all pages), its details, spots, targets, publishers and the reference lists', async () => {
    const remote = await remoteWith(5)
    const { local, profileId } = await localWithProfile(remote.url)
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body).toMatchObject({ state: 'done', phase: 'done', campaigns_total: 5, campaigns_done: 5, logins: 1, retries: 0, problem: '' })
    expect(countsOf(r.body.counts, 'campaign')).toEqual([5, 0, 0, 0])
    expect(countsOf(r.body.counts, 'spot')).toEqual([15, 0, 0, 0])
    expect(countsOf(r.body.counts, 'region')[0]).toBeGreaterThan(300)
    await expectSameAsRemote(remote.t, local, profileId)
    // Kept as the remote answered: its members in the remote's order, not sorted (docs/sync.md, Storage).
    const [first] = remote.campaignIds as [string]
    const kept = (await local.get('/local/v1/sync/records/list', { profile_id: profileId, kind: 'campaign' })).body.find((x: { remote_id: string }) => x.remote_id === first)
    const answered = (await remote.t.get('/cms/v1/campaigns/show', { campaign_id: first, pmo_info: '1', dm_info: '1' })).body
    expect(Object.keys(answered)).not.toEqual(Object.keys(answered).sort())
    expect(JSON.stringify(kept.record)).toBe(JSON.stringify(answered))
    const profile = (await local.get('/local/v1/sync/profiles/list')).body[0]
    expect(profile.last_pull_at).toBe(r.body.finished_at)
  })

  it('searches pulled campaigns and records by name, offline', async () => {
    const remote = await remoteWith(3)
    const { local, profileId } = await localWithProfile(remote.url)
    await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    await stopRemote(remotes.pop()!)
    const found = await local.get('/local/v1/sync/campaigns/list', { profile_id: profileId, campaign_name: 'CAMPAIGN 2' })
    expect(found.body.map((c: { campaign_name: string }) => c.campaign_name)).toEqual(['Remote campaign 2'])
    expect(found.body[0]).toMatchObject({ spots: 3, targets: 2, publishers: 2 })
    const spots = await local.get('/local/v1/sync/records/list', { profile_id: profileId, kind: 'spot', parent_id: found.body[0].campaign_id, name: 'search' })
    expect(spots.body).toHaveLength(1)
    expect(spots.body[0].record.keyword.map((k: { keyword: string }) => k.keyword)).toEqual(['牛奶', '母乳'])
    expect(spots.body[0].record.spot_plan).toHaveLength(3)
    const missing = await local.get('/local/v1/sync/campaigns/show', { profile_id: profileId, campaign_id: '999' })
    expect(missing.body.error_description).toBe("The 'campaign_id' names no pulled campaign of profile 1 (999).")
  })

  it('pulls again incrementally: counts added, changed and removed per kind, rewrites only those', async () => {
    const remote = await remoteWith(3)
    const { local, profileId } = await localWithProfile(remote.url)
    await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    const [c1, c2, c3] = remote.campaignIds as [string, string, string]
    const rt = remote.t
    expect((await rt.post('/cms/v1/campaigns/update', { campaign_id: c1, description: 'changed' })).status).toBe(200)
    const spots2 = (await rt.get('/cms/v1/campaigns/list_spots', { campaign_id: c2 })).body
    expect((await rt.post('/cms/v1/campaigns/delete_spot', { campaign_id: c2, spot_id: spots2[0].spot_id })).status).toBe(200)
    expect((await rt.post('/cms/v1/campaigns/delete', { campaign_id: c3 })).status).toBe(200)
    await addCampaign(rt, 4)
    local.clock.advance(60_000)
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.body.state).toBe('done')
    expect(countsOf(r.body.counts, 'campaign')).toEqual([1, 1, 1, 1])
    // c2 lost a spot, c3's three went with it, campaign 4 brought three
    expect(countsOf(r.body.counts, 'spot')).toEqual([3, 0, 4, 5])
    expect(countsOf(r.body.counts, 'target')).toEqual([2, 0, 2, 4])
    expect(countsOf(r.body.counts, 'region')).toEqual([0, 0, 0, 393])
    await expectSameAsRemote(rt, local, profileId)
    const list = (await local.get('/local/v1/sync/campaigns/list', { profile_id: profileId })).body as { campaign_id: string; fetched_at: string }[]
    const fetched = Object.fromEntries(list.map((c) => [c.campaign_id, c.fetched_at]))
    expect(fetched[c1]).toBe('2025-01-10T04:01:00.000Z')
    expect(fetched[c2]).toBe('2025-01-10T04:00:00.000Z')
  })

  it('logs in again when the token expires in the middle of a pull (the remote clock moves) and goes on', async () => {
    const remote = await remoteWith(4)
    const expireAt = new Set([40, 300])
    const fetch = watching((_url, n) => {
      if (expireAt.has(n)) remote.t.clock.advance(2 * 3600_000)
    })
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch })
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.body).toMatchObject({ state: 'done', logins: 3, retries: 0 })
    remote.t.token = await remote.t.login()
    await expectSameAsRemote(remote.t, local, profileId)
  })

  it('resumes a failed pull after the campaigns it finished, and then removes nothing it should keep', async () => {
    const remote = await remoteWith(4)
    const broken = remote.campaignIds[2]!
    let fail = true
    const fetch = watching((url) => {
      if (fail && url.pathname === '/cms/v1/campaigns/list_targets' && url.searchParams.get('campaign_id') === broken) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })
    })
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch, retries: 2 })
    const first = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(first.body).toMatchObject({ state: 'failed', problem: 'unreachable', campaigns_done: 2, campaigns_total: 4, retries: 2 })
    expect(first.body.message).toMatch(/^Nothing answers at 127\.0\.0\.1:\d+ \(connection refused\)/)
    expect((await local.get('/local/v1/sync/campaigns/list', { profile_id: profileId })).body).toHaveLength(2)
    fail = false
    const again = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(again.body).toMatchObject({ pull_id: first.body.pull_id, state: 'done', resumed: true, campaigns_done: 4 })
    // login, the campaign list (pages of 2: 2, 2, 0) and for each of the 2 campaigns left: show,
    // list_spots (2, 1), list_targets (2, 0), list_publishers (2, 0); no reference list again
    expect(again.body.requests).toBe(1 + 3 + 2 * 7)
    expect(countsOf(again.body.counts, 'campaign')).toEqual([4, 0, 0, 0])
    await expectSameAsRemote(remote.t, local, profileId)
    const history = (await local.get('/local/v1/sync/pulls/list', { profile_id: profileId })).body
    expect(history.map((h: { state: string }) => h.state)).toEqual(['done'])
  })

  it('is cancelled between requests; what it stored stays consistent; the next pull resumes', async () => {
    const remote = await remoteWith(4)
    let release = () => undefined as void
    const gate = new Promise<void>((r) => (release = r))
    const fetch = watching(async (url) => {
      if (url.pathname === '/cms/v1/campaigns/show' && url.searchParams.get('campaign_id') === remote.campaignIds[1]) await gate
    })
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch })
    const started = await local.post('/local/v1/sync/pull/start', { profile_id: profileId, wait: 0 })
    expect(started.body.state).toBe('running')
    while ((await local.get('/local/v1/sync/pull/status', { profile_id: profileId })).body.campaigns_done < 1) await new Promise((r) => setTimeout(r, 10))
    const history = await local.get('/local/v1/sync/pulls/list', { profile_id: profileId })
    expect(history.body.map((h: { state: string; campaigns_done: number }) => [h.state, h.campaigns_done])).toEqual([['running', 1]])
    const cancelling = local.post('/local/v1/sync/pull/cancel', { profile_id: profileId })
    release()
    const cancelled = await cancelling
    expect(cancelled.body).toMatchObject({ state: 'cancelled', problem: 'cancelled', campaigns_done: 1 })
    expect((await local.get('/local/v1/sync/campaigns/list', { profile_id: profileId })).body).toHaveLength(1)
    const resumed = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(resumed.body).toMatchObject({ state: 'done', resumed: true, campaigns_done: 4 })
    await expectSameAsRemote(remote.t, local, profileId)
  })

  it('resumes after a crash: the pull left "running" is interrupted, the new process goes on from it', async () => {
    const remote = await remoteWith(3)
    const hang = new Promise<never>(() => undefined)
    const fetch = watching(async (url) => {
      if (url.pathname === '/cms/v1/campaigns/show' && url.searchParams.get('campaign_id') === remote.campaignIds[2]) await hang
    })
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch, timeoutMs: 60_000 })
    await local.post('/local/v1/sync/pull/start', { profile_id: profileId, wait: 0 })
    while ((await local.get('/local/v1/sync/pull/status', { profile_id: profileId })).body.campaigns_done < 2) await new Promise((r) => setTimeout(r, 10))
    // the image a kill -9 would leave: what the journal holds now
    const image = new MemoryStorage()
    image.snapshot = local.storage.snapshot
    image.segments = new Map([...local.storage.segments].map(([k, v]) => [k, [...v]]))
    const next = await makeEngine({ storage: image, engine: { sync: FAST } })
    expect((await next.get('/local/v1/sync/pull/status', { profile_id: profileId })).body).toMatchObject({ state: 'interrupted', campaigns_done: 2 })
    // memory storage keeps secrets in memory: the new process has none until given them again
    expect((await next.get('/local/v1/sync/profiles/list')).body[0]).toMatchObject({ has_password: false, has_client_secret: false })
    const refused = await next.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(refused.body).toMatchObject({ state: 'failed', problem: 'no_secret', message: 'Profile Real service has no stored password: enter it again.' })
    await next.post('/local/v1/sync/profiles/update', { profile_id: profileId, password: ACCOUNT.password, client_secret: ACCOUNT.client_secret })
    const r = await next.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.body).toMatchObject({ state: 'done', resumed: true, campaigns_done: 3 })
    await expectSameAsRemote(remote.t, next, profileId)
    await local.engine.close()
  })

  it('skips a reference list and a campaign the remote refuses, goes on, and says so', async () => {
    const remote = await remoteWith(3)
    const denied = remote.campaignIds[1]!
    const langs: string[] = []
    const fetch = watching((url) => {
      if (url.pathname === '/cms/v1/regions/list' || url.pathname === '/cms/v1/panels/list') langs.push(`${url.pathname} ${url.searchParams.get('lang')}`)
      if (url.pathname === '/cms/v1/extensiontype/list') return new Response('{"error":"not_found"}', { status: 404 })
      if (url.pathname === '/cms/v1/campaigns/list_spots' && url.searchParams.get('campaign_id') === denied)
        return new Response('{"error":"access_denied","error_description":"no permission on the campaign"}', { status: 400 })
      return undefined
    })
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch })
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.body).toMatchObject({ state: 'done', campaigns_done: 3 })
    expect(r.body.message).toBe(
      'extensiontype list skipped: The remote has no /cms/v1/extensiontype/list (HTTP 404): base_url does not point at this API. ' +
        `campaign ${denied} skipped: The remote refused /cms/v1/campaigns/list_spots with a new token too (access_denied: no permission on the campaign).`,
    )
    // access_denied may be an ended token (vendor-notes §1.4): one new login, then it is a refusal
    expect(r.body.logins).toBe(2)
    expect(countsOf(r.body.counts, 'campaign')).toEqual([2, 0, 0, 0])
    expect(countsOf(r.body.counts, 'extensiontype')).toEqual([0, 0, 0, 0])
    expect(countsOf(r.body.counts, 'program')[0]).toBeGreaterThan(0)
    // regions and panels are pulled in English
    expect(langs.length).toBeGreaterThan(3)
    expect(new Set(langs)).toEqual(new Set(['/cms/v1/panels/list en', '/cms/v1/regions/list en']))
  })

  it('does not resume an unfinished pull once the profile points at another service', async () => {
    const remote = await remoteWith(2)
    const fetch = watching((url) => (url.pathname === '/cms/v1/campaigns/list_targets' ? new Response('{}', { status: 503 }) : undefined))
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch, retries: 0 })
    expect((await local.post('/local/v1/sync/pull/start', { profile_id: profileId })).body).toMatchObject({ state: 'failed', problem: 'server_error' })
    const other = await remoteWith(1)
    await local.post('/local/v1/sync/profiles/update', { profile_id: profileId, base_url: other.url })
    expect((await local.get('/local/v1/sync/pulls/list', { profile_id: profileId })).body).toEqual([])
    const again = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(again.body, again.raw.body).toMatchObject({ resumed: false, state: 'failed', phase: 'campaigns' })
  })

  it('answers the running pull when one is started while it runs', async () => {
    const remote = await remoteWith(1)
    const { local, profileId } = await localWithProfile(remote.url)
    const [a, b] = await Promise.all([
      local.post('/local/v1/sync/pull/start', { profile_id: profileId, wait: 0 }),
      local.post('/local/v1/sync/pull/start', { profile_id: profileId, wait: 0 }),
    ])
    expect(a.body.pull_id).toBe(b.body.pull_id)
    // wait=1 while it runs: waits for that same pull
    const done = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(done.body).toMatchObject({ pull_id: a.body.pull_id, state: 'done' })
    const next = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(next.body.pull_id).not.toBe(a.body.pull_id)
    expect((await local.get('/local/v1/sync/pulls/list', { profile_id: profileId })).body).toHaveLength(2)
  })
})
