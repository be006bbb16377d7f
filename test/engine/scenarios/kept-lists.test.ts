// engine/row-texts.ts and engine/result-sets.ts: campaigns/list and list_spots keep each row's text
// per database version and a query's result set per version and day. Whatever was asked before, an
// answer must be the one an engine started afresh on the same storage gives (a start reads the
// snapshot and the journal: nothing kept). Engine A takes a history of writes (renames, dates,
// campaigns and spots created and deleted, spots moved to another publisher, keywords and plan days
// added and deleted) and the clock passing midnight with no write; after each step every list
// query is asked of A twice, in a shuffled order, and of a fresh engine on a copy of A's storage.
import { describe, expect, it } from 'vitest'
import { endpoints, type EndpointId } from '../../../engine/contract/endpoints'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

const P = (id: EndpointId) => endpoints[id].path

/** A copy of what A's storage holds now (its snapshot and journal). */
function copyOf(s: MemoryStorage): MemoryStorage {
  const c = new MemoryStorage()
  c.snapshot = s.snapshot && Uint8Array.from(s.snapshot)
  for (const [id, pieces] of s.segments) c.segments.set(id, pieces.map((b) => Uint8Array.from(b)))
  return c
}

interface State { campaigns: string[]; spots: Map<string, string[]> }

/** One write of the history, chosen by `rng` from what exists. */
async function write(t: TestEngine, st: State, rng: () => number, n: number): Promise<string> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!
  // a date `k` days from today (Asia/Shanghai)
  const day = (k: number) => new Date(t.clock.t + 8 * 3_600_000 + k * 86_400_000).toISOString().slice(0, 10)
  const cid = pick(st.campaigns)
  const spots = st.spots.get(cid)!
  // (a write the history makes that the engine refuses, a plan day named twice, is a step too)
  const ok = (r: { status: number; raw: { body: string } }, what: string) => (expect([200, 400], `${what}: ${r.raw.body}`).toContain(r.status), `${what} (${r.status})`)
  switch (n % 9) {
    case 0: return ok(await t.post(P('campaigns.update'), { campaign_id: cid, campaign_name: `renamed ${n}` }), `rename ${cid}`)
    case 1: return ok(await t.post(P('campaigns.update'), { campaign_id: cid, start_date: day(pick([0, 1, 2])), end_date: '2025-03-31' }), `dates ${cid}`)
    case 2: {
      const r = await t.post(P('campaigns.create_spot_with_plan'), { campaign_id: cid, publisher_name: pick(['Weibo', 'Youku']), channel_name: 'news', placement_name: `spot ${n}`, slot_begin: day(1), slot_duration: 3, est_impression: 1000 })
      spots.push(String(r.body.spot_id))
      return ok(r, `spot ${r.body.spot_id} in ${cid}`)
    }
    case 3: if (spots.length > 1) { const s = pick(spots); spots.splice(spots.indexOf(s), 1); return ok(await t.post(P('campaigns.delete_spot'), { campaign_id: cid, spot_id: s }), `delete spot ${s}`) } return 'none'
    case 4: if (spots.length > 0) return ok(await t.post(P('campaigns.update_spot'), { campaign_id: cid, spot_id: pick(spots), publisher_name: pick(['Weibo', 'Youku', 'Tencent']), placement_name: `moved ${n}` }), 'move spot')
      return 'none'
    case 5: if (spots.length > 0) return ok(await t.post(P('campaigns.update_spot'), { campaign_id: cid, spot_id: pick(spots), add_keyword: `kw${n}^https://example.com/${n}`, add_slot: day(6) }), 'keyword and day')
      return 'none'
    case 6: if (spots.length > 0) return ok(await t.post(P('campaigns.update_spot'), { campaign_id: cid, spot_id: pick(spots), delete_slot: day(1), dangerous_source_filtration: pick([0, 1]) }), 'day deleted')
      return 'none'
    case 7: {
      const r = await t.post(P('campaigns.create'), { campaign_name: `made ${n}`, start_date: day(pick([0, 1])), end_date: '2025-02-28' })
      st.campaigns.push(String(r.body.campaign_id))
      st.spots.set(String(r.body.campaign_id), [])
      return ok(r, `campaign ${r.body.campaign_id}`)
    }
    default:
      // to 23:40 with a new token: the caller asks its queries, and midnight passes with no write
      // (campaign status is of the day)
      t.clock.advance(11 * 3_600_000 + 40 * 60_000)
      t.token = await t.login()
      return 'midnight'
  }
}

