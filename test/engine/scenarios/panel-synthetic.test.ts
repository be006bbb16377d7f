// docs/panel.md "Synthetic panels": a fresh install answers reach and audience of
// a built-in panel from its seeded synthetic population, labelled so; a panel the user emptied is
// refused with panel_empty. The truth is the generator's persons of the panel's seed (the
// definition of the synthetic population) and the hits this test sent, counted by plain loops.
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { generatePersons } from '../../../engine/measure/panel/generate'
import type { PersonRecord } from '../../../engine/measure/panel/person'
import { buildRegions } from '../../../engine/reference/regions'
import { makeEngine, type Reply, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

const P = (id: keyof typeof endpoints) => endpoints[id].path
const GLOBAL = '000000000000000000000000'
const DAY = '2025-01-10'

/** FNV-1a of the panel id: the synthetic population's seed (docs/panel.md). */
function seedOf(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

interface Sent { person: PersonRecord | null; platform: 'pc' | 'mb'; kind: 'impression' | 'click' }

let t: TestEngine
let cid = ''
let panelId = ''
let persons: PersonRecord[] = []
const sent: Sent[] = []

async function importEvents(lines: object[]): Promise<void> {
  const r = await t.engine.handle({
    method: 'POST', path: P('events.import'), query: { access_token: t.token, format: 'ndjson' },
    body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' },
  })
  const job = JSON.parse(r.body)
  expect(job.imported, r.body.slice(0, 500)).toBe(lines.length)
}

const ask = (id: keyof typeof endpoints, q: Record<string, string>): Promise<Reply> => t.get(P(id), { campaign_id: cid, date: DAY, ...q })

beforeAll(async () => {
  t = await makeEngine({ today: DAY })
  const c = await t.post(P('campaigns.create'), { campaign_name: 'synthetic', start_date: DAY, end_date: '2025-01-31', platform: 'pm' })
  expect(c.status, c.raw.body).toBe(200)
  cid = String(c.body.campaign_id)
  panelId = (await t.get(P('campaigns.show'), { campaign_id: cid })).body.linked_panels[0]
  const s = await t.post(P('campaigns.create_spot'), { campaign_id: cid, publisher_name: 'Weibo', channel_name: 'feed', placement_name: 'top', dangerous_source_filtration: 0 })
  expect(s.status, s.raw.body).toBe(200)
  const spotId = String(s.body.spot_id)
  persons = generatePersons(buildRegions(), 20_000, seedOf(panelId))
  // Hits of 400 synthetic persons' devices and of 600 identities of nobody, today before noon.
  const rng = prng(24)
  const lines: object[] = []
  const hit = (identity: string, platform: 'pc' | 'mb', kind: Sent['kind'], person: PersonRecord | null) => {
    lines.push({ type: kind, ts: `${DAY}T${String(8 + Math.floor(rng() * 3)).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00+08:00`, campaign_id: cid, spot_id: spotId, identity, platform })
    sent.push({ person, platform, kind })
  }
  for (let i = 0; i < 400; i++) {
    const person = persons[i * 37]!
    const d = person.devices[0]!
    for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) hit(d.device, d.platform, 'impression', person)
    if (i % 10 === 0) hit(d.device, d.platform, 'click', person)
  }
  for (let i = 0; i < 600; i++) hit(i % 3 === 0 ? `amid:${(i + 1).toString(16).padStart(32, '0')}` : `idfa:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, i % 3 === 0 ? 'pc' : 'mb', 'impression', null)
  await importEvents(lines)
})

const weightOf = (list: Iterable<PersonRecord>) => [...list].reduce((s, p) => s + p.weight, 0)

describe('a fresh install (no persons anywhere)', () => {
  it('answers reach/show from the synthetic population, with integer universes and the panel labelled synthetic', async () => {
    const r = await ask('reports.reach_show', { platform: 'pm', by_region: 'level0' })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body.panel).toMatchObject({ panel_id: panelId, persons: 20_000, synthetic: true })
    const global = r.body.items.find((i: { attributes: { region_id: string } }) => i.attributes.region_id === GLOBAL)
    expect(global.attributes.universe).toBe(Math.round(weightOf(persons.filter((p) => p.devices.length > 0))))
    const reached = new Set(sent.filter((x) => x.person && x.kind === 'impression').map((x) => x.person))
    expect(global.metrics.rch_spl_p01).toBe(reached.size)
    for (const item of r.body.items) expect(Number.isInteger(item.attributes.universe)).toBe(true)
    // the projection is calibrated to the census: the global row projects every impression counted
    expect(Math.abs(global.metrics.imp_acc - sent.filter((x) => x.kind === 'impression').length)).toBeLessThanOrEqual(1)
  })

  it('answers audience/show_overview with rows and their bases, audience/show with a row per tag', async () => {
    const o = await ask('reports.audience_show_overview', {})
    expect(o.status, o.raw.body).toBe(200)
    expect(o.body.panel).toMatchObject({ panel_id: panelId, synthetic: true })
    expect(o.body.items).toHaveLength(1)
    const exposed = new Set(sent.filter((x) => x.person && x.kind === 'impression').map((x) => x.person))
    const clickers = new Set(sent.filter((x) => x.person && x.kind === 'click').map((x) => x.person))
    expect(o.body.items[0].base).toEqual({ uim: exposed.size, ucl: clickers.size })
    expect(o.body.items[0].metrics.uim_spl).toBe(exposed.size)
    const a = await ask('reports.audience_show', { type_id: 'gender' })
    expect(a.body.items.map((i: { attributes: { tag_id: string } }) => i.attributes.tag_id)).toEqual(['male', 'female'])
  })

  it('answers basic/show with integer universes (the synthetic persons with a device of the platform) and says so in panel', async () => {
    for (const platform of ['pc', 'mb', 'pm'] as const) {
      const r = await ask('reports.basic_show', { platform, by_region: 'level0' })
      expect(r.body.panel).toEqual({ panel_id: panelId, persons: 20_000, synthetic: true })
      const want = Math.round(weightOf(persons.filter((p) => p.devices.some((d) => platform === 'pm' || d.platform === platform))))
      const global = r.body.items.find((i: { attributes: { region_id: string } }) => i.attributes.region_id === GLOBAL)
      expect(global.attributes.universe).toBe(want)
    }
  })

  it('says synthetic in the panel summary', async () => {
    const s = await t.get(P('panels.persons_summary'), { panel_id: panelId })
    expect(s.body).toMatchObject({ panel_id: panelId, synthetic: true, persons: 20_000 })
  })
})

describe('a panel the user emptied', () => {
  it('refuses reach, audience and target reports with panel_empty naming the panel; basic overall rows carry universe 0', async () => {
    const emptied = await t.engine.handle({
      method: 'POST', path: P('panels.persons_import'), query: { access_token: t.token, panel_id: panelId, format: 'ndjson', mode: 'replace' },
      body: '', headers: { 'content-type': 'application/x-ndjson' },
    })
    expect(emptied.status, emptied.body).toBe(200)
    for (const [id, q] of [['reports.reach_show', { platform: 'pm' }], ['reports.audience_show_overview', {}], ['reports.audience_show', {}], ['reports.basic_show', { platform: 'pm', by_audience: 'target' }]] as const) {
      const r = await ask(id, q)
      expect(r.status, `${id} ${r.raw.body}`).toBe(409)
      expect(r.body.error).toBe('panel_empty')
      expect(r.body.panel_id).toBe(panelId)
      expect(r.body.error_description).toContain(`POST /local/v1/panels/persons/import?panel_id=${panelId}`)
    }
    const b = await ask('reports.basic_show', { platform: 'pm' })
    expect(b.status).toBe(200)
    expect(b.body.panel).toEqual({ panel_id: panelId, persons: 0, synthetic: false })
    for (const item of b.body.items) expect(item.attributes.universe).toBe(0)
    expect((await t.get(P('panels.persons_summary'), { panel_id: panelId })).body).toMatchObject({ synthetic: false, persons: 0 })
  })

  it('answers again from stored persons once a panel is generated', async () => {
    const g = await t.post(P('panels.generate'), { panel_id: panelId, persons: 500, seed: 3 })
    expect(g.status, g.raw.body).toBe(200)
    const r = await ask('reports.reach_show', { platform: 'pm' })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body.panel).toMatchObject({ panel_id: panelId, persons: 500, synthetic: false })
    expect((await t.get(P('panels.persons_summary'), { panel_id: panelId })).body).toMatchObject({ synthetic: false, persons: 500 })
  })
})
