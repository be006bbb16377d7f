// docs/measurement.md "Kept answer text": basic/show keeps its census with the items text of its
// last answer and each cell's item text, reused while no cell changed. Whatever was asked before,
// an answer must be the one an engine that was never asked anything gives on the same history.
// Engine A is asked basic/show specs (overall and stable audiences, every position, region levels,
// metrics, with_null, orders, platforms, filtrations), shuffled, between rounds of events (in and
// out of the window, late ones, clicks, new cells, mobile SDKs, a declared bot, links of two
// devices), panel imports (weights of other decimals: the same units with another unit), spot
// writes (a spot moved to another publisher, its filtration changed, a spot added); each answer is
// compared byte for byte with a fresh engine's, given the history up to that step and asked
// nothing before; then A starts again from its storage and answers as before.
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { makeEngine, seededRandom } from '../../helpers/make-engine'
import { addSpot, importLines, reportWorld, type ReportWorld } from '../../helpers/report-world'
import { prng } from '../../helpers/prng'

const P = (id: keyof typeof endpoints) => endpoints[id].path
const HOMES = ['000000000000001156440300', '000000000000001156110000', '000000000000001156310000']

type Platform = 'pc' | 'mb'
interface Person { person_id: string; weight: number; home_region: string; tags: string[]; devices: { device: string; platform: Platform }[] }
type Step =
  | { persons: Person[] }
  | { events: string[] }
  | { spot: Record<string, string> }
  | { newSpot: true }

const pcDev = (i: number) => `amid:${(0xa0000 + i).toString(16).padStart(32, '0')}`
const mbDev = (i: number) => `idfa:10000000-0000-4000-8000-${String(i).padStart(12, '0')}`

/** Persons 0..n-1 with weights `w(i)` (as written in the import). */
const persons = (n: number, w: (i: number) => number): Person[] =>
  Array.from({ length: n }, (_, i) => ({
    person_id: `p${i}`, weight: w(i), home_region: HOMES[i % 3]!, tags: [i % 2 ? 'male' : 'female'],
    devices: i % 2 ? [{ device: mbDev(i), platform: 'mb' }] : [{ device: pcDev(i), platform: 'pc' }],
  }))

function history(spots: string[], cid: string, seed: number): Step[] {
  const rng = prng(seed)
  const steps: Step[] = [{ persons: persons(30, (i) => 1.5 + (i % 4)) }]
  const event = (spot: string, identity: string, platform: Platform, day: number, kind = 'impression') =>
    JSON.stringify({
      type: kind, ts: `2025-01-${String(day).padStart(2, '0')}T${String(Math.floor(rng() * 24)).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00+08:00`, campaign_id: cid, spot_id: spot, identity, platform,
      ip: `${[58, 61, 101][Math.floor(rng() * 3)]}.${Math.floor(rng() * 250)}.1.${Math.floor(rng() * 250)}`, ...(platform === 'mb' ? { sdk: ['mm', 'mz', 'none'][Math.floor(rng() * 3)] } : {}),
    })
  const batch = (n: number, days: [number, number], spotList = spots) =>
    Array.from({ length: n }, () => {
      const i = Math.floor(rng() * 40)
      const platform: Platform = i % 2 ? 'mb' : 'pc'
      return event(spotList[Math.floor(rng() * spotList.length)]!, platform === 'pc' ? pcDev(i) : mbDev(i), platform, days[0] + Math.floor(rng() * (days[1] - days[0] + 1)), rng() < 0.2 ? 'click' : 'impression')
    })
  for (let round = 0; round < 4; round++) {
    steps.push({ events: batch(40, [5, 10]) })
    steps.push({ events: batch(1, [9, 10]) }, { events: batch(2, [5, 10]) })
    // after the window of a report of the 7th, and a late one inside it
    steps.push({ events: batch(3, [8, 10]) }, { events: batch(1, [5, 6]) })
    // the same units with another unit: 1.5 -> 15 (a tenth), and back
    if (round === 0) steps.push({ persons: persons(30, (i) => 15 + (i % 4) * 10) })
    if (round === 1) steps.push({ spot: { spot_id: spots[1]!, publisher_name: 'Youku' } })
    if (round === 1) steps.push({ persons: persons(30, (i) => 1.5 + (i % 4)) })
    if (round === 2) steps.push({ spot: { spot_id: spots[0]!, dangerous_source_filtration: '1' } }, { newSpot: true })
    if (round === 2) steps.push({ persons: persons(34, (i) => 1.25 + (i % 4)) })
    // two devices of one person linked (the later one's hits counted under the earlier's), and a
    // declared bot's hits
    if (round === 1) steps.push({ events: [event(spots[0]!, `${mbDev(3)}|${mbDev(5)}`, 'mb', 9)] })
    if (round === 2) steps.push({ events: [event(spots[2]!, `${mbDev(11)}|${mbDev(13)}|${mbDev(37)}`, 'mb', 7)] })
    if (round === 2) steps.push({ events: Array.from({ length: 3 }, () => JSON.stringify({ ...JSON.parse(event(spots[1]!, pcDev(20), 'pc', 8)), user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })) })
    // a frequency run: abnormal impressions of one identity
    if (round === 3) steps.push({ events: Array.from({ length: 40 }, (_, n) => JSON.stringify({ type: 'impression', ts: `2025-01-09T15:00:${String(n).padStart(2, '0')}+08:00`, campaign_id: cid, spot_id: spots[n % 2], identity: pcDev(8), platform: 'pc' })) })
  }
  return steps
}

