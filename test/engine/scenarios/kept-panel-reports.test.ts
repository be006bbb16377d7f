// docs/measurement.md "Kept panel counts": the panel reports keep results between reports (per
// copy of the panel events, per person-cells result, per factors). Whatever was asked before, and
// in whatever order, an answer must be the one an engine that was never asked anything gives on
// the same history. Engine A is asked many specs, shuffled, between rounds of events (panel
// persons' and others', in and out of the windows), panel imports (merge and replace), links of
// devices (two panel persons', a panel person's and another identity's) and a rebuild. What A
// answers after each step is compared byte for byte with what a fresh engine, given the history up
// to that step and asked nothing before, answers; then A starts again from its storage and
// answers the same.
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { MemoryEventLog } from '../../../engine/measure/event-log'
import { makeEngine, seededRandom, type TestEngine } from '../../helpers/make-engine'
import { prng } from '../../helpers/prng'

const P = (id: keyof typeof endpoints) => endpoints[id].path
const TODAY = '2025-01-10'
const HOMES = ['000000000000001156440300', '000000000000001156110000']

type Platform = 'pc' | 'mb'
interface Person { person_id: string; weight: number; home_region: string; tags: string[]; devices: { device: string; platform: Platform }[] }
type Step = { persons: Person[]; mode: 'merge' | 'replace' } | { events: string[] } | { rebuild: true }

const pcDev = (i: number) => `amid:${(0xa0000 + i).toString(16).padStart(32, '0')}`
const mbDev = (i: number) => `idfa:10000000-0000-4000-8000-${String(i).padStart(12, '0')}`

function person(i: number, rng: () => number): Person {
  const devices: Person['devices'] = []
  if (i % 3 !== 1) devices.push({ device: pcDev(i), platform: 'pc' })
  if (i % 3 !== 0) devices.push({ device: mbDev(i), platform: 'mb' })
  const tags = [i % 2 ? 'male' : 'female', ['18-24Y', '25-29Y', '35-39Y'][i % 3]!]
  return { person_id: `p${i}`, weight: 20 + Math.floor(rng() * 80) + rng(), home_region: HOMES[i % 2]!, tags, devices }
}

/** The history both engines receive: panel imports and event batches, made once from a seed. */
function history(spots: string[], cid: string, seed: number): Step[] {
  const rng = prng(seed)
  const steps: Step[] = []
  steps.push({ persons: Array.from({ length: 40 }, (_, i) => person(i, rng)), mode: 'replace' })
  const event = (spot: string, identity: string, platform: Platform, day: number, kind = 'impression') =>
    JSON.stringify({ type: kind, ts: `2025-01-${String(day).padStart(2, '0')}T${String(8 + Math.floor(rng() * 12)).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00+08:00`, campaign_id: cid, spot_id: spot, identity, platform })
  for (let round = 0; round < 6; round++) {
    const events: string[] = []
    for (let n = 0; n < 30; n++) {
      const i = Math.floor(rng() * 44) // 40-43: not (yet) panel persons
      const platform: Platform = i % 3 === 0 ? 'pc' : i % 3 === 1 ? 'mb' : rng() < 0.5 ? 'pc' : 'mb'
      const day = 5 + Math.floor(rng() * 6) // 5..10: some after the earlier cut-off
      events.push(event(spots[Math.floor(rng() * spots.length)]!, platform === 'pc' ? pcDev(i) : mbDev(i), platform, day, rng() < 0.15 ? 'click' : 'impression'))
    }
    for (let n = 0; n < 20; n++) events.push(event(spots[n % spots.length]!, `idfa:20000000-0000-4000-8000-${String(round * 100 + n).padStart(12, '0')}`, n % 2 ? 'mb' : 'pc', 5 + (n % 6)))
    // most in one import; then panel persons' hits one, two and three at a time, each answered
    // from the results kept before it (an import of many renumbers the partition's events)
    const panelHits = events.filter((e) => !e.includes('idfa:2')).slice(0, 6)
    steps.push({ events: events.filter((e) => !panelHits.includes(e)) })
    steps.push({ events: panelHits.slice(0, 1) }, { events: panelHits.slice(1, 3) }, { events: panelHits.slice(3, 6) })
    if (round === 1) steps.push({ persons: [40, 41].map((i) => person(i, rng)).concat([{ ...person(3, rng), weight: 7.25, tags: ['male', '35-39Y'], home_region: HOMES[0]! }]), mode: 'merge' })
    if (round === 2) steps.push({ events: [JSON.stringify({ type: 'impression', ts: '2025-01-09T12:00:00+08:00', campaign_id: cid, spot_id: spots[1], identity: `${mbDev(5)}|${mbDev(8)}`, platform: 'mb' })] })
    // an identity outside the panel, with hits, joined by a panel person's id not seen before,
    // and another joined by one seen before
    if (round === 2) steps.push({ events: [JSON.stringify({ type: 'impression', ts: '2025-01-06T12:00:00+08:00', campaign_id: cid, spot_id: spots[2], identity: `idfa:20000000-0000-4000-8000-${String(200 + 3).padStart(12, '0')}|${mbDev(7)}`, platform: 'mb' })] })
    if (round === 3) steps.push({ events: [JSON.stringify({ type: 'click', ts: '2025-01-08T12:00:00+08:00', campaign_id: cid, spot_id: spots[0], identity: `${mbDev(10)}|idfa:20000000-0000-4000-8000-${String(300 + 5).padStart(12, '0')}`, platform: 'mb' })] })
    // a panel person over the frequency limit: abnormal impressions, counted by totalnet only
    if (round === 2) steps.push({ events: Array.from({ length: 40 }, (_, n) => JSON.stringify({ type: 'impression', ts: `2025-01-09T15:00:${String(n).padStart(2, '0')}+08:00`, campaign_id: cid, spot_id: spots[n % 2], identity: pcDev(9), platform: 'pc' })) })
    if (round === 3) steps.push({ rebuild: true })
    if (round === 3) steps.push({ persons: Array.from({ length: 43 }, (_, i) => person(i, rng)).filter((_, i) => i !== 6), mode: 'replace' })
  }
  return steps
}

