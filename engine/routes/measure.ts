// Local namespace: event import (docs/import.md), jobs, measurement status and rebuild
import { bodyFormat } from '../contract/envelope'
import { badRequest } from '../contract/errors'
import { checkCsvHeader, runImport } from '../measure/import-run'
import { recordInTurns, type Job, type SimulationFigures } from '../measure/jobs'
import type { Partition } from '../measure/columns'
import { plan, simulate, type SimulationInput, type SimulationPlan, type SimulationSummary } from '../measure/simulate'
import { panelPopulation } from '../measure/panel/synthetic'
import { regionTable } from '../reference/region-table'
import { refusesWrites } from '../storage/refusal'
import { requireCampaign } from '../storage/repos/campaigns'
import { dayDate, dayNumber } from '../time-zone'
import type { Ctx } from '../context'
import type { Handler } from '../handler'
import { forClient } from '../respond'

const importEvents: Handler<'events.import'> = async (ctx, p) => {
  const format = bodyFormat(ctx.request, p.format)
  // (a header naming an unknown column refuses the request, as a wrong parameter, before any job)
  if (format === 'csv') checkCsvHeader(ctx.text)
  const job = await ctx.measure.startJob('import', ctx.clock.now(), lineCount(ctx.text))
  return runJob(ctx, job, p.wait, async () => {
    await runImport(ctx.measure, ctx.settings.timeZone, job, ctx.text, format)
    // every line is read: processed counts records, and blank lines and the further lines of a
    // quoted CSV field are none (a finished job would otherwise end at "3 / 4" for them)
    job.processed = job.total
  })
}

/**
 * Runs a job; answers it at once, or once it ends when the client waits. A waiting client gets a
 * write the disk refused as the 507 a tracking hit gets (dispatch names the directory), not as a
 * failed job; the job says `failed` either way.
 */
async function runJob(ctx: Ctx, job: Job, wait: boolean | undefined, work: () => Promise<void>): Promise<Job> {
  let refused: unknown = null
  const done = ctx.measure.jobs.run(job, () => ctx.clock.now(), async () => {
    try {
      await work()
    } catch (err) {
      if (refusesWrites(err)) refused = err
      throw err
    }
  })
  if (!wait) return forClient(ctx.request, job)
  const finished = await done
  if (refused !== null) throw refused
  return forClient(ctx.request, finished)
}

/**
 * Lines of a text, the last one counted only when it holds something (a file ends with a newline);
 * by indexOf, which makes no string a line (a regular expression's list of matches would hold
 * 430,000 of them for a 64 MiB body).
 */
function lineCount(text: string): number {
  let n = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++
  return text.length === 0 ? 0 : n + (text.endsWith('\n') ? 0 : 1)
}

const show: Handler<'jobs.show'> = (ctx, p) => {
  const job = ctx.measure.jobs.get(p.job_id)
  if (!job) throw badRequest('job.gone', { param: 'job_id', id: String(p.job_id) })
  return forClient(ctx.request, job)
}

const status: Handler<'measurement.status'> = (ctx) => {
  const m = ctx.measure
  return {
    events: m.columns.events, identities: m.identities.size - 1, identity_kinds: m.identities.kinds(), log_bytes_written: m.logBytes(),
    campaigns: [...m.columns.campaigns].map(([id, part]) => ({ campaign_id: String(id), events: part.n })),
    minisites: [...m.columns.minisites].map(([id, part]) => ({ minisite_id: String(id), events: part.n })),
  }
}

/**
 * Most hits one simulation plans: its audience (identities and their texts) is sized for the
 * whole plan, and 388 million planned hits made the engine run out of memory. Ten million is the
 * volume the bench measures the engine at (README).
 */
const MAX_SIMULATED_HITS = 10_000_000

/**
 * Hits of a simulation recorded at a time (the simulator's chunks): a tracking hit that comes
 * meanwhile waits for making and recording at most one chunk (npm run bench -- contention).
 */
const SIMULATED_CHUNK = 2_000

