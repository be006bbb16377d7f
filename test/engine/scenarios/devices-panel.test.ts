// docs/attribution.md "Devices" (panels): a device belongs to the panel person owning
// any of its ids, also an id the panel does not list, and also after two devices merge (the lowest
// person index when both have one). The truth is what the test imported: which person owns which id.
import { describe, expect, it } from 'vitest'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

const HOME = '000000000000001156440300'
const CAID_P1 = 'caid:c0ffee00000000000000000000000001'
const IDFA_P2 = 'idfa:1c2d3e4f-0000-4000-8000-00000000abcd'
const PERSONS = [
  { person_id: 'p1', weight: 1000, home_region: HOME, tags: ['male'], devices: [{ device: CAID_P1, platform: 'mb' }] },
  { person_id: 'p2', weight: 3000, home_region: HOME, tags: ['female'], devices: [{ device: IDFA_P2, platform: 'mb' }] },
]

async function post(t: TestEngine, path: string, query: Record<string, string>, lines: unknown[]): Promise<Record<string, unknown>> {
  const r = await t.engine.handle({ method: 'POST', path, query: { access_token: t.token, format: 'ndjson', ...query }, body: lines.map((l) => JSON.stringify(l)).join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(r.status, r.body).toBe(200)
  return JSON.parse(r.body) as Record<string, unknown>
}

/** A campaign of one spot whose panel holds PERSONS, the clock in its window; `hit` makes an import line at a minute of 2025-01-13. */
async function setup() {
  const t = await makeEngine({ today: '2025-01-09' })
  const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Devices', start_date: '2025-01-12', end_date: '2025-01-25', platform: 'pm' })
  const campaign = c.body.campaign_id as string
  const spot = (await t.post('/cms/v1/campaigns/create_spot', { campaign_id: campaign, publisher_name: 'Sina', channel_name: 'news', placement_name: 'top' })).body.spot_id as string
  const panelId = (await t.get('/cms/v1/campaigns/show', { campaign_id: campaign })).body.linked_panels[0] as string
  await post(t, '/local/v1/panels/persons/import', { panel_id: panelId, mode: 'replace' }, PERSONS)
  t.clock.advance(11 * 86_400_000)
  t.token = await t.login()
  const hit = (identity: string, minute: number) => ({ type: 'impression', ts: `2025-01-13T10:${String(minute % 60).padStart(2, '0')}:00+08:00`, campaign_id: campaign, spot_id: spot, identity, platform: 'mb', region_id: HOME })
  return { t, campaign, panelId, hit }
}

describe('panel persons of linked devices', () => {
  it('maps every id of a device to the person owning any of its ids, the lowest when a merge joins two persons\' devices', async () => {
    const { t, campaign, panelId, hit } = await setup()
    const m = t.engine.measure
    const panel = m.panel(panelId)!
    const personOf = (text: string) => m.personOf(panel)[m.identities.get(text)!]
    const owner = (id: string) => panel.personOfDevice.get(id)!

    // an id the panel does not list joins p1's CAID on one hit: the device is p1's
    await post(t, '/local/v1/events/import', {}, [hit('idfa:a1b2c3d4-0000-4000-8000-000000000001', 0)])
    expect(personOf('idfa:a1b2c3d4-0000-4000-8000-000000000001')).toBe(-1)
    await post(t, '/local/v1/events/import', {}, [hit(`idfa:a1b2c3d4-0000-4000-8000-000000000001|${CAID_P1}`, 1)])
    expect(personOf('idfa:a1b2c3d4-0000-4000-8000-000000000001')).toBe(owner(CAID_P1))
    expect(personOf(CAID_P1)).toBe(owner(CAID_P1))

    // p2's IDFA alone, then with p1's CAID: one device of both, counted as the lowest person
    await post(t, '/local/v1/events/import', {}, [hit(IDFA_P2, 2)])
    expect(personOf(IDFA_P2)).toBe(owner(IDFA_P2))
    await post(t, '/local/v1/events/import', {}, [hit(`${IDFA_P2}|${CAID_P1}`, 3)])
    const lowest = Math.min(owner(CAID_P1), owner(IDFA_P2))
    for (const text of [IDFA_P2, CAID_P1, 'idfa:a1b2c3d4-0000-4000-8000-000000000001']) expect(personOf(text), text).toBe(lowest)

    // reach/show's sample: one person reached, the device counted once
    const r = await t.get('/admonitor/v1/reports/reach/show', { campaign_id: campaign, date: '2025-01-20', platform: 'mb', by_position: 'campaign', metrics: 'spl' })
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body.items[0].metrics.rch_spl_p01).toBe(1)
  })

  it('gives the same persons when the map is first made after many identities (the panel\'s devices looked up by text), and extends it', async () => {
    const { t, panelId, hit } = await setup()
    const strangers = Array.from({ length: 40 }, (_, i) => `idfa:5e000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
    const UNLISTED = 'idfa:a1b2c3d4-0000-4000-8000-000000000001'
    // every event before the map is first asked for: strangers, p1's CAID joined by an unlisted id,
    // p2's IDFA alone, then p2's IDFA with p1's CAID (one device of both), a stranger joined to nobody
    await post(t, '/local/v1/events/import', {}, [
      ...strangers.map((s, i) => hit(s, i)),
      hit(`${UNLISTED}|${CAID_P1}`, 41), hit(IDFA_P2, 42), hit(`${IDFA_P2}|${CAID_P1}`, 43), hit(`${strangers[0]}|${strangers[1]}`, 44),
    ])
    const m = t.engine.measure
    const panel = m.panel(panelId)!
    expect(m.identities.size).toBeGreaterThan(panel.personOfDevice.size * 4)
    const personOf = (text: string) => m.personOf(panel)[m.identities.get(text)!]
    const owner = (id: string) => panel.personOfDevice.get(id)!
    const lowest = Math.min(owner(CAID_P1), owner(IDFA_P2))
    for (const text of [IDFA_P2, CAID_P1, UNLISTED]) expect(personOf(text), text).toBe(lowest)
    for (const text of strangers) expect(personOf(text), text).toBe(-1)
    // a new id joining p2's device afterwards maps to the device's person
    const LATER = 'idfa:a1b2c3d4-0000-4000-8000-000000000002'
    await post(t, '/local/v1/events/import', {}, [hit(`${LATER}|${IDFA_P2}`, 45)])
    expect(personOf(LATER)).toBe(lowest)
  })
})
