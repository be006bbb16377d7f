// Sync against the vendor stand-in (vendor-remote.ts) the way a user works: a pulled copy edited
// locally twice, a choice typed wrongly, a remote name that differs from the local one only in
// case, spaces or full-width letters. The truth is read from the stand-in's own records.
import { afterEach, describe, expect, it } from 'vitest'
import { DATES, type TestEngine } from '../../helpers/make-engine'
import { localWithProfile } from './remote'
import { startVendor, type VendorRemote } from './vendor-remote'

let vendor: VendorRemote
afterEach(async () => {
  await vendor.close()
})

type Row = Record<string, unknown>
const ok = <R extends { status: number; raw: { body: string } }>(r: R): R => {
  expect(r.status, r.raw.body).toBe(200)
  return r
}

/** A campaign drafted locally: advertiser 1 (宝洁 Procter & Gamble), brand 1, agency 1 (群邑 GroupM). */
async function draft(local: TestEngine): Promise<string> {
  const form = { campaign_name: 'Plane draft', start_date: DATES.tomorrow, end_date: DATES.nextMonth, advertiser_id: 1, brand_id: 1, agency_id: 1, description: 'written offline' }
  return ok(await local.post('/cms/v1/campaigns/create', form)).body.campaign_id as string
}

const queue = (local: TestEngine, profileId: string, localId: string, op: 'create' | 'update') => local.post('/local/v1/sync/outbox/add', { profile_id: profileId, kind: 'campaign', op, local_id: localId })
const push = async (local: TestEngine, profileId: string) => ok(await local.post('/local/v1/sync/push/start', { profile_id: profileId })).body
const outbox = async (local: TestEngine, profileId: string) => (await local.get('/local/v1/sync/outbox/list', { profile_id: profileId })).body as Row[]
const remoteCampaign = () => vendor.data.campaigns.find((c) => c.f.campaign_name === 'Plane draft')!

describe('sync.outbox_add: a pushed campaign edited locally twice', () => {
  async function pushedDraft(): Promise<{ local: TestEngine; profileId: string; localId: string }> {
    vendor = await startVendor()
    const { local, profileId } = await localWithProfile(vendor.url)
    const localId = await draft(local)
    ok(await queue(local, profileId, localId, 'create'))
    await push(local, profileId)
    return { local, profileId, localId }
  }

  it('sends nothing once the second edit sets the record back to the pulled copy: the remote keeps what the local record says', async () => {
    const { local, profileId, localId } = await pushedDraft()
    ok(await local.post('/cms/v1/campaigns/update', { campaign_id: localId, description: 'first thought' }))
    ok(await queue(local, profileId, localId, 'update'))
    ok(await local.post('/cms/v1/campaigns/update', { campaign_id: localId, description: 'written offline' }))
    const again = ok(await queue(local, profileId, localId, 'update')).body as Row[]
    expect(again).toEqual([])
    expect(await outbox(local, profileId)).toEqual([])
    await push(local, profileId)
    const localNow = ok(await local.get('/cms/v1/campaigns/show', { campaign_id: localId })).body
    expect(remoteCampaign().f.description).toBe(localNow.description)
  })

  it("sends a new brand with its advertiser (the service takes a brand only beside its advertiser), and the remote's brand of that advertiser is set", async () => {
    const { local, profileId, localId } = await pushedDraft()
    // local brand 2 is 飘柔 Rejoice, of the same advertiser (宝洁 Procter & Gamble)
    ok(await local.post('/cms/v1/campaigns/update', { campaign_id: localId, advertiser_id: 1, brand_id: 2 }))
    const [op] = ok(await queue(local, profileId, localId, 'update')).body as Row[]
    expect(op!.params).toEqual({ advertiser_name: '宝洁 Procter & Gamble', brand_name: '飘柔 Rejoice' })
    expect((await push(local, profileId)).results.map((x: Row) => x.outcome)).toEqual(['updated'])
    const advertiser = vendor.data.advertisers.find(([, n]) => n === '宝洁 Procter & Gamble')![0]
    expect(remoteCampaign().f).toMatchObject({ advertiser_id: advertiser, brand_id: vendor.data.brands.find(([, n, a]) => n === '飘柔 Rejoice' && a === advertiser)![0] })
  })

  it('still refuses an unchanged record when nothing waits for it', async () => {
    const { local, profileId, localId } = await pushedDraft()
    const none = await queue(local, profileId, localId, 'update')
    expect(none.status).toBe(400)
    expect(none.body.error_description).toMatch(/^The 'local_id' differs in no field from the pulled copy of remote campaign \d+: nothing to send\.$/)
  })
})

describe('sync.outbox_resolve action=choose: what the user types', () => {
  async function waiting(): Promise<{ local: TestEngine; op: Row }> {
    vendor = await startVendor()
    // the remote has no 群邑 GroupM: the agency waits for a choice
    vendor.data.agencies = vendor.data.agencies.filter(([, n]) => n !== '群邑 GroupM')
    const { local, profileId } = await localWithProfile(vendor.url)
    ok(await queue(local, profileId, await draft(local), 'create'))
    expect((await push(local, profileId)).results[0].outcome).toBe('choose')
    const [op] = await outbox(local, profileId)
    return { local, op: op! }
  }

  it.each([
    ['agency_id', "The 'params' holds a bad member: agency_id has no '=' (agency_id=REMOTE_ID chooses a record, agency_id= chooses none)."],
    ['agency_id=3&agency_id=1', "The 'params' holds a bad member: agency_id is given twice."],
  ])('refuses %s, and the operation still waits', async (text, said) => {
    const { local, op } = await waiting()
    const r = await local.post('/local/v1/sync/outbox/resolve', { op_id: op.op_id as string, action: 'choose', params: text })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ error: 'invalid_request', error_description: said })
    const after = ok(await local.get('/local/v1/sync/outbox/show', { op_id: op.op_id as string })).body
    expect(after).toMatchObject({ state: 'choose', params: op.params })
  })
})

describe('sync.push_start: a remote name that differs from the local one only in case, spaces or full-width letters', () => {
  it.each(['宝洁 procter & gamble', '宝洁  Procter & Gamble', '宝洁 Ｐｒｏｃｔｅｒ & Ｇａｍｂｌｅ'])('waits for a choice, and offers %s first', async (remoteName) => {
    vendor = await startVendor()
    const entry = vendor.data.advertisers.find(([, n]) => n === '宝洁 Procter & Gamble')!
    entry[1] = remoteName
    const { local, profileId } = await localWithProfile(vendor.url)
    ok(await queue(local, profileId, await draft(local), 'create'))
    expect((await push(local, profileId)).results[0].outcome).toBe('choose')
    const [op] = await outbox(local, profileId)
    const [choice] = op!.choices as Row[]
    expect(choice).toMatchObject({ param: 'advertiser_id', reason: 'no_match' })
    expect((choice!.candidates as Row[])[0]).toEqual({ remote_id: entry[0], name: remoteName })
    expect(vendor.data.campaigns).toHaveLength(0)
  })
})