type World = ReportWorld

const world = () => reportWorld('kept basic')

async function apply(w: World, step: Step): Promise<void> {
  if ('events' in step) {
    await importLines(w, 'events', step.events)
  } else if ('persons' in step) {
    await importLines(w, 'persons', step.persons.map((p) => JSON.stringify(p)))
  } else if ('spot' in step) {
    const r = await w.t.post(P('campaigns.update_spot'), { campaign_id: w.cid, ...step.spot })
    expect(r.status, r.raw.body).toBe(200)
  } else {
    w.spots.push(await addSpot(w.t, w.cid, 'Tencent', 'sports'))
  }
}

type Spec = Record<string, string>

function specs(): Spec[] {
  const out: Spec[] = []
  for (const date of ['2025-01-07', '2025-01-10']) for (const by_position of ['campaign', 'publisher', 'spot']) for (const by_region of ['level0', 'level1', 'level2']) {
    out.push({ date, by_position, by_region, platform: 'pm', metrics: 'all' })
    out.push({ date, by_position, by_region, platform: 'pc', metrics: 'acc', with_null: '1' })
    out.push({ date, by_position, by_region, platform: 'mb', metrics: 'avg_day', order_desc: 'uim_avg_day' })
    out.push({ date, by_position, by_region, platform: 'pm', metrics: 'acc', by_audience: 'stable', filtration_type: 'totalnet' })
    out.push({ date, by_position, by_region, platform: 'pm', metrics: 'acc_hrs', order_asc: 'region_id' })
  }
  for (const sdk of ['mm', 'mz', 'all']) out.push({ date: '2025-01-10', by_position: 'publisher', by_region: 'level1', platform: 'mb', metrics: 'acc', sdk })
  for (const filtration_type of ['net', 'totalnet']) out.push({ date: '2025-01-09', by_position: 'spot', by_region: 'level2', platform: 'pm', metrics: 'day', filtration_type })
  return out
}

const ask = (w: World, q: Spec) => w.t.get(P('reports.basic_show'), { campaign_id: w.cid, ...q })

describe('kept basic/show answers equal a fresh engine\'s', () => {
  it.each([21, 22])('after rounds of hits, panel imports, spot writes, asked in shuffled orders (seed %i)', async (seed) => {
    const a = await world()
    const steps = history(a.spots, a.cid, seed)
    const rng = prng(seed + 100)
    const all = specs()
    const seen: { n: number; asked: Spec[]; got: string[] }[] = []
    for (const [n, step] of steps.entries()) {
      await apply(a, step)
      const asked = all.map((s) => [rng(), s] as const).sort((x, y) => x[0] - y[0]).map(([, s]) => s).slice(0, 30)
      const got: string[] = []
      for (const q of asked) {
        const r = await ask(a, q)
        expect(r.status, `${JSON.stringify(q)}: ${r.raw.body}`).toBe(200)
        got.push(r.raw.body)
      }
      seen.push({ n: n + 1, asked, got })
    }
    const bad: string[] = []
    for (const x of seen) {
      const b = await world()
      for (const step of steps.slice(0, x.n)) await apply(b, step)
      for (const [i, q] of x.asked.entries()) {
        const rb = await ask(b, q)
        if (rb.raw.body !== x.got[i]) bad.push(`after step ${x.n - 1}: ${JSON.stringify(q)}\n  kept:  ${x.got[i]!.slice(0, 400)}\n  fresh: ${rb.raw.body.slice(0, 400)}`)
      }
    }
    expect(bad, bad.slice(0, 3).join('\n')).toEqual([])
    // the answers carry counts and universes: the test asks something real
    expect(seen.some((x) => x.got.some((s) => /"imp_acc":[1-9]/.test(s) && /"universe":[1-9]/.test(s)))).toBe(true)
    // a start from A's storage and log answers as A did at the end
    const last = seen.at(-1)!
    const again: World = { ...a, t: await makeEngine({ today: '2025-01-10', storage: a.t.storage, engine: { eventLog: a.log, random: seededRandom(9) } }) }
    for (const [i, q] of last.asked.entries()) expect((await ask(again, q)).raw.body, `${JSON.stringify(q)} after a restart`).toBe(last.got[i])
  }, 300_000)
})
