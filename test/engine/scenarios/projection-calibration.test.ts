// docs/metrics.md "Calibration" and "Bases": a panel whose persons are 10x
// over-represented on PC and 2x on mobile projects, per spot and platform, exactly the census's
// impressions; GRP of PC and mobile follow what each delivered; audience rows say how many persons
// they rest on. The truth is what this test sent, counted by plain loops.
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, type Reply, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

const P = (id: keyof typeof endpoints) => endpoints[id].path
const GLOBAL = '000000000000000000000000'
const DAY = '2025-01-10'
const HOME = '000000000000001156440300' // Shenzhen
const WEIGHT = 50

type Platform = 'pc' | 'mb'
interface Person { person_id: string; weight: number; home_region: string; tags: string[]; devices: { device: string; platform: Platform }[] }
interface Hit { spot: string; identity: string; platform: Platform; kind: 'impression' | 'click'; person: Person | null }

let t: TestEngine
let cid = ''
const spots: string[] = []
const persons: Person[] = []
const hits: Hit[] = []

const ask = (id: keyof typeof endpoints, q: Record<string, string>): Promise<Reply> => t.get(P(id), { campaign_id: cid, date: DAY, ...q })
const census = (spot: string, platform: Platform) => hits.filter((h) => h.kind === 'impression' && h.spot === spot && h.platform === platform).length
const universe = (platform: Platform) => persons.filter((p) => p.devices.some((d) => d.platform === platform)).length * WEIGHT

beforeAll(async () => {
  t = await makeEngine({ today: DAY })
  const c = await t.post(P('campaigns.create'), { campaign_name: 'calibration', start_date: DAY, end_date: '2025-01-31', platform: 'pm' })
  cid = String(c.body.campaign_id)
  const panelId = (await t.get(P('campaigns.show'), { campaign_id: cid })).body.linked_panels[0] as string
  for (const name of ['news', 'video']) {
    const s = await t.post(P('campaigns.create_spot'), { campaign_id: cid, publisher_name: 'Weibo', channel_name: name, placement_name: 'top', dangerous_source_filtration: 0 })
    expect(s.status, s.raw.body).toBe(200)
    spots.push(String(s.body.spot_id))
  }
  // 240 persons: a third with a PC only, a third with a phone only, a third with both.
  for (let i = 0; i < 240; i++) {
    const devices: Person['devices'] = []
    if (i % 3 !== 1) devices.push({ device: `amid:${(0xa0000 + i).toString(16).padStart(32, '0')}`, platform: 'pc' })
    if (i % 3 !== 0) devices.push({ device: `idfa:10000000-0000-4000-8000-${String(i).padStart(12, '0')}`, platform: 'mb' })
    persons.push({ person_id: `p${i}`, weight: WEIGHT, home_region: HOME, tags: [i % 2 === 0 ? 'male' : 'female'], devices })
  }
  const imported = await t.engine.handle({
    method: 'POST', path: P('panels.persons_import'), query: { access_token: t.token, panel_id: panelId, format: 'ndjson', mode: 'replace' },
    body: persons.map((p) => JSON.stringify(p)).join('\n'), headers: { 'content-type': 'application/x-ndjson' },
  })
  expect(JSON.parse(imported.body).imported).toBe(persons.length)
  // Panel persons' impressions (1-3 per device and spot, on about half of the pairs), then as many
  // impressions of other identities as make the panel's raw projection (persons x weight 50) 10x
  // the census on PC and 2x on mobile: census = 5 x (panel PC impressions), 25 x (mobile ones).
  const rng = prng(5)
  for (const spot of spots) {
    const panelImps = { pc: 0, mb: 0 }
    for (const person of persons) for (const d of person.devices) {
      if (rng() < 0.5) continue
      for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) (hits.push({ spot, identity: d.device, platform: d.platform, kind: 'impression', person }), panelImps[d.platform]++)
    }
    for (let n = 0; n < 4 * panelImps.pc; n++) hits.push({ spot, identity: `amid:${(0xb00000 + n).toString(16).padStart(32, '0')}`, platform: 'pc', kind: 'impression', person: null })
    for (let n = 0; n < 24 * panelImps.mb; n++) hits.push({ spot, identity: `idfa:20000000-0000-4000-8000-${String(n).padStart(12, '0')}`, platform: 'mb', kind: 'impression', person: null })
  }
  // exactly two panel persons click on the first spot (and two other identities)
  for (const person of persons.slice(3, 5)) hits.push({ spot: spots[0]!, identity: person.devices[0]!.device, platform: person.devices[0]!.platform, kind: 'click', person })
  for (let n = 0; n < 2; n++) hits.push({ spot: spots[0]!, identity: `idfa:30000000-0000-4000-8000-${String(n).padStart(12, '0')}`, platform: 'mb', kind: 'click', person: null })
  const lines = hits.map((h, i) => JSON.stringify({ type: h.kind, ts: `${DAY}T09:${String(i % 60).padStart(2, '0')}:00+08:00`, campaign_id: cid, spot_id: h.spot, identity: h.identity, platform: h.platform }))
  const r = await t.engine.handle({
    method: 'POST', path: P('events.import'), query: { access_token: t.token, format: 'ndjson' },
    body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' },
  })
  expect(JSON.parse(r.body).imported, r.body.slice(0, 500)).toBe(lines.length)
})

