// A pull through a fault-injecting proxy (delays, resets, 500s, cut bodies): it finishes, or
// stops with a clear error, and the local store stays consistent either way; from a second
// engine and from the vendor stand-in (both readings of what vendor-notes leaves ambiguous)
import { afterEach, describe, expect, it } from 'vitest'
import type { TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'
import { localView, remoteView, expectSameAsRemote } from './compare'
import { startFaultProxy, type Fault, type FaultProxy } from './fault-proxy'
import { FAST, REMOTES, localWithProfile, type AnyRemote } from './remote'

let remote: AnyRemote
let proxy: FaultProxy
afterEach(async () => {
  await proxy?.close()
  await remote.close()
})

const FAULTS: Fault[] = ['delay', 'reset', '500', 'cut', 'short']

/** Every campaign stored is exactly the remote's (none half-written); the reference lists are whole. */
async function expectConsistent(local: TestEngine, profileId: string): Promise<number> {
  const [want, got] = [await remoteView(remote.t), await localView(local, profileId)]
  for (const [id, c] of Object.entries(got.campaigns)) expect(c, `campaign ${id}`).toEqual(want.campaigns[id])
  for (const [kind, rows] of Object.entries(got.reference)) if (rows.length > 0) expect(rows, kind).toEqual(want.reference[kind as keyof typeof want.reference])
  return Object.keys(got.campaigns).length
}

describe.each(REMOTES)('pull from %s through a faulty network', (_, startRemote) => {
  it('finishes despite one request in five failing (retried with backoff), and stores what the remote has', async () => {
    remote = await startRemote(4)
    const rnd = prng(20250111)
    proxy = await startFaultProxy(remote.url, () => (rnd() < 0.2 ? FAULTS[Math.floor(rnd() * FAULTS.length)]! : 'none'))
    const { local, profileId } = await localWithProfile(proxy.url, { ...FAST, retries: 8 })
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.body, JSON.stringify(proxy.injected)).toMatchObject({ state: 'done', campaigns_done: 4 })
    for (const f of FAULTS) expect(proxy.injected[f], f).toBeGreaterThan(0)
    expect(r.body.retries).toBe(proxy.injected.reset + proxy.injected['500'] + proxy.injected.cut + proxy.injected.short)
    await expectSameAsRemote(remote.t, local, profileId)
  })

  it.each(['reset', '500', 'cut', 'short'] as const)('stops with a clear error when the remote keeps failing (%s), keeps only whole campaigns, and resumes', async (fault) => {
    remote = await startRemote(4)
    let broken = false
    proxy = await startFaultProxy(remote.url, (path) => {
      if (path === '/cms/v1/campaigns/list_publishers') broken = true // after the first campaign's spots and targets
      return broken ? fault : 'none'
    })
    const { local, profileId } = await localWithProfile(proxy.url, { ...FAST, retries: 3 })
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    const expected = { reset: ['reset', /closed the connection/], '500': ['server_error', /The remote failed on \/cms\/v1\/campaigns\/list_publishers \(server_error: injected\)/], cut: ['reset', /closed the connection/], short: ['bad_response', /list_publishers was cut short or is not valid JSON/] }[fault]
    expect(r.body).toMatchObject({ state: 'failed', problem: expected[0], campaigns_done: 0, retries: 3 })
    expect(r.body.message).toMatch(expected[1] as RegExp)
    expect(await expectConsistent(local, profileId)).toBe(0)
    broken = false
    proxy.choose = () => 'none'
    const again = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(again.body).toMatchObject({ state: 'done', resumed: true })
    await expectSameAsRemote(remote.t, local, profileId)
  })

  it('stops cleanly when the remote goes away in the middle, and keeps the campaigns it finished', async () => {
    remote = await startRemote(4)
    let shows = 0
    proxy = await startFaultProxy(remote.url, (path) => (path === '/cms/v1/campaigns/show' && ++shows === 3) || shows > 3 ? 'reset' : 'none')
    const { local, profileId } = await localWithProfile(proxy.url, { ...FAST, retries: 2 })
    const r = await local.post('/local/v1/sync/pull/start', { profile_id: profileId })
    expect(r.body).toMatchObject({ state: 'failed', problem: 'reset', campaigns_done: 2 })
    expect(await expectConsistent(local, profileId)).toBe(2)
  })
})
