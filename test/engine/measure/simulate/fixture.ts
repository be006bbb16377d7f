/**
 * A campaign for the simulator tests, created over the API of an in-memory engine: spots with and
 * without plans, a keyword spot and a generated panel; the database read back from the snapshot.
 */
import { endpoints } from '../../../../engine/contract/endpoints'
import { simulate, type SimulationInput } from '../../../../engine/measure/simulate'
import type { Hit } from '../../../../engine/measure/types'
import type { PanelIndex } from '../../../../engine/measure/panel/types'
import { regionTable } from '../../../../engine/reference/region-table'
import { Db } from '../../../../engine/storage/db'
import { makeEngine, type TestEngine } from '../../../helpers/make-engine'

export const PANEL_ID = 'china-pc-2026'
export const ZONE = 'Asia/Shanghai'

export interface Fixture {
  t: TestEngine
  db: Db
  campaignId: number
  panel: PanelIndex | null
  /** A simulation input for the campaign, its whole date range. */
  input(extra?: Partial<SimulationInput>): SimulationInput
}

export interface FixtureSpot {
  form?: Record<string, string | number>
  /** Plan dates with estimated impressions and clicks (batch_create_spot_with_plan). */
  plan?: { dates: string[]; impressions: number[]; clicks?: number[] }
}

/** A campaign from..to with the given spots; a panel of `persons` persons when asked. */
export async function fixture(from: string, to: string, spots: FixtureSpot[], persons = 0): Promise<Fixture> {
  const t = await makeEngine()
  const created = await t.post(endpoints['campaigns.create'].path, { campaign_name: `simulated ${from}`, start_date: from, end_date: to })
  const campaignId = Number(created.body.campaign_id)
  for (const [i, s] of spots.entries()) {
    const base = { publisher_name: `Publisher ${i % 2}`, channel_name: 'news', placement_name: `spot ${i}`, ...s.form }
    const r = s.plan
      ? await t.postJson(endpoints['campaigns.batch_create_spot_with_plan'].path, {
        campaign_id: campaignId, spots: [{ ...base, add_slot: s.plan.dates, est_impression_day: s.plan.impressions, est_click_day: s.plan.clicks ?? s.plan.dates.map(() => 0) }],
      })
      : await t.post(endpoints['campaigns.create_spot'].path, { campaign_id: campaignId, ...base })
    if (r.status !== 200) throw new Error(`spot ${i}: ${r.raw.body}`)
  }
  if (persons > 0) {
    const g = await t.post(endpoints['panels.generate'].path, { panel_id: PANEL_ID, persons, seed: 1 })
    if (g.status !== 200) throw new Error(`panel: ${g.raw.body}`)
  }
  await t.engine.flush()
  const db = await Db.open(t.storage.snapshot)
  const panel = t.engine.measure.panel(PANEL_ID)
  const input = (extra: Partial<SimulationInput> = {}): SimulationInput => ({ db, campaignId, from, to, seed: 1, timeZone: ZONE, panel, regions: regionTable(), ...extra })
  return { t, db, campaignId, panel, input }
}

/** The dates from..to (inclusive). */
export function datesOf(from: string, to: string): string[] {
  const out: string[] = []
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000) out.push(new Date(d).toISOString().slice(0, 10))
  return out
}

/** Every hit of a simulation, and the sizes of its chunks. */
export function collect(input: SimulationInput): { hits: Hit[]; sizes: number[] } {
  const hits: Hit[] = []
  const sizes: number[] = []
  for (const chunk of simulate(input).chunks) {
    sizes.push(chunk.length)
    for (const h of chunk) hits.push(h)
  }
  return { hits, sizes }
}

/**
 * The panel person of each hit's device, or undefined: a device is every id that arrived together
 * with another on some hit (a CAID-only hit is the device whose IDFA came with that CAID elsewhere).
 */
export function personsOfHits(hits: readonly Hit[], panel: PanelIndex): (h: Hit) => number | undefined {
  const parent = new Map<string, string>()
  const find = (x: string): string => {
    let r = x
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!
    return r
  }
  for (const h of hits) for (const l of h.links ?? []) if (find(l) !== find(h.identity)) parent.set(find(l), find(h.identity))
  const personOfRoot = new Map<string, number>()
  for (const [id, person] of panel.personOfDevice) personOfRoot.set(find(id), person)
  return (h) => personOfRoot.get(find(h.identity))
}