interface World { t: TestEngine; log: MemoryEventLog; cid: string; panel: string; spots: string[]; targets: string[] }

async function world(): Promise<World> {
  const log = new MemoryEventLog()
  const t = await makeEngine({ today: '2025-01-05', engine: { eventLog: log, random: seededRandom(3) } })
  const c = await t.post(P('campaigns.create'), { campaign_name: 'kept', start_date: '2025-01-05', end_date: '2025-01-31', platform: 'pm' })
  expect(c.status, c.raw.body).toBe(200)
  t.clock.advance(5 * 86_400_000) // to TODAY: the campaign ran from the 5th
  t.token = await t.login()
  const cid = String(c.body.campaign_id)
  const shown = await t.get(P('campaigns.show'), { campaign_id: cid })
  expect(shown.body.linked_panels, shown.raw.body).toBeDefined()
  const panel = shown.body.linked_panels[0] as string
  const spots: string[] = []
  for (const [pub, ch] of [['Weibo', 'news'], ['Weibo', 'video'], ['Youku', 'home']] as const) {
    const s = await t.post(P('campaigns.create_spot'), { campaign_id: cid, publisher_name: pub, channel_name: ch, placement_name: 'top', dangerous_source_filtration: 0 })
    expect(s.status, s.raw.body).toBe(200)
    spots.push(String(s.body.spot_id))
  }
  return { t, log, cid, panel, spots, targets: [] }
}

async function apply(w: World, step: Step): Promise<void> {
  const h = (path: string, query: Record<string, string>, body: string) =>
    w.t.engine.handle({ method: 'POST', path, query: { access_token: w.t.token, ...query }, body, headers: { 'content-type': 'application/x-ndjson' } })
  if ('rebuild' in step) {
    const r = await w.t.post(P('measurement.rebuild'), {})
    expect(r.status, r.raw.body).toBe(200)
  } else if ('events' in step) {
    if (step.events.length === 0) return
    const r = await h(P('events.import'), { format: 'ndjson' }, step.events.join('\n'))
    expect(JSON.parse(r.body).imported, r.body.slice(0, 300)).toBe(step.events.length)
  } else {
    const r = await h(P('panels.persons_import'), { panel_id: w.panel, format: 'ndjson', mode: step.mode }, step.persons.map((p) => JSON.stringify(p)).join('\n'))
    expect(r.status, r.body).toBe(200)
  }
}

async function addTargets(w: World): Promise<void> {
  for (const tag of ['male', '25-29Y']) {
    const r = await w.t.post(P('campaigns.publish_target'), { campaign_id: w.cid, target_name: tag, tag_id: tag })
    expect(r.status, r.raw.body).toBe(200)
    w.targets.push(String(r.body.target_id))
  }
}