/** Events of a partition on local days from..to (day numbers). */
function eventsOnDays(part: Partition | undefined, from: number, to: number): number {
  let n = 0
  for (let i = 0; i < (part?.n ?? 0); i++) if (part!.day[i]! >= from && part!.day[i]! <= to) n++
  return n
}

/**
 * Refuses a simulation with nothing to make before now, or more than one simulation makes, naming
 * what the user can change. Both count only the hours simulated (up to now), never days ahead:
 * 50 million planned for tomorrow must not refuse a run of today, and a plan only ahead is no job
 * of "0 impressions … over 0 days".
 */
function checkVolume(plan: SimulationPlan, campaignId: number, from: string, scale: number, timeZone: string, now: number): void {
  const last = plan.days[plan.days.length - 1] ?? from
  if (plan.spots.length === 0) throw badRequest('sim.noSpots', { param: 'campaign_id', id: String(campaignId) })
  if (plan.expectedHits === 0) {
    const at = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(now)
    throw badRequest('sim.noTraffic', { param: 'campaign_id', id: String(campaignId), from, to: last, now: at })
  }
  // the simulated audience is sized for what the run makes before now, whatever max_hits keeps of it
  const hits = plan.expectedHits
  if (hits <= MAX_SIMULATED_HITS) return
  const what = { hits, from, to: last, max: MAX_SIMULATED_HITS }
  if (scale === 1 && plan.days.length > 1) throw badRequest('sim.tooManyDays', { param: 'from_date', value: from, ...what })
  throw badRequest(plan.days.length > 1 ? 'sim.tooManyScaleDays' : 'sim.tooManyScale', { param: 'scale', value: String(scale), ...what })
}

/** A finished simulation's figures; `full`: its hits refused because the campaign is full. */
function simulationFigures(s: SimulationSummary, full: number): SimulationFigures {
  // (the days that got traffic: today's hours still to come and later days get none)
  const days = s.byDay.filter((d) => d.impressions + d.clicks > 0).length
  const c = s.clients
  return {
    impressions: s.impressions, clicks: s.clicks, identities: s.identities, days, capped: s.capped, panel_persons: s.panelPersons, panel_oversampling: s.panelOversampling, full,
    clients: { cookie_keepers: c.keepers, cookie_refusers: c.refusers, apps: c.apps, server_to_server: c.servers, bots: c.bots },
    nat_groups: s.natGroups, prefetches: s.prefetches, bot_hits: s.invalid.bot, datacenter_hits: s.invalid.datacenter,
  }
}

/** What a finished simulation says: its traffic, its clients, what capping held back and how the panel was sampled. */
function simulateMessage(f: SimulationFigures, fullWhy: string): string {
  let m = `${f.impressions} impressions and ${f.clicks} clicks from ${f.identities} identities over ${f.days} day${f.days === 1 ? '' : 's'}`
  const c = f.clients
  m += `; clients: ${c.cookie_keepers} browsers keeping the cookie, ${c.cookie_refusers} refusing it (counted by address and user agent), ${c.apps} apps (device ids), ${c.server_to_server} reported server to server, ${c.bots} declared bots`
  m += `; ${f.nat_groups} addresses shared by several clients (households, offices, carrier NAT); ${f.prefetches} prefetches answered and not counted; invalid traffic: ${f.bot_hits} declared-bot and ${f.datacenter_hits} data-centre hits`
  if (f.capped > 0) m += `; ${f.capped} impressions not delivered: every identity found was at its frequency cap`
  if (f.panel_persons > 0 && f.panel_oversampling > 1) {
    m += `; ${f.panel_persons} panel persons, placed at ${f.panel_oversampling} times their true share so that panel reports have a sample (projections stay calibrated to the counted traffic: docs/metrics.md)`
  }
  if (f.full > 0) m += `; ${f.full} of them refused: ${fullWhy}`
  return m
}