const globalRow = (r: Reply, spot: string) => r.body.items.find((i: { attributes: { region_id: string; spot_id: string } }) => i.attributes.region_id === GLOBAL && i.attributes.spot_id === spot)

describe('projection reconciled with the census', () => {
  it('projects, per spot and platform, the census impressions of the global row within 1', async () => {
    for (const platform of ['pc', 'mb'] as const) {
      const reach = await ask('reports.reach_show', { platform, by_position: 'spot', by_region: 'level0' })
      expect(reach.status, reach.raw.body).toBe(200)
      const basic = await ask('reports.basic_show', { platform, by_position: 'spot', by_region: 'level0' })
      for (const spot of spots) {
        const want = census(spot, platform)
        expect(want).toBeGreaterThan(0)
        expect(globalRow(basic, spot).metrics.imp_acc).toBe(want)
        expect(Math.abs(globalRow(reach, spot).metrics.imp_acc - want), `${platform} spot ${spot}`).toBeLessThanOrEqual(1)
      }
    }
  })

  it('gives PC and mobile GRP in proportion to what each delivered, and reports the factors (1/10 on PC, 1/2 on mobile)', async () => {
    const grp: Record<Platform, number> = { pc: 0, mb: 0 }
    for (const platform of ['pc', 'mb'] as const) {
      const r = await ask('reports.reach_show', { platform, by_region: 'level0' })
      const row = r.body.items.find((i: { attributes: { region_id: string } }) => i.attributes.region_id === GLOBAL)
      expect(row.attributes.universe).toBe(universe(platform))
      const delivered = spots.reduce((s, spot) => s + census(spot, platform), 0)
      grp[platform] = row.metrics.grp_acc
      expect(Math.abs(row.metrics.grp_acc - (100 * delivered) / universe(platform))).toBeLessThanOrEqual(1)
      expect(r.body.panel.calibration[platform]).toBeCloseTo(platform === 'pc' ? 0.1 : 0.5, 5)
    }
    const pm = await ask('reports.reach_show', { platform: 'pm', by_region: 'level0' })
    expect(pm.body.panel.calibration).toEqual({ pc: 0.1, mb: 0.5 })
    const all = hits.filter((h) => h.kind === 'impression').length
    expect(Math.abs(pm.body.items.find((i: { attributes: { region_id: string } }) => i.attributes.region_id === GLOBAL).metrics.imp_acc - all)).toBeLessThanOrEqual(1)
    expect(grp.pc).toBeGreaterThan(0)
  })

  it('caps reach at the universe and keeps the samples unweighted', async () => {
    const r = await ask('reports.reach_show', { platform: 'pm', by_position: 'spot', by_region: 'level0' })
    for (const spot of spots) {
      const row = globalRow(r, spot)
      const reached = new Set(hits.filter((h) => h.kind === 'impression' && h.spot === spot && h.person).map((h) => h.person))
      expect(row.metrics.rch_spl_p01).toBe(reached.size)
      expect(row.metrics.rch_acc_p01).toBeLessThanOrEqual(row.attributes.universe)
    }
  })

  it('stays reconciled as panel persons\' hits come between reports (the kept sums brought up to date)', async () => {
    const round6 = (x: number) => Number(x.toPrecision(6))
    const member = (platform: Platform) => {
      const imps = hits.filter((h) => h.kind === 'impression' && h.platform === platform)
      return round6(imps.length / (imps.filter((h) => h.person).length * WEIGHT))
    }
    for (let round = 0; round < 3; round++) {
      expect((await ask('reports.reach_show', { platform: 'pm', by_region: 'level0' })).status).toBe(200)
      // a few panel persons (PC, mobile and both) see spots again, with other identities
      const more: Hit[] = []
      for (const person of persons.slice(10 + round * 7, 17 + round * 7)) for (const d of person.devices) more.push({ spot: spots[round % 2]!, identity: d.device, platform: d.platform, kind: 'impression', person })
      for (let n = 0; n < 5; n++) more.push({ spot: spots[0]!, identity: `idfa:40000000-0000-4000-8000-${String(round * 10 + n).padStart(12, '0')}`, platform: 'mb', kind: 'impression', person: null })
      const lines = more.map((h) => JSON.stringify({ type: h.kind, ts: `${DAY}T10:00:00+08:00`, campaign_id: cid, spot_id: h.spot, identity: h.identity, platform: h.platform }))
      const r = await t.engine.handle({ method: 'POST', path: P('events.import'), query: { access_token: t.token, format: 'ndjson' }, body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
      expect(JSON.parse(r.body).imported, r.body).toBe(lines.length)
      hits.push(...more)
      const pm = await ask('reports.reach_show', { platform: 'pm', by_position: 'spot', by_region: 'level0' })
      expect(pm.body.panel.calibration, `round ${round}`).toEqual({ pc: member('pc'), mb: member('mb') })
      for (const spot of spots) {
        const want = census(spot, 'pc') + census(spot, 'mb')
        expect(Math.abs(globalRow(pm, spot).metrics.imp_acc - want), `round ${round}, spot ${spot}`).toBeLessThanOrEqual(1)
      }
    }
  })
})

describe('audience bases', () => {
  it('says on each row the persons it rests on: a row resting on 2 clickers says base.ucl 2', async () => {
    const o = await ask('reports.audience_show_overview', { by_position: 'spot' })
    const a = await ask('reports.audience_show', { by_position: 'spot', type_id: 'gender' })
    for (const spot of spots) {
      const exposed = new Set(hits.filter((h) => h.kind === 'impression' && h.spot === spot && h.person).map((h) => h.person)).size
      const clickers = new Set(hits.filter((h) => h.kind === 'click' && h.spot === spot && h.person).map((h) => h.person)).size
      const row = o.body.items.find((i: { attributes: { spot_id: string } }) => i.attributes.spot_id === spot)
      expect(row.base).toEqual({ uim: exposed, ucl: clickers })
      for (const item of a.body.items.filter((i: { attributes: { spot_id: string } }) => i.attributes.spot_id === spot)) expect(item.base).toEqual({ uim: exposed, ucl: clickers })
    }
    expect(o.body.items.find((i: { attributes: { spot_id: string } }) => i.attributes.spot_id === spots[0]).base.ucl).toBe(2)
  })
})
