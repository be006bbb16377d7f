/**
 * What the reports screen loads, through an injected caller (the app passes `api.call`; tests a
 * fake): the campaign and what names its rows, the engine's today, the progress per filtration,
 * reference names, and the daily trend's range of days.
 */
import type { EndpointId, ResultOf } from '../../../engine/contract/endpoints'
import type { Minisite } from '../../../engine/contract/endpoints-minisites'
import { MAX_REPORT_DAYS } from '../../../engine/contract/endpoints-report-days'
import type { Campaign, ListSpot, Panel, Publisher, Region, Target } from '../../../engine/contract/models'
import type { BasicReport } from '../../../engine/contract/models-reports'
import type { Infer } from '../../../engine/contract/schema'
import type { Params } from '../api/client'
import { coverage, fullLimits, MAX_PAGE, publishersInScope, worstCoverage, type Coverage, type PagedAnswer } from './paging'
import { toWire, type BuiltRequest } from './params'

/** `api.call`'s shape. */
export type Caller = <K extends EndpointId>(id: K, params?: Params) => Promise<ResultOf<K>>

export type MinisiteRecord = Infer<typeof Minisite>

/** Everything the screen needs about a campaign before any report. */
export interface ReportContext {
  campaign: Campaign
  spots: ListSpot[]
  publishers: Publisher[]
  targets: Target[]
  /** The engine's today (its time zone), the date of the realtime reports. */
  today: string
  /** The engine's time zone (IANA name): what "now" is on the realtime views. */
  timeZone: string
  /** Last fully computed day per filtration (basic/progress). */
  progress: { net: string; totalnet: string }
  /** Minisites that credit this campaign. */
  minisites: MinisiteRecord[]
}

/** Loads the context of a campaign's reports (one round of parallel requests). */
export async function loadContext(call: Caller, campaignId: string): Promise<ReportContext> {
  const id = { campaign_id: campaignId }
  const [campaign, spots, publishers, targets, status, net, totalnet, minisites] = await Promise.all([
    call('campaigns.show', id),
    call('campaigns.list_spots', { ...id, show_plan: 1, limit: '0,3000' }),
    call('campaigns.list_publishers', { ...id, limit: '0,1000' }),
    call('campaigns.list_targets', { ...id, limit: '0,1000' }),
    call('local.status'),
    call('reports.basic_progress', { ...id, filtration_type: 'net' }),
    call('reports.basic_progress', { ...id, filtration_type: 'totalnet' }),
    call('minisites.list'),
  ])
  return {
    campaign, spots, publishers, targets, today: status.today, timeZone: status.time_zone,
    progress: { net: net.date, totalnet: totalnet.date },
    minisites: minisites.filter((m) => m.campaign_ids.includes(campaignId)),
  }
}

/** Regions of levels 0-2 (global and mainland, provinces, cities), names in the interface language. */
export function loadRegions(call: Caller, lang: 'en' | 'cn'): Promise<Region[]> {
  return call('regions.list', { level: '0,1,2', lang, limit: '0,5000' })
}

/** A panel with its tag types and tags, names in the interface language (null when it is unknown). */
export async function loadPanel(call: Caller, panelId: string, lang: 'en' | 'cn'): Promise<Panel | null> {
  try {
    return await call('panels.show', { panel_id: panelId, lang })
  } catch {
    return null
  }
}

/** Sends a built request. */
export function send(call: Caller, r: BuiltRequest): Promise<unknown> {
  return call(r.id, toWire(r.params))
}

/** Runs `task` over `items` with at most `limit` in flight; results in the order of `items`. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await task(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/**
 * The daily trend's actual figures: the basic report with `metrics=day` of every date, in one
 * request of the local range endpoint (`reports.basic_days`; the vendor API gives `_day` figures
 * for one cut-off date a request), or one after another for each MAX_REPORT_DAYS of a campaign
 * that has run longer than the endpoint takes. `dates` are consecutive.
 */
export async function loadTrend(call: Caller, r: BuiltRequest, dates: readonly string[]): Promise<Map<string, BasicReport>> {
  const { date: _date, metrics: _metrics, ...rest } = toWire(r.params)
  const out = new Map<string, BasicReport>()
  for (let from = 0; from < dates.length; from += MAX_REPORT_DAYS) {
    const range = dates.slice(from, from + MAX_REPORT_DAYS)
    const answer = await call('reports.basic_days', { ...rest, start_date: range[0]!, end_date: range[range.length - 1]! })
    for (const [i, d] of range.entries()) out.set(d, answer.reports[i]!)
  }
  return out
}

/** How `completing` wraps a caller. */
export interface CompletingOptions {
  /** Fetch every spot (publisher, row) of a cut answer (else only say it is cut). */
  all: boolean
  /** The campaign's spots: the number of publishers a request covers. */
  spots: readonly ListSpot[]
  /** Told the coverage of every report answer (null: whole). */
  seen: (c: Coverage | null) => void
}

/** The answers of a range request (`reports.basic_days`), each like one of basic/show. */
interface DaysAnswer {
  reports: PagedAnswer[]
}

/**
 * A caller that tells what each report answer covers (paging.ts) and, with `all`, completes a cut
 * answer: the rest of its spots (publishers) in pages the API accepts, or its rows up to the
 * largest page, the items put together in one answer. A range's days are each checked as a
 * basic/show answer, and completed day by day from the same pages.
 */
export function completing(call: Caller, o: CompletingOptions): Caller {
  return (async (id: EndpointId, params: Params = {}) => {
    const answer = await call(id, params)
    const days = id === 'reports.basic_days'
    const answers = days ? (answer as DaysAnswer).reports : [answer as PagedAnswer]
    const publishers = publishersInScope(o.spots, params)
    const cut = worstCoverage(answers.map((a) => coverage(days ? 'reports.basic_show' : id, params, a, publishers)))
    if (!cut || !o.all) {
      o.seen(cut)
      return answer
    }
    const limits = cut.total === null ? [`0,${MAX_PAGE}`] : fullLimits(cut.total)
    const pages = (await mapLimit(limits, 4, (limit) => call(id, { ...params, limit }))).map((p) => (days ? (p as DaysAnswer).reports : [p as PagedAnswer]))
    o.seen(null)
    const joined = answers.map((a, i) => ({ ...a, items: pages.flatMap((p) => p[i]?.items ?? []) }))
    return days ? { ...(answer as DaysAnswer), reports: joined } : joined[0]
  }) as Caller
}