/** Every list query of the state, ids written as scripts write them (some twice, zero-led, spaced). */
function queries(st: State, rng: () => number): [EndpointId, Record<string, string>][] {
  const ids = (xs: readonly string[]) => {
    const some = xs.filter(() => rng() < 0.5)
    return [...some, ...some.filter(() => rng() < 0.3).map((x) => `0${x}`), '99999'].sort(() => rng() - 0.5).join(',')
  }
  const out: [EndpointId, Record<string, string>][] = []
  const cids = [...st.campaigns, '88888']
  out.push(['campaigns.list', { campaign_id: ids(cids) }], ['campaigns.list', { campaign_id: ids(cids), order_desc: 'campaign_id', pmo_info: '1', dm_info: '1' }])
  out.push(['campaigns.list', { campaign_id: ids(cids).split(',').join(', ') }], ['campaigns.list', { campaign_id: ids(cids), limit: '1,2' }])
  for (const status of ['1', '2']) out.push(['campaigns.list', { status }], ['campaigns.list', { campaign_id: ids(cids), status }])
  out.push(['campaigns.list', { campaign_name: 'renamed' }], ['campaigns.list', { order_desc: 'campaign_name', limit: '0,5' }], ['campaigns.list', {}])
  for (const cid of st.campaigns.slice(0, 3)) {
    const spots = st.spots.get(cid)!
    out.push(['campaigns.list_spots', { campaign_id: cid }], ['campaigns.list_spots', { campaign_id: cid, spot_id: ids(spots) }])
    out.push(['campaigns.list_spots', { campaign_id: cid, spot_id: ids(spots), show_plan: '1', show_filtration_status: '1', order_desc: 'spot_id' }])
    out.push(['campaigns.list_spots', { campaign_id: cid, show_plan: '1', from_date: '2025-01-13', to_date: '2025-01-20', code_type: 'mma' }])
    out.push(['campaigns.list_spots', { campaign_id: cid, publisher_id: '1,2', order_asc: 'publisher_id' }])
  }
  return out
}

describe('kept list rows and result sets answer as a fresh engine does', () => {
  it.each([31, 32])('after each write of a history and a midnight, asked twice in shuffled orders (seed %i)', async (seed) => {
    const rng = prng(seed)
    const a = await makeEngine()
    const st: State = { campaigns: [], spots: new Map() }
    for (let i = 0; i < 3; i++) {
      const r = await a.post(P('campaigns.create'), { campaign_name: `list ${i}`, start_date: '2025-01-10', end_date: '2025-03-31' })
      st.campaigns.push(String(r.body.campaign_id))
      st.spots.set(String(r.body.campaign_id), [])
    }
    const bad: string[] = []
    let asked = 0
    for (let n = 0; n < 36; n++) {
      const what = await write(a, st, rng, Math.floor(rng() * 1000) * 9 + (n % 9))
      if (what === 'midnight') {
        for (const [id, q] of queries(st, rng)) await a.get(P(id), q)
        a.clock.advance(30 * 60_000)
      }
      const qs = queries(st, rng).sort(() => rng() - 0.5)
      const got: string[] = []
      for (const [id, q] of qs) got.push((await a.get(P(id), q)).raw.body)
      for (const [k, [id, q]] of qs.entries()) expect((await a.get(P(id), q)).raw.body, `${id} ${JSON.stringify(q)} asked again`).toBe(got[k])
      const b = await makeEngine({ storage: copyOf(a.storage), today: '2025-01-10' })
      b.clock.t = a.clock.t
      b.token = await b.login()
      for (const [k, [id, q]] of qs.entries()) {
        const fresh = (await b.get(P(id), q)).raw.body
        asked++
        if (fresh !== got[k]) bad.push(`after ${what}: ${id} ${JSON.stringify(q)}\n  kept:  ${got[k]!.slice(0, 300)}\n  fresh: ${fresh.slice(0, 300)}`)
      }
    }
    expect(bad, bad.slice(0, 3).join('\n')).toEqual([])
    expect(asked).toBeGreaterThan(500)
  }, 300_000)
})