/** Simulated traffic for a campaign, chunk by chunk through the ingest (docs/simulator.md). */
const simulateRun: Handler<'simulate.run'> = async (ctx, p) => {
  const c = requireCampaign(ctx.db, p.campaign_id, ctx.today)
  const from = p.from_date ?? c.start_date
  const to = p.to_date ?? dayDate(Math.min(dayNumber(ctx.today), dayNumber(c.end_date)))
  if (from > to) throw p.to_date ? badRequest('sim.emptyRange', { param: 'to_date', from, to }) : badRequest('sim.emptyRangeDefault', { param: 'from_date', from, to })
  if (to < c.start_date || from > c.end_date) throw badRequest('sim.outside', { param: p.from_date && from > c.end_date ? 'from_date' : 'to_date', from, to, start: c.start_date, end: c.end_date })
  // (hours not reached yet get no traffic: a range wholly ahead would be a job of 0 hits)
  if (from > ctx.today) throw badRequest('sim.afterToday', { param: 'from_date', date: from, today: ctx.today, zone: ctx.settings.timeZone })
  const held = p.append ? 0 : eventsOnDays(ctx.measure.columns.campaign(c.campaign_id), dayNumber(from), dayNumber(to))
  if (held > 0) throw badRequest('sim.append', { param: 'append', from, to, campaign: String(c.campaign_id), events: held })
  const now = ctx.clock.now()
  const input: SimulationInput = {
    db: ctx.db, campaignId: c.campaign_id, from, to, seed: p.seed, scale: p.scale, timeZone: ctx.settings.timeZone, chunkSize: SIMULATED_CHUNK, pauses: true,
    panel: null, regions: regionTable(), identityKey: ctx.measure.identityKey(ctx.random), ...(p.max_hits ? { maxHits: p.max_hits } : {}),
    // hours not reached yet get no traffic (realtime would show the future otherwise)
    until: now,
  }
  const planned = plan(input)
  // (nothing to simulate is said, not run: a job of "0 hits over 0 days" looked like a success)
  checkVolume(planned, c.campaign_id, from, p.scale, ctx.settings.timeZone, now)
  const job = await ctx.measure.startJob('simulate', now, Math.min(planned.expectedHits, p.max_hits ?? Infinity))
  return runJob(ctx, job, p.wait, () => simulateJob(ctx, job, input, c.panel_id))
}

/**
 * A simulation's job: the campaign's panel, then the hits, chunk by chunk through the ingest. A
 * built-in panel's population is made at its first use (about 0.3 s), in slices between which the
 * hits that came meanwhile are answered, as between the simulation's chunks.
 */
async function simulateJob(ctx: Ctx, job: Job, input: SimulationInput, panelId: string): Promise<void> {
  await recordInTurns(panelPopulation(ctx.db, panelId, input.regions), async () => undefined, () => ctx.measure.ingest.flush())
  const panel = ctx.measure.panel(panelId)
  const sim = simulate({ ...input, panel })
  let full = 0
  // (an empty chunk is a pause of the simulator's; after each, the hits that came meanwhile are answered before it goes on)
  await recordInTurns(sim.chunks, (chunk) => ctx.measure.ingest.add(chunk).then((refused) => {
    job.processed += chunk.length
    job.imported += chunk.length - refused
    job.rejected += refused
    full += refused
  }), () => ctx.measure.ingest.flush())
  job.total = job.processed
  job.simulation = simulationFigures(sim.summary, full)
  job.message = simulateMessage(job.simulation, ctx.measure.ingest.fullMessage(false, input.campaignId))
}

const rebuild: Handler<'measurement.rebuild'> = async (ctx) => {
  const started = performance.now()
  const events = await ctx.measure.rebuild()
  return { events, ms: Math.round(performance.now() - started) }
}

export const measureRoutes = {
  'events.import': importEvents,
  'jobs.show': show,
  'jobs.list': ((ctx) => forClient(ctx.request, ctx.measure.jobs.list())) satisfies Handler<'jobs.list'>,
  'measurement.status': status,
  'simulate.run': simulateRun,
  'measurement.rebuild': rebuild,
}