function specs(w: World): [keyof typeof endpoints, Record<string, string>][] {
  const out: [keyof typeof endpoints, Record<string, string>][] = []
  for (const date of ['2025-01-07', TODAY]) {
    for (const platform of ['pc', 'mb', 'pm']) for (const by_position of ['campaign', 'spot']) {
      out.push(['reports.reach_show', { date, platform, by_position, by_region: by_position === 'spot' ? 'level0' : 'level2' }])
      out.push(['reports.reach_show', { date, platform, by_position, by_audience: 'target', target_id: w.targets.join(',') }])
      out.push(['reports.reach_show', { date, platform, by_position: 'publisher', by_audience: 'stable', filtration_type: 'totalnet' }])
      out.push(['reports.basic_show', { date, platform, by_position, by_audience: 'target', target_id: w.targets.join(','), metrics: 'all' }])
    }
    for (const by_position of ['campaign', 'publisher', 'spot']) {
      out.push(['reports.audience_show_overview', { date, by_position }])
      out.push(['reports.audience_show', { date, by_position, type_id: 'gender,age' }])
      out.push(['reports.audience_show', { date, by_position, panel_id: w.panel, type_id: 'gender' }])
    }
  }
  return out
}

const ask = (w: World, [id, q]: [keyof typeof endpoints, Record<string, string>]) => w.t.get(P(id), { campaign_id: w.cid, ...q })

describe('kept panel results answer as a fresh engine does', () => {
  it.each([11, 12, 13])('after rounds of hits, panel imports, links and a rebuild, asked in shuffled orders, and after a restart (seed %i)', async (seed) => {
    const a = await world()
    await addTargets(a)
    const steps = history(a.spots, a.cid, seed)
    const rng = prng(seed + 100)
    const all = specs(a)
    /** A fresh engine given the first `n` steps of the history, and never asked anything. */
    const fresh = async (n: number): Promise<World> => {
      const b = await world()
      expect(b.spots).toEqual(a.spots)
      await addTargets(b)
      for (const step of steps.slice(0, n)) await apply(b, step)
      return b
    }
    const bad: string[] = []
    const compare = async (b: World, asked: [keyof typeof endpoints, Record<string, string>][], got: string[], when: string) => {
      for (const [i, spec] of asked.entries()) {
        const rb = await ask(b, spec)
        expect(rb.status, rb.raw.body).toBe(200)
        if (got[i] !== rb.raw.body) bad.push(`${when}: ${spec[0]} ${JSON.stringify(spec[1])}\n  kept:  ${got[i]!.slice(0, 600)}\n  fresh: ${rb.raw.body.slice(0, 600)}`)
      }
    }
    const seen: { n: number; asked: typeof all; got: string[] }[] = []
    for (const [n, step] of steps.entries()) {
      await apply(a, step)
      // part of the specs, shuffled: what A keeps comes from these; each answer against a fresh engine's
      const asked = all.map((s) => [rng(), s] as const).sort((x, y) => x[0] - y[0]).map(([, s]) => s).slice(0, 40)
      const got: string[] = []
      for (const spec of asked) {
        const r = await ask(a, spec)
        expect(r.status, `${spec[0]} ${JSON.stringify(spec[1])}: ${r.raw.body}`).toBe(200)
        got.push(r.raw.body)
      }
      seen.push({ n: n + 1, asked, got })
    }
    const answers: string[] = []
    for (const spec of all) answers.push((await ask(a, spec)).raw.body)
    // (the fresh engines only once A is done: kept results are the process's, and a fresh engine's
    // would take the place of A's)
    for (const x of seen) await compare(await fresh(x.n), x.asked, x.got, `after step ${x.n - 1}`)
    await compare(await fresh(steps.length), all, answers, 'at the end')
    expect(bad, bad.slice(0, 3).join('\n')).toEqual([])
    // some answers carry persons: the test asks something real
    expect(answers.some((s) => /"rch_spl_p01":[1-9]/.test(s))).toBe(true)
    // a start from A's storage and log answers the same
    const again = await makeEngine({ today: TODAY, storage: a.t.storage, engine: { eventLog: a.log, random: seededRandom(9) } })
    const r: World = { ...a, t: again }
    for (const [i, spec] of all.entries()) expect((await ask(r, spec)).raw.body, `${spec[0]} ${JSON.stringify(spec[1])} after a restart`).toBe(answers[i])
  }, 240_000)
})
