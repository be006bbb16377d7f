/**
 * A campaign of 2025-01-05..31 on an engine with an in-memory event log, three spots (Weibo news,
 * Weibo video, Youku home) and its linked panel, at 2025-01-10: the history the kept-report
 * scenarios (kept answers, kept censuses across starts) apply their steps to.
 */
import { expect } from 'vitest'
import { endpoints } from '../../engine/contract/endpoints'
import type { EngineOptions } from '../../engine/index'
import { MemoryEventLog } from '../../engine/measure/event-log'
import { makeEngine, seededRandom, type TestEngine } from './make-engine'

const P = (id: keyof typeof endpoints) => endpoints[id].path

export interface ReportWorld { t: TestEngine; log: MemoryEventLog; cid: string; panel: string; spots: string[] }

/** The campaign `name` and its spots on a new engine (`engine`: more options of it). */
export async function reportWorld(name: string, engine: Partial<EngineOptions> = {}): Promise<ReportWorld> {
  const log = new MemoryEventLog()
  const t = await makeEngine({ today: '2025-01-05', engine: { eventLog: log, random: seededRandom(3), ...engine } })
  const c = await t.post(P('campaigns.create'), { campaign_name: name, start_date: '2025-01-05', end_date: '2025-01-31', platform: 'pm' })
  expect(c.status, c.raw.body).toBe(200)
  t.clock.advance(5 * 86_400_000)
  t.token = await t.login()
  const cid = String(c.body.campaign_id)
  const panel = (await t.get(P('campaigns.show'), { campaign_id: cid })).body.linked_panels[0] as string
  const spots: string[] = []
  for (const [pub, ch] of [['Weibo', 'news'], ['Weibo', 'video'], ['Youku', 'home']] as const) spots.push(await addSpot(t, cid, pub, ch))
  return { t, log, cid, panel, spots }
}

/** A spot of `cid` (publisher `pub`, channel `ch`, counting data-centre hits), its id. */
export async function addSpot(t: TestEngine, cid: string, pub: string, ch: string): Promise<string> {
  const s = await t.post(P('campaigns.create_spot'), { campaign_id: cid, publisher_name: pub, channel_name: ch, placement_name: 'top', dangerous_source_filtration: 0 })
  expect(s.status, s.raw.body).toBe(200)
  return String(s.body.spot_id)
}

/** Imports NDJSON `lines` (events, or persons of the world's panel: `persons`), each of them. */
export async function importLines(w: ReportWorld, what: 'events' | 'persons', lines: readonly string[]): Promise<void> {
  const [path, query] = what === 'events' ? [P('events.import'), { format: 'ndjson' }] : [P('panels.persons_import'), { panel_id: w.panel, format: 'ndjson', mode: 'replace' }]
  const r = await w.t.engine.handle({ method: 'POST', path, query: { access_token: w.t.token, ...query }, body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } })
  expect(JSON.parse(r.body).imported, r.body.slice(0, 300)).toBe(lines.length)
}
