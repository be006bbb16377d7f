/**
 * The traffic simulator (docs/simulator.md): deterministic, realistic attributed hits for one
 * campaign from its spots' daily plans, produced in chunks for the ingest.
 *
 * ```ts
 * const sim = simulate({ db, campaignId, from, to, seed: 1, timeZone, panel, regions: regionTable() })
 * for (const chunk of sim.chunks) await measure.ingest.add(chunk)
 * sim.summary // impressions, clicks, identities, byDay, ...
 * ```
 */
import { dayNumber } from '../../runtime'
import type { Hit } from '../types'
import { Audience } from './audience'
import { Capping } from './caps'
import { daySlots, scheduleDay } from './day-schedule'
import * as d from './distributions'
import { Emitter } from './emit'
import { SlotFiller, spotTraits } from './fill'
import { Geo } from './geo'
import { simulationKey } from './hash'
import { plan } from './plan'
import { SimRandom } from './random'
import type { Simulation, SimulationInput, SimulationPlan, SimulationSummary } from './types'

export { plan } from './plan'
export { CHUNK_SIZE } from './distributions'
export type { DayTotals, Simulation, SimulationInput, SimulationPlan, SimulationSummary, SpotVolume } from './types'

/** The hits, day by day and hour by hour; the summary is filled in as they are handed out. */
function* run(input: SimulationInput, p: SimulationPlan, summary: SimulationSummary): Generator<Hit[], SimulationSummary> {
  const key = simulationKey(input.seed, input.campaignId)
  const geo = new Geo(input.regions)
  const audience = new Audience(p.pool, key, geo, input.panel)
  summary.panelOversampling = audience.panelOversampling
  const rng = new SimRandom(key ^ 0x7f4a7c15)
  const capping = new Capping(p, audience, new SimRandom(key ^ 0x1b873593))
  const filler = new SlotFiller(audience, geo, rng, p.spots.map(spotTraits), capping)
  const out = new Emitter(p.campaignId, p.spots.map((v) => v.spot_id), audience, summary, input.chunkSize ?? d.CHUNK_SIZE, input.maxHits ?? Infinity)
  const until = input.until ?? Infinity
  for (let day = 0; day < p.days.length && !out.full; day++) {
    capping.startDay(dayNumber(p.days[day]!))
    const slots = daySlots(input.timeZone, dayNumber(p.days[day]!))
    const sched = scheduleDay(p.spots, day, slots, rng, audience)
    let burst = 0
    // the day is scheduled whole, then cut at `until`: the hours before it get their usual share,
    // and the hour it falls in the part before it (until 2026-11-26 that hour was simulated
    // whole: hits stamped up to an hour ahead of now)
    for (let k = 0; k < slots.length && !out.full && slots[k]!.start < until; k++) {
      burst = filler.fill(sched, k, burst)
      summary.capped = filler.capped
      if (slots[k]!.end > until) filler.buf.hideFrom(until)
      const order = filler.buf.order(slots[k]!.start)
      out.prepare(filler.buf, order)
      for (let at = 0; at < order.length && !out.full;) {
        at = out.fill(filler.buf, order, at, day)
        if (out.ready) yield out.take()
      }
    }
  }
  const last = out.take()
  if (last.length > 0) yield last
  summary.done = true
  return summary
}

/**
 * Simulates the campaign's traffic from..to (clamped to its dates). `plan` is known at once;
 * iterate `chunks` (once) to get the hits; `summary` is complete when the iteration ends.
 */
export function simulate(input: SimulationInput): Simulation {
  const p = plan(input)
  const summary: SimulationSummary = {
    impressions: 0, clicks: 0, identities: 0, panelPersons: 0, panelOversampling: 1, capped: 0, days: p.days.length,
    byDay: p.days.map((date) => ({ date, impressions: 0, clicks: 0 })), invalid: { bot: 0, datacenter: 0 }, done: false,
  }
  return { plan: p, summary, chunks: run(input, p, summary) }
}
