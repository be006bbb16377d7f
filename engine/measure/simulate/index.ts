/**
 * The traffic simulator (docs/simulator.md): deterministic, realistic hits for one campaign from
 * its spots' daily plans, each the engine's attribution of a simulated client's tracking request,
 * produced in chunks for the ingest.
 *
 * ```ts
 * const sim = simulate({ db, campaignId, from, to, seed: 1, timeZone, panel, regions: regionTable() })
 * for (const chunk of sim.chunks) await measure.ingest.add(chunk)
 * sim.summary // impressions, clicks, identities, clients, natGroups, prefetches, byDay, ...
 * ```
 */
import { dayNumber } from '../../time-zone'
import { Attributor, IDENTITY_KEY_BYTES, RegionLocator } from '../attribute'
import type { Hit } from '../types'
import { readWhole } from '../panel/load'
import { addressSpaceInSlices } from './address-space'
import { Audience } from './audience'
import { Capping } from './caps'
import { daySlots, scheduleDay } from './day-schedule'
import * as d from './distributions'
import { Emitter } from './emit'
import { SlotFiller, spotTraits } from './fill'
import { Geo } from './geo'
import { hash3, simulationKey } from './hash'
import { plan } from './plan'
import { SimRandom } from './random'
import { ClientStates } from './states'
import type { Simulation, SimulationInput, SimulationPlan, SimulationSummary } from './types'

export { plan } from './plan'
export { CHUNK_SIZE } from './distributions'
export type { DayTotals, Simulation, SimulationInput, SimulationPlan, SimulationSummary, SpotVolume } from './types'

/**
 * The simulation's Attributor: the engine's rules over its region table, with a locator cache
 * that holds every address of the simulation (a shared one would lose the live hits' addresses),
 * and the data directory's identity key, else one drawn from the simulation key.
 */
function attributorFor(input: SimulationInput, key: number, addresses: number): Attributor {
  let identityKey = input.identityKey
  if (identityKey === undefined) {
    identityKey = new Uint8Array(IDENTITY_KEY_BYTES)
    for (let i = 0; i < identityKey.length; i++) identityKey[i] = hash3(key, i, 0x6b6579) & 255
  }
  return new Attributor(new RegionLocator(input.regions, { cacheSize: Math.max(1000, 2 * addresses) }), { identityKey })
}

/** The hits, day by day and hour by hour; the summary is filled in as they are handed out. */
function* run(input: SimulationInput, p: SimulationPlan, summary: SimulationSummary): Generator<Hit[], SimulationSummary> {
  const key = simulationKey(input.seed, input.campaignId)
  const geo = new Geo(input.regions)
  // (the address space is built at a process's first simulation, in slices with a pause between two)
  const building = addressSpaceInSlices(input.regions)
  let step = building.next()
  for (; !step.done; step = building.next()) if (input.pauses) yield []
  const space = step.value
  const audience = new Audience(p.pool, key, geo, space, input.panel)
  for (const _ of audience.build()) if (input.pauses) yield []
  summary.panelOversampling = audience.panelOversampling
  const attributor = attributorFor(input, key, audience.clients.addresses.count)
  const states = new ClientStates(audience.clients, attributor, p.campaignId, audience.personOf, input.panel?.size ?? 0, input.onRequest)
  const rng = new SimRandom(key ^ 0x7f4a7c15)
  const capping = new Capping(p, audience, new SimRandom(key ^ 0x1b873593))
  const filler = new SlotFiller(rng, p.spots.map(spotTraits), capping)
  const out = new Emitter(p.campaignId, p.spots.map((v) => v.spot_id), p.spots.map((v) => v.fill), audience.clients, states, key, summary, input.chunkSize ?? d.CHUNK_SIZE, input.maxHits ?? Infinity)
  const until = input.until ?? Infinity
  for (let day = 0; day < p.days.length && !out.full; day++) {
    const dayNo = dayNumber(p.days[day]!)
    capping.startDay(dayNo)
    const slots = daySlots(input.timeZone, dayNo)
    const sched = scheduleDay(p.spots, day, slots, rng, audience)
    let burst = 0
    // the day is scheduled whole, then cut at `until`: the hours before it get their usual share,
    // and the hour it falls in the part before it (no hit is stamped after now)
    for (let k = 0; k < slots.length && !out.full && slots[k]!.start < until; k++) {
      burst = filler.fill(sched, k, burst)
      summary.capped = filler.capped
      if (slots[k]!.end > until) filler.buf.hideFrom(until)
      // (filling an hour and putting its hits in order take up to 0.1 s each)
      if (input.pauses) yield []
      const order = filler.buf.order(slots[k]!.start)
      if (input.pauses) yield []
      for (const _ of out.prepare(filler.buf, order, dayNo)) if (input.pauses) yield []
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
  // The panel's tags and devices are read now, with its persons (panel/load.ts reads them at
  // their first use): the run pauses between its turns, and a panel written meanwhile refuses
  // reads deferred past the write. The simulation goes on with the panel as it was at its start.
  if (input.panel) readWhole(input.panel)
  const p = plan(input)
  const summary: SimulationSummary = {
    impressions: 0, clicks: 0, identities: 0, panelPersons: 0, clients: { keepers: 0, refusers: 0, apps: 0, servers: 0, bots: 0 }, natGroups: 0, prefetches: 0,
    panelOversampling: 1, capped: 0, days: p.days.length,
    byDay: p.days.map((date) => ({ date, impressions: 0, clicks: 0 })), invalid: { bot: 0, datacenter: 0 }, done: false,
  }
  return { plan: p, summary, chunks: run(input, p, summary) }
}
