// Sync against the vendor stand-in (vendor-remote.ts: written from vendor-notes, not from this
// engine): reference ids mapped by name, updates that send what changed, tokens the service ends
// early (access_denied), its fault modes, and both readings of what vendor-notes leaves ambiguous.
// The truth is read from the stand-in's own records.
import { afterEach, describe, expect, it } from 'vitest'
import { DATES, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'
import { expectSameAsRemote } from './compare'
import { startFaultProxy, type Fault, type FaultProxy } from './fault-proxy'
import { FAST, localWithProfile } from './remote'
import { OTHER_READINGS, READINGS, seedCampaign, startVendor, type VendorRemote } from './vendor-remote'

let vendor: VendorRemote
let proxy: FaultProxy | undefined
afterEach(async () => {
  await proxy?.close()
  proxy = undefined
  await vendor.close()
})

type Row = Record<string, unknown>
const ok = <R extends { status: number; raw: { body: string } }>(r: R): R => {
  expect(r.status, r.raw.body).toBe(200)
  return r
}

/** A campaign drafted locally with local reference ids (1 = 宝洁 Procter & Gamble, 海飞丝 Head & Shoulders, 群邑 GroupM), a spot and a target. */
async function draft(local: TestEngine, f: Record<string, string | number> = {}): Promise<string> {
  const form = Object.fromEntries(Object.entries({ campaign_name: 'Plane draft', start_date: DATES.tomorrow, end_date: DATES.nextMonth, advertiser_id: 1, brand_id: 1, agency_id: 1, description: 'written offline', ...f }).filter(([, v]) => v !== ''))
  const id = ok(await local.post('/cms/v1/campaigns/create', form)).body.campaign_id as string
  ok(await local.post('/cms/v1/campaigns/create_spot', { campaign_id: id, publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner', guid: 'g-1' }))
  ok(await local.post('/cms/v1/campaigns/publish_target', { campaign_id: id, target_name: 'Women', tag_id: 'female' }))
  return id
}

const queue = async (local: TestEngine, profileId: string, localId: string) => ok(await local.post('/local/v1/sync/outbox/add', { profile_id: profileId, kind: 'campaign', op: 'create', local_id: localId })).body as Row[]
const push = async (local: TestEngine, profileId: string) => ok(await local.post('/local/v1/sync/push/start', { profile_id: profileId })).body
const outbox = async (local: TestEngine, profileId: string) => (await local.get('/local/v1/sync/outbox/list', { profile_id: profileId })).body as Row[]
const named = (name: string) => vendor.data.campaigns.filter((c) => c.f.campaign_name === name)
const idOf = (list: [string, string][], name: string) => list.filter(([, n]) => n === name).map(([i]) => i)

describe('sync.push_start against the vendor stand-in: reference ids', () => {
  it('lands a draft with local ids on the remote advertiser, brand and agency of the same names; the pulled copy shows them', async () => {
    vendor = await startVendor()
    const { local, profileId } = await localWithProfile(vendor.url)
    const localId = await draft(local)
    const ops = await queue(local, profileId, localId)
    expect(ops[0]!.params).toMatchObject({ advertiser_name: '宝洁 Procter & Gamble', brand_name: '海飞丝 Head & Shoulders', agency_name: '群邑 GroupM' })
    expect(ops[0]!.params).not.toHaveProperty('advertiser_id')
    const r = await push(local, profileId)
    expect(r.results.map((x: Row) => x.outcome)).toEqual(['created', 'created', 'created'])
    const [c] = named('Plane draft')
    // the stand-in's own ids for those names, not its records 1 (NASA, xxxx, AgencyX)
    const advertiser = idOf(vendor.data.advertisers, '宝洁 Procter & Gamble')[0]!
    expect(c!.f).toMatchObject({ advertiser_id: advertiser, agency_id: idOf(vendor.data.agencies, '群邑 GroupM')[0] })
    expect(c!.f.brand_id).toBe(vendor.data.brands.find(([, n, a]) => n === '海飞丝 Head & Shoulders' && a === advertiser)![0])
    const copy = (await local.get('/local/v1/sync/campaigns/show', { profile_id: profileId, campaign_id: String(c!.campaign_id) })).body
    expect(copy.campaign).toMatchObject({ advertiser_name: '宝洁 Procter & Gamble', brand_name: '海飞丝 Head & Shoulders', agency_name: '群邑 GroupM' })
  })

  it('asks the user where a name matches no remote record exactly, or several; sends nothing until chosen', async () => {
    vendor = await startVendor()
    const { local, profileId } = await localWithProfile(vendor.url)
    // local advertiser 3 is 可口可乐 Coca-Cola (none at the remote), agency 5 哈瓦斯 Havas (two at the remote)
    const localId = await draft(local, { advertiser_id: 3, brand_id: '', agency_id: 5 })
    await queue(local, profileId, localId)
    const r = await push(local, profileId)
    expect(r.results.map((x: Row) => x.outcome)).toEqual(['choose', 'blocked', 'blocked'])
    expect(named('Plane draft')).toHaveLength(0)
    const [op] = await outbox(local, profileId)
    expect(op).toMatchObject({ state: 'choose' })
    const choices = op!.choices as Row[]
    expect(choices.map((c) => [c.param, c.reason])).toEqual([['advertiser_id', 'no_match'], ['agency_id', 'several']])
    expect((choices[0]!.candidates as Row[]).map((c) => c.remote_id).sort()).toEqual(vendor.data.advertisers.map(([i]) => i).sort())
    expect((choices[1]!.candidates as Row[]).map((c) => c.remote_id)).toEqual(idOf(vendor.data.agencies, '哈瓦斯 Havas'))
    const wrong = await local.post('/local/v1/sync/outbox/resolve', { op_id: op!.op_id as string, action: 'choose', params: 'advertiser_id=999' })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error_description).toBe("The 'params' holds advertiser_id=999, which names no pulled advertiser.")
    const [unilever, havas] = [idOf(vendor.data.advertisers, '联合利华 Unilever')[0]!, idOf(vendor.data.agencies, '哈瓦斯 Havas')[1]!]
    const chosen = ok(await local.post('/local/v1/sync/outbox/resolve', { op_id: op!.op_id as string, action: 'choose', params: `advertiser_id=${unilever}&agency_id=${havas}` })).body
    expect(chosen.op).toMatchObject({ state: 'pending', choices: [] })
    expect((chosen.op.sends as Row[]).filter((f) => String(f.name).endsWith('_id'))).toEqual([
      { name: 'advertiser_id', value: unilever, label: '联合利华 Unilever', base: null }, { name: 'agency_id', value: havas, label: '哈瓦斯 Havas', base: null },
    ])
    expect((await push(local, profileId)).results.map((x: Row) => x.outcome)).toEqual(['created', 'created', 'created'])
    expect(named('Plane draft')[0]!.f).toMatchObject({ advertiser_id: unilever, agency_id: havas })
  })

  it('sends no advertiser, and so no brand, when the user chooses none', async () => {
    vendor = await startVendor()
    const { local, profileId } = await localWithProfile(vendor.url)
    // local advertiser 3 (可口可乐 Coca-Cola) with its brand 12: none of the remote's
    await queue(local, profileId, await draft(local, { advertiser_id: 3, brand_id: 12 }))
    await push(local, profileId)
    const [op] = await outbox(local, profileId)
    expect((op!.choices as Row[]).map((c) => c.param)).toEqual(['advertiser_id'])
    const chosen = ok(await local.post('/local/v1/sync/outbox/resolve', { op_id: op!.op_id as string, action: 'choose', params: 'advertiser_id=' })).body
    expect(chosen.op.state).toBe('pending')
    expect(Object.keys(chosen.op.params)).not.toContain('brand_name')
    await push(local, profileId)
    expect(named('Plane draft')[0]!.f).toMatchObject({ agency_id: idOf(vendor.data.agencies, '群邑 GroupM')[0] })
    expect(named('Plane draft')[0]!.f.advertiser_id).toBeUndefined()
    expect(named('Plane draft')[0]!.f.brand_id).toBeUndefined()
  })
})

describe('sync.push_start of an operation queued by an earlier version', () => {
  it('reads the local ids it holds as local records, and sends their names mapped to the remote ids', async () => {
    vendor = await startVendor()
    const { local, profileId } = await localWithProfile(vendor.url)
    const [op] = await queue(local, profileId, await draft(local, { brand_id: '' }))
    // what an earlier version queued: the local ids, no names
    ok(await local.post('/local/v1/sync/outbox/update', { op_id: op!.op_id as string, params: 'advertiser_id=1&advertiser_name=&agency_id=1&agency_name=' }))
    expect((await push(local, profileId)).results.map((x: Row) => x.outcome)).toEqual(['created', 'created', 'created'])
    expect(named('Plane draft')[0]!.f).toMatchObject({ advertiser_id: idOf(vendor.data.advertisers, '宝洁 Procter & Gamble')[0], agency_id: idOf(vendor.data.agencies, '群邑 GroupM')[0] })
  })
})

describe('sync.push_start against the vendor stand-in: a create cut off, then its advertiser renamed at the remote and pulled', () => {
  it.each([['drop', 'reconciled'], ['500', 'choose']] as const)('after %s finds what arrived, and asks for the advertiser of what did not (%s)', async (fault, outcome) => {
    vendor = await startVendor()
    let once = false
    vendor.fault = (method, path) => (method === 'POST' && path === '/cms/v1/campaigns/create' && !once ? ((once = true), fault) : 'none')
    const { local, profileId } = await localWithProfile(vendor.url, { ...FAST, retries: 1 })
    await queue(local, profileId, await draft(local, { brand_id: '' }))
    expect((await push(local, profileId)).state).toBe('failed')
    const entry = vendor.data.advertisers.find(([, n]) => n === '宝洁 Procter & Gamble')!
    entry[1] = 'P&G 宝洁'
    // a pull reads the renamed list: the name queued matches no remote advertiser any more
    ok(await local.post('/local/v1/sync/pull/start', { profile_id: profileId }))
    const r = await push(local, profileId)
    expect(r.results[0].outcome).toBe(outcome)
    expect(named('Plane draft')).toHaveLength(fault === 'drop' ? 1 : 0)
  })
})

describe('sync.outbox_add against the vendor stand-in: updates send what changed', () => {
  it("edits a running campaign's description from its draft: only the description is sent, the dates stay", async () => {
    vendor = await startVendor()
    const { local, profileId } = await localWithProfile(vendor.url)
    const localId = await draft(local)
    await queue(local, profileId, localId)
    await push(local, profileId)
    vendor.today = '2025-01-15' // the campaign (from 2025-01-11) has started
    ok(await local.post('/cms/v1/campaigns/update', { campaign_id: localId, description: 'changed on the ground' }))
    const [op] = ok(await local.post('/local/v1/sync/outbox/add', { profile_id: profileId, kind: 'campaign', op: 'update', local_id: localId })).body as Row[]
    expect(op!.params).toEqual({ description: 'changed on the ground' })
    expect(op!.sends).toEqual([{ name: 'description', value: 'changed on the ground', label: '', base: 'written offline' }])
    expect((await push(local, profileId)).results.map((x: Row) => x.outcome)).toEqual(['updated'])
    expect(named('Plane draft')[0]!.f).toMatchObject({ description: 'changed on the ground', start_date: DATES.tomorrow, end_date: DATES.nextMonth })
    const none = await local.post('/local/v1/sync/outbox/add', { profile_id: profileId, kind: 'campaign', op: 'update', local_id: localId })
    expect(none.body.error_description).toMatch(/^The 'local_id' differs in no field from the pulled copy of remote campaign \d+: nothing to send\.$/)
  })
})

describe('sync against the vendor stand-in: tokens ended early (access_denied)', () => {
  it('logs in again when the service ends its tokens in the middle of a pull, and skips nothing', async () => {
    vendor = await startVendor()
    for (let n = 1; n <= 3; n++) seedCampaign(vendor.data, n)
    let shows = 0
    let ended = false
    vendor.fault = (_, path) => {
      if (path === '/cms/v1/campaigns/show' && ++shows === 2) vendor.endTokens()
      if (path === '/cms/v1/product/list' && !ended) {
        ended = true
        vendor.endTokens()
      }
      return 'none'
    }
    const { local, profileId } = await localWithProfile(vendor.url)
    const r = ok(await local.post('/local/v1/sync/pull/start', { profile_id: profileId })).body
    expect(r).toMatchObject({ state: 'done', campaigns_done: 3, logins: 3, problem: '' })
    expect(r.message).not.toMatch(/skipped/)
    await expectSameAsRemote(vendor, local, profileId)
  })

  it('reports a refusal that persists after a new login as a refusal (no permission on the campaign), and goes on', async () => {
    vendor = await startVendor()
    const ids = [1, 2].map((n) => String(seedCampaign(vendor.data, n).campaign_id))
    vendor.denied.add(ids[0]!)
    const { local, profileId } = await localWithProfile(vendor.url)
    const r = ok(await local.post('/local/v1/sync/pull/start', { profile_id: profileId })).body
    expect(r).toMatchObject({ state: 'done', logins: 2 })
    expect(r.message).toContain(`The remote refused /cms/v1/campaigns/show with a new token too (access_denied: No permission on this campaign.)`)
    const pulled = (await local.get('/local/v1/sync/campaigns/list', { profile_id: profileId })).body as Row[]
    expect(pulled.map((c) => String(c.campaign_id))).toEqual([ids[1]])
  })

  it('logs in again in the forward mode and for snapshot pulls', async () => {
    vendor = await startVendor()
    const id = String(seedCampaign(vendor.data, 1).campaign_id)
    const { local, profileId } = await localWithProfile(vendor.url)
    ok(await local.post('/local/v1/sync/modes/set', { group: 'campaigns', mode: 'forward', profile_id: profileId }))
    ok(await local.get('/cms/v1/campaigns/list'))
    vendor.endTokens()
    const again = ok(await local.get('/cms/v1/campaigns/show', { campaign_id: id }))
    expect(again.body.campaign_name).toBe('Vendor campaign 1')
    vendor.endTokens()
    const snap = ok(await local.post('/local/v1/sync/snapshots/pull', { profile_id: profileId, report: 'basic_show', params: `campaign_id=${id}&date=2025-01-12` })).body
    expect(snap).toMatchObject({ state: 'done' })
  })
})

describe('sync.push_start against the vendor stand-in: its fault modes', () => {
  it.each([['drop', 'a write done and its connection dropped'], ['500', 'a 500 (nothing done)'], ['429', 'a 429 with Retry-After']] as const)('creates each record once through %s (%s)', async (fault, _what) => {
    vendor = await startVendor()
    let faults = 0
    vendor.fault = (method, path) => {
      if (method !== 'POST' || faults > 0 || path !== '/cms/v1/campaigns/create_spot') return 'none'
      faults++
      return fault
    }
    const { local, profileId } = await localWithProfile(vendor.url, { ...FAST, retries: 2 })
    await queue(local, profileId, await draft(local))
    const first = await push(local, profileId)
    if (fault === '429') {
      expect(first.state).toBe('done')
      expect(local.clock.slept).toContain(1000)
    } else {
      expect(first).toMatchObject({ state: 'failed', problem: fault === 'drop' ? 'reset' : 'server_error' })
      expect((await push(local, profileId)).state).toBe('done')
    }
    expect(await outbox(local, profileId)).toEqual([])
    const [c] = named('Plane draft')
    expect(named('Plane draft')).toHaveLength(1)
    expect(c!.spots.map((s) => s.f.placement_name)).toEqual(['top banner'])
    expect(c!.targets.map((t) => t.target_name)).toEqual(['Women'])
  })
})

describe('sync.push_start against the vendor stand-in through a faulty network', () => {
  it('gets every draft there exactly once through a network that loses, cuts and fails one request in four', async () => {
    vendor = await startVendor()
    const rnd = prng(20251128)
    const faults: Fault[] = ['lost', 'reset', '500', 'cut', 'short', 'delay']
    proxy = await startFaultProxy(vendor.url, () => (rnd() < 0.25 ? faults[Math.floor(rnd() * faults.length)]! : 'none'))
    const { local, profileId } = await localWithProfile(proxy.url, { ...FAST, retries: 2 })
    for (const name of ['Plane draft', 'Train draft']) await queue(local, profileId, await draft(local, { campaign_name: name }))
    let pushes = 0
    for (; pushes < 40; pushes++) if ((await push(local, profileId)).state === 'done' && (await outbox(local, profileId)).length === 0) break
    expect(pushes, JSON.stringify(proxy.injected)).toBeLessThan(40)
    expect(proxy.injected.lost, 'lost answers injected').toBeGreaterThan(0)
    for (const name of ['Plane draft', 'Train draft']) {
      expect(named(name), name).toHaveLength(1)
      expect(named(name)[0]!.spots.map((x) => x.f.placement_name)).toEqual(['top banner'])
      expect(named(name)[0]!.targets.map((x) => x.target_name)).toEqual(['Women'])
    }
  })
})

describe.each([['reading', READINGS], ['other reading', OTHER_READINGS]] as const)('sync against the vendor stand-in, %s of the ambiguities', (_, readings) => {
  it('pulls every page of every list, and keeps a campaign whose name is taken in the outbox as refused', async () => {
    vendor = await startVendor(readings)
    for (let n = 1; n <= 3; n++) seedCampaign(vendor.data, n)
    const { local, profileId } = await localWithProfile(vendor.url)
    expect(ok(await local.post('/local/v1/sync/pull/start', { profile_id: profileId })).body).toMatchObject({ state: 'done', campaigns_done: 3 })
    await expectSameAsRemote(vendor, local, profileId)
    await queue(local, profileId, await draft(local, { campaign_name: 'Vendor campaign 1' }))
    const r = await push(local, profileId)
    expect(r.results.map((x: Row) => x.outcome)).toEqual(['failed', 'blocked', 'blocked'])
    expect(r.results[0].message).toContain(`(${readings.duplicateName}: The 'campaign_name' has been existed.)`)
  })
})
