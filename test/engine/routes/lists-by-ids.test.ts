// spec §4.2 campaigns/list with campaign_id and list_spots with spot_id: lists asked for by ids,
// each a query never seen before, answer the rows of those ids that exist (the campaign's spots
// only), each once, in id order, as they are after every write; the truth is what this test
// created and changed, not another answer of the engine.
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

const LIST = endpoints['campaigns.list'].path
const SPOTS = endpoints['campaigns.list_spots'].path

let t: TestEngine
/** campaign id -> name, as this test created and renamed them. */
const campaigns = new Map<number, string>()
/** spot id -> placement name, of campaign `cid` (the spots of `other` are not its). */
const spots = new Map<number, string>()
let cid = ''
let otherSpot = 0

beforeAll(async () => {
  t = await makeEngine()
  for (let i = 0; i < 30; i++) {
    const name = `by ids ${i}`
    const r = await t.post(endpoints['campaigns.create'].path, { campaign_name: name, start_date: '2025-01-10', end_date: '2025-01-31' })
    campaigns.set(Number(r.body.campaign_id), name)
  }
  cid = String([...campaigns.keys()][0])
  const other = String([...campaigns.keys()][1])
  for (let i = 0; i < 20; i++) {
    const r = await t.post(endpoints['campaigns.create_spot'].path, { campaign_id: cid, publisher_name: 'Weibo', channel_name: 'news', placement_name: `spot ${i}` })
    spots.set(Number(r.body.spot_id), `spot ${i}`)
  }
  otherSpot = Number((await t.post(endpoints['campaigns.create_spot'].path, { campaign_id: other, publisher_name: 'Weibo', channel_name: 'news', placement_name: 'elsewhere' })).body.spot_id)
})

/** Some ids of `known`, unknown ids, and some twice (once with a leading zero), shuffled. */
function idList(rng: () => number, known: readonly number[], extra: readonly number[] = []): string[] {
  const some = known.filter(() => rng() < 0.4)
  const twice = some.filter(() => rng() < 0.2).map((id) => `0${id}`)
  return [...some.map(String), ...twice, ...extra.map(String), '99999'].sort(() => rng() - 0.5)
}

const expected = (asked: readonly string[], rows: Map<number, string>, desc: boolean) =>
  [...new Set(asked.map(Number))].filter((id) => rows.has(id)).sort((a, b) => (desc ? b - a : a - b)).map((id) => [String(id), rows.get(id)])

async function askCampaigns(rng: () => number): Promise<void> {
  for (let round = 0; round < 6; round++) {
    const asked = idList(rng, [...campaigns.keys()])
    const desc = round % 3 === 2
    const r = await t.get(LIST, { campaign_id: asked.join(','), ...(desc ? { order_desc: 'campaign_id' } : round % 3 === 1 ? { order_asc: 'campaign_id' } : {}) })
    expect(r.status, r.raw.body).toBe(200)
    expect((r.body as { campaign_id: string; campaign_name: string }[]).map((c) => [c.campaign_id, c.campaign_name])).toEqual(expected(asked, campaigns, desc))
  }
}

async function askSpots(rng: () => number): Promise<void> {
  for (let round = 0; round < 6; round++) {
    const asked = idList(rng, [...spots.keys()], [otherSpot])
    const desc = round % 2 === 1
    const r = await t.get(SPOTS, { campaign_id: cid, spot_id: asked.join(','), code_type: 'mma', ...(desc ? { order_desc: 'spot_id' } : {}) })
    expect(r.status, r.raw.body).toBe(200)
    expect((r.body as { spot_id: string; placement_name: string }[]).map((s) => [s.spot_id, s.placement_name])).toEqual(expected(asked, spots, desc))
  }
}

describe('campaigns.list and campaigns.list_spots by ids', () => {
  it('answer the rows of the ids asked for that exist, once each, in id order, after every write', async () => {
    const rng = prng(31)
    await askCampaigns(rng)
    await askSpots(rng)
    // writes between the queries: renamed and deleted campaigns and spots
    for (const id of [...campaigns.keys()].slice(2, 6)) {
      const name = `renamed ${id}`
      expect((await t.post(endpoints['campaigns.update'].path, { campaign_id: id, campaign_name: name })).status).toBe(200)
      campaigns.set(id, name)
    }
    const gone = [...campaigns.keys()].at(-1)!
    expect((await t.post(endpoints['campaigns.delete'].path, { campaign_id: gone })).status).toBe(200)
    campaigns.delete(gone)
    await askCampaigns(rng)
    for (const id of [...spots.keys()].slice(0, 3)) {
      const name = `moved ${id}`
      expect((await t.post(endpoints['campaigns.update_spot'].path, { campaign_id: cid, spot_id: id, placement_name: name })).status).toBe(200)
      spots.set(id, name)
    }
    const spotGone = [...spots.keys()].at(-1)!
    expect((await t.post(endpoints['campaigns.delete_spot'].path, { campaign_id: cid, spot_id: spotGone })).status).toBe(200)
    spots.delete(spotGone)
    await askSpots(rng)
  })

  it('answers a changed row in a query asked again after the write (no kept answer of before)', async () => {
    const id = [...campaigns.keys()][7]!
    const asked = { campaign_id: `${id},${[...campaigns.keys()][8]!}` }
    expect((await t.get(LIST, asked)).body[0].campaign_name).toBe(campaigns.get(id))
    await t.post(endpoints['campaigns.update'].path, { campaign_id: id, campaign_name: 'renamed again' })
    expect((await t.get(LIST, asked)).body[0].campaign_name).toBe('renamed again')
  })
})
