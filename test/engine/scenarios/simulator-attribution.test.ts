// docs/simulator.md: simulated hits are the engine's attribution of simulated clients' requests:
// NAT groups, cookie refusers, devices with several ids, prefetches, data centres and bots, and
// spots whose audience leans by its media. Every truth here is computed from what the test saw
// (the requests, the hits, the panel), not from the simulator's own labels.
import { isbot } from 'isbot'
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { Attributor, isDataCentreIsp } from '../../../engine/measure/attribute'
import type { Attribution, TrackingRequest } from '../../../engine/measure/attribute/types'
import { simulate } from '../../../engine/measure/simulate'
import { IVT, KIND, type Hit } from '../../../engine/measure/types'
import { dateIn } from '../../../engine/time-zone'
import { collect, datesOf, fixture, personsOfHits, ZONE, type Fixture } from '../measure/simulate/fixture'

const FROM = '2025-01-13'
const TO = '2025-01-15'
const DAILY = 30_000

interface Seen {
  request: TrackingRequest
  attribution: Attribution
}

/** The address a request is located by: `ns=` (server to server) or the socket's. */
const addressOf = (r: TrackingRequest): string => /[&/]ns=([^&]+)/.exec(r.path)?.[1] ?? r.remoteAddress

describe('simulator through attribution', () => {
  let f: Fixture
  let hits: Hit[]
  let seen: Seen[]
  let spots: number[]
  beforeAll(async () => {
    const plan = { dates: datesOf(FROM, TO), impressions: new Array(3).fill(DAILY), clicks: new Array(3).fill(100) }
    f = await fixture(FROM, TO, [
      { form: { publisher_name: 'Some media', channel_name: 'home', placement_name: 'banner' }, plan },
      { form: { publisher_name: '小红书 Xiaohongshu', channel_name: '美妆', placement_name: '信息流' }, plan },
      { form: { publisher_name: '虎扑 Hupu', channel_name: '体育 NBA', placement_name: '首页横幅' }, plan },
      { form: { publisher_name: '抖音 Douyin', channel_name: '推荐流', adposition_type: '信息流' }, plan },
    ], 20_000)
    seen = []
    hits = []
    const sim = simulate(f.input({ onRequest: (request, attribution) => seen.push({ request, attribution }) }))
    spots = sim.plan.spots.map((s) => s.spot_id)
    for (const chunk of sim.chunks) for (const h of chunk) hits.push(h)
  }, 120_000)

  it('gives the same chunks for the same seed, and other identities for another seed', () => {
    const again = collect(f.input())
    expect(JSON.stringify(again.hits)).toBe(JSON.stringify(hits))
    const other = new Set(collect(f.input({ seed: 2, maxHits: 20_000 })).hits.map((h) => h.identity))
    const mine = new Set(hits.slice(0, 20_000).map((h) => h.identity))
    const shared = [...other].filter((x) => mine.has(x) && !x.startsWith('ipua:'))
    expect(shared.length).toBeLessThan(other.size * 0.05)
  }, 120_000)

  it('puts several identities behind one address: households, offices and carrier NAT', () => {
    const byAddress = new Map<string, Set<string>>()
    for (const { request, attribution } of seen) {
      const a = addressOf(request)
      if (!byAddress.has(a)) byAddress.set(a, new Set())
      byAddress.get(a)!.add(attribution.identity)
    }
    const sizes = [...byAddress.values()].map((s) => s.size)
    const shared = sizes.filter((n) => n >= 2).length
    expect(shared).toBeGreaterThan(sizes.length * 0.2)
    expect(Math.max(...sizes)).toBeGreaterThan(50)
    // one browser keeps its cookie identity across addresses (movers)
    const addressesOf = new Map<string, Set<string>>()
    for (const { request, attribution } of seen) {
      if (!attribution.identity.startsWith('amid:')) continue
      if (!addressesOf.has(attribution.identity)) addressesOf.set(attribution.identity, new Set())
      addressesOf.get(attribution.identity)!.add(addressOf(request))
    }
    expect([...addressesOf.values()].filter((s) => s.size >= 2).length).toBeGreaterThan(100)
  })

  it('counts browsers that refuse the cookie by address and user agent, one identity for all their hits there', () => {
    const refusers = seen.filter((s) => s.request.headers.cookie === undefined && /[&/]amc=/.test(s.request.path))
    expect(refusers.length).toBeGreaterThan(1000)
    for (const { attribution } of refusers) expect(attribution.identity).toMatch(/^ipua:/)
    const ipuaHits = hits.filter((h) => h.identity.startsWith('ipua:'))
    expect(ipuaHits.length).toBeGreaterThan(hits.length * 0.03)
    const perIdentity = new Map<string, number>()
    for (const h of ipuaHits) perIdentity.set(h.identity, (perIdentity.get(h.identity) ?? 0) + 1)
    expect([...perIdentity.values()].some((n) => n > 1)).toBe(true)
  })

  it('sends devices with several ids, linked on the hit, and the same device with different id sets', () => {
    const withLinks = hits.filter((h) => h.links !== undefined && h.links.length > 0)
    expect(withLinks.length).toBeGreaterThan(hits.length * 0.1)
    // union of the ids that arrived together, then devices seen under more than one identity text
    const parent = new Map<string, string>()
    const find = (x: string): string => {
      let r = x
      while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!
      return r
    }
    for (const h of withLinks) for (const l of h.links!) if (find(l) !== find(h.identity)) parent.set(find(l), find(h.identity))
    const textsOf = new Map<string, Set<string>>()
    for (const h of hits) {
      if (!/^(idfa|caid|oaid|androidid|imei):/.test(h.identity)) continue
      const root = find(h.identity)
      if (!textsOf.has(root)) textsOf.set(root, new Set())
      textsOf.get(root)!.add(`${h.identity}|${(h.links ?? []).join(',')}`)
    }
    expect([...textsOf.values()].filter((s) => s.size >= 2).length).toBeGreaterThan(200)
    expect(hits.some((h) => h.identity.startsWith('caid:') && h.links === undefined)).toBe(true)
    expect(hits.some((h) => h.identity.startsWith('idfa:') && h.links?.some((l) => l.startsWith('caid:')))).toBe(true)
  })

  it('makes prefetches that are not counted: the planned impressions are the hits', () => {
    const sim = simulate(f.input())
    for (const chunk of sim.chunks) void chunk
    expect(sim.summary.prefetches).toBeGreaterThan(200)
    const count = new Map<string, number>()
    for (const h of hits) if (h.kind === KIND.impression) count.set(`${h.spot}|${dateIn(ZONE, h.ts)}`, (count.get(`${h.spot}|${dateIn(ZONE, h.ts)}`) ?? 0) + 1)
    for (const s of spots) for (const d of datesOf(FROM, TO)) expect(count.get(`${s}|${d}`)).toBe(DAILY)
    expect(sim.summary.natGroups).toBeGreaterThan(1000)
    expect(sim.summary.clients.refusers).toBeGreaterThan(0)
    expect(sim.summary.clients.apps).toBeGreaterThan(0)
    expect(sim.summary.clients.servers).toBeGreaterThan(0)
  }, 120_000)

  it('classes bots and data-centre hits as a fresh Attributor does, by user agent and by the ISP of the address', () => {
    // (another identity key: address identities differ, every other answer is the request's own)
    const fresh = new Attributor(undefined, { identityKey: new Uint8Array(32).fill(7) })
    const ivtOf = new Map<string, Set<number>>()
    for (const h of hits) {
      if (!ivtOf.has(h.identity)) ivtOf.set(h.identity, new Set())
      ivtOf.get(h.identity)!.add(h.ivt)
    }
    let bots = 0
    let datacentres = 0
    // every 7th request, and every one the truth marks invalid
    seen.forEach(({ request }, i) => {
      const ua = request.headers['user-agent'] ?? ''
      const isp = fresh.locator.locate(addressOf(request)).isp
      const bot = isbot(ua)
      const dc = !bot && isDataCentreIsp(isp)
      if (i % 7 !== 0 && !bot && !dc) return
      const again = fresh.attribute(request)!
      expect(again.ivt).toBe(bot ? IVT.bot : dc ? IVT.datacenter : IVT.valid)
      if (!again.identity.startsWith('ipua:')) expect(ivtOf.get(again.identity) ?? new Set([again.ivt])).toContain(again.ivt)
      if (bot) bots++
      if (dc) datacentres++
    })
    expect(bots).toBeGreaterThan(50)
    expect(datacentres).toBeGreaterThan(50)
    const impressions = hits.filter((h) => h.kind === KIND.impression)
    // (two of the four spots are phone-only: no declared bots there)
    expect(impressions.filter((h) => h.ivt === IVT.bot).length / impressions.length).toBeGreaterThan(0.005)
    expect(impressions.filter((h) => h.ivt === IVT.datacenter).length / impressions.length).toBeGreaterThan(0.005)
  })

  it("leans a spot's reached panel persons to its media: a gender index clearly off 100 where the media skews, near 100 where it does not", () => {
    const panel = f.panel!
    const tag = (name: string) => panel.tagIds.indexOf(name)
    const has = (p: number, t: number) => (panel.tags[p * panel.tagBytes + (t >> 3)]! & (1 << (t & 7))) !== 0
    const female = tag('female')
    const male = tag('male')
    let all = 0
    let allFemale = 0
    let allMale = 0
    for (let p = 0; p < panel.size; p++) {
      const w = panel.units[p]!
      all += w
      if (has(p, female)) allFemale += w
      if (has(p, male)) allMale += w
    }
    const personOf = personsOfHits(hits, panel)
    const index = (spot: number, t: number, base: number): number => {
      const persons = new Set<number>()
      for (const h of hits) {
        if (h.spot !== spot || h.kind !== KIND.impression) continue
        const person = personOf(h)
        if (person !== undefined) persons.add(person)
      }
      let w = 0
      let wt = 0
      for (const p of persons) (w += panel.units[p]!, wt += has(p, t) ? panel.units[p]! : 0)
      expect(persons.size).toBeGreaterThan(100)
      return ((wt / w) / (base / all)) * 100
    }
    const [neutral, beauty, sports] = spots
    expect(index(beauty!, female, allFemale)).toBeGreaterThan(130)
    expect(index(sports!, male, allMale)).toBeGreaterThan(130)
    expect(index(neutral!, female, allFemale)).toBeGreaterThan(88)
    expect(index(neutral!, female, allFemale)).toBeLessThan(112)
  })

  it('shows the same lean in the engine\'s audience report once ingested: the beauty spot\'s women index clearly above 100, the neutral spot\'s near 100', async () => {
    for (let at = 0; at < hits.length; at += 50_000) await f.t.engine.measure.ingest.add(hits.slice(at, at + 50_000))
    const r = await f.t.get(endpoints['reports.audience_show'].path, { campaign_id: f.campaignId, date: TO, by_position: 'spot', type_id: 'gender', metrics: 'idx' })
    expect(r.status).toBe(200)
    type Item = { attributes: Record<string, string>; metrics: Record<string, number> }
    const idx = (spot: number, tag: string) => (r.body.items as Item[]).find((i) => i.attributes.spot_id === String(spot) && i.attributes.tag_id === tag)!.metrics.uim_idx!
    const [neutral, beauty, sports] = spots
    expect(idx(beauty!, 'female')).toBeGreaterThan(130)
    expect(idx(sports!, 'male')).toBeGreaterThan(130)
    expect(idx(neutral!, 'female')).toBeGreaterThan(85)
    expect(idx(neutral!, 'female')).toBeLessThan(115)
  }, 120_000)
})
