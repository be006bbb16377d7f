/**
 * Row 1 of what the user feels: from spawning `npm run serve` on the data directory to the first
 * report of the Reports screen answered, with the requests the screen makes when it opens, built
 * by the renderer's own code (renderer/src/reports: the context round of load.ts, the regions and
 * the panel, then the default view's requests: the daily trend, one `basic_days` range request,
 * and today's realtime when the campaign runs today). The screen is shown as on the day after the
 * campaign's end (felt-logic.ts `asOn`). The session's token is one the engine issued before the
 * start, as the app's (or the browser tab's) session holds it.
 */
import { endpoints, type EndpointId } from '../engine/contract/endpoints'
import { ApiClient, type Params } from '../renderer/src/api/client'
import { httpTransport } from '../renderer/src/api/transport'
import { dateRange } from '../renderer/src/campaign/dates'
import { actualDates } from '../renderer/src/reports/clock'
import { defaultDate } from '../renderer/src/reports/items'
import { loadContext, loadPanel, loadRegions, loadTrend, type Caller } from '../renderer/src/reports/load'
import { buildView } from '../renderer/src/reports/params'
import { defaultPickers } from '../renderer/src/reports/pickers'
import { todayRequest } from '../renderer/src/reports/trend-today'
import { cpuMsOf } from './cpu'
import { asOn } from './felt-logic'
import { bundleReady, serveOn, type Serving } from './felt-serve'

export interface FirstReportRun {
  /** Spawn to the trend's answers, ms (the row's figure). */
  totalMs: number
  /** Spawn to the server listening, ms. */
  listeningMs: number
  /** Reading the recorded events took this long, as the server says (null: it said nothing), ms. */
  eventsReadMs: number | null
  /** Spawn to the context round answered, ms. */
  contextMs: number
  /** CPU time of the server process from its spawn to the first report (Linux), ms. */
  serverCpuMs?: number
  /** The first report's requests (endpoint ids), in order. */
  requests: string[]
}

/** `api.call` of the renderer over HTTP, answering as on `today`, recording the endpoint ids it sends. */
function caller(url: string, token: string, today: string, sent: string[]): Caller {
  const api = new ApiClient(httpTransport(url))
  api.token = token
  return (async (id: EndpointId, params?: Params) => {
    sent.push(id)
    const answer = await api.call(id, params)
    return asOn(endpoints[id].path, answer, today)
  }) as Caller
}

/**
 * What the Reports screen asks when it opens on `campaignId` (views/reports/index.vue and
 * TrendView.vue): the context with the regions (and the sync profiles, for the source picker),
 * then the panel and the trend's requests. Resolves when the trend's answers are in.
 */
async function openReports(call: Caller, campaignId: string): Promise<number> {
  const [ctx] = await Promise.all([loadContext(call, campaignId), loadRegions(call, 'en'), call('sync.profiles_list').catch(() => [])])
  const contextAt = performance.now()
  const pickers = defaultPickers()
  const c = ctx.campaign
  const panelId = c.linked_panels[0] ?? null
  const date = defaultDate(ctx.progress[pickers.filtration_type], c.start_date, c.end_date)
  const env = { campaignId, date, today: ctx.today, minisiteId: ctx.minisites[0]?.minisite_id ?? null }
  const [r] = buildView({ ...pickers, panel_id: panelId, minisite_id: env.minisiteId }, 'trend', env)
  if (r!.problem) throw new Error(`the trend's request is refused: ${r!.problem}`)
  const live = todayRequest(r!.params, { start: c.start_date, end: c.end_date, cutoff: date, today: ctx.today })
  const days = actualDates(c.start_date, c.end_date, date, ctx.today)
  if (days.length === 0) throw new Error(`no day of the campaign (${dateRange(c.start_date, c.end_date).length} days) has come by ${ctx.today}`)
  await Promise.all([panelId ? loadPanel(call, panelId, 'en') : null, loadTrend(call, r!, days), live ? call('reports.realtime_show', live) : null])
  return contextAt
}

/** One start: spawn, open the Reports screen's first report, stop. */
export async function firstReport(dataDir: string, campaignId: string, token: string, today: string, opts: { uiDir?: string; cpu?: number }): Promise<FirstReportRun> {
  await bundleReady()
  const t0 = performance.now()
  let s: Serving | null = null
  try {
    s = await serveOn(dataDir, { ...opts, t0 })
    const sent: string[] = []
    const contextAt = await openReports(caller(s.url, token, today, sent), campaignId)
    const totalMs = performance.now() - t0
    const cpu = cpuMsOf(s.proc.pid)
    return { totalMs, listeningMs: s.listeningMs, eventsReadMs: s.loadedS() === null ? null : s.loadedS()! * 1000, contextMs: contextAt - t0, requests: sent, ...(cpu === undefined ? {} : { serverCpuMs: cpu }) }
  } finally {
    await s?.stop()
  }
}
