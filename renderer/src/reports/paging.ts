/**
 * Report paging (spec §4.4, §8): without `limit` the API answers the first 500 spots (0,500), so a
 * spot or keyword view of a larger campaign would be silently cut, and every total drawn from its
 * rows with it. `coverage` says from an answer whether it holds every spot (publisher, row) of the
 * request; `fullLimits` gives the `limit` values that fetch them all. `limit` is valid on the
 * basic, realtime and reach reports only with a paged `by_position` (the API's own rule, from
 * engine/contract/report-rules.ts), and there it must start below `total_spot_num` and not run
 * past it; the audience and minisite reports page their rows (default 0,500) with no total.
 * An answer with more spots than the default page (a server that answers every spot without
 * `limit`) counts as whole.
 */
import type { ListSpot } from '../../../engine/contract/models'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { MAX_LIMIT_N } from '../../../engine/contract/params'
import { REPORT_CHECKS, REPORT_DEFAULT_PAGE } from '../../../engine/contract/report-rules'
import type { Params } from '../api/client'
import { dependentProblem, takes, type ReportId, type ReportParams } from './rules'

/** The API's page when no `limit` is sent (spec §4.4, §8: "M,N, default 0,500"; the engine's own). */
export const DEFAULT_PAGE = REPORT_DEFAULT_PAGE
/** The largest N of a `limit` (engine/contract/params.ts). */
export const MAX_PAGE = MAX_LIMIT_N

/** What a request's `limit` counts: spots (total_spot_num), publishers, or the answer's rows. */
export type PagedBy = 'spots' | 'publishers' | 'rows'

/** An answer that does not hold everything the request covers: `shown` of `total` (null: unknown). */
export interface Coverage {
  unit: PagedBy
  shown: number
  total: number | null
}

/** What `coverage` reads of an answer. */
export interface PagedAnswer {
  items?: readonly ReportItem[]
  total_spot_num?: number
}

/** Reports whose `limit` counts spots (or publishers) and whose answers carry total_spot_num. */
const SPOT_PAGED: readonly string[] = ['reports.basic_show', 'reports.realtime_show', 'reports.reach_show']

const isReport = (id: string): id is ReportId => id in REPORT_CHECKS

function reportParams(params: Params): ReportParams {
  const out: ReportParams = {}
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) out[k] = typeof v === 'boolean' ? String(Number(v)) : v
  return out
}

/** What `limit` pages on this request, or null when the request takes no `limit` (the API would refuse one). */
export function pagedBy(id: string, params: Params): PagedBy | null {
  if (!isReport(id) || !takes(id, 'limit')) return null
  if (!SPOT_PAGED.includes(id)) return 'rows'
  if (dependentProblem(id, 'limit', reportParams(params), '0,1') !== null) return null
  return params.by_position === 'publisher' ? 'publishers' : 'spots'
}

/** A wire `limit` ("M,N") read back, or null. */
export function limitOf(raw: Params[string]): { m: number; n: number } | null {
  const m = /^(\d+),(\d+)$/.exec(String(raw ?? ''))
  return m ? { m: Number(m[1]), n: Number(m[2]) } : null
}

const distinct = (items: readonly ReportItem[], key: 'spot_id' | 'publisher_id'): number => new Set(items.map((i) => i.attributes[key]).filter((x) => x !== undefined)).size

/**
 * Whether an answer holds every spot (publisher, row) its request covers: null when it does (or
 * the request is not paged), else what it shows of how many. `publishers` is the number of
 * publishers in the request's scope (publisher rows page publishers, whose number the answer does
 * not give). An answer with more spots than the page is taken as whole (an engine that does not
 * page without `limit`).
 */
export function coverage(id: string, params: Params, answer: PagedAnswer, publishers: number | null = null): Coverage | null {
  const by = pagedBy(id, params)
  if (!by) return null
  const items = answer.items ?? []
  const page = limitOf(params.limit) ?? { m: 0, n: DEFAULT_PAGE }
  if (by === 'rows') return items.length >= page.n && page.n < MAX_PAGE ? { unit: 'rows', shown: items.length, total: null } : null
  const total = by === 'spots' ? answer.total_spot_num : publishers
  if (typeof total !== 'number') return null
  const seen = distinct(items, by === 'spots' ? 'spot_id' : 'publisher_id')
  const shown = seen > page.n ? total : Math.max(0, Math.min(page.n, total - page.m))
  return shown < total ? { unit: by, shown, total } : null
}

/** The `limit` values that fetch all `total` spots (publishers) in pages the API accepts: M below the total, M+N not past it. */
export function fullLimits(total: number): string[] {
  const out: string[] = []
  for (let m = 0; m < total; m += MAX_PAGE) out.push(`${m},${Math.min(MAX_PAGE, total - m)}`)
  return out
}

/** The publishers a request covers: those of the campaign's spots, narrowed to its `publisher_id`. */
export function publishersInScope(spots: readonly ListSpot[], params: Params): number {
  const chosen = params.publisher_id ? String(params.publisher_id).split(',') : null
  return new Set(spots.map((s) => s.publisher_id).filter((p) => !chosen || chosen.includes(p))).size
}

/** The coverage a view shows of its answers (the trend's days, two reports): the one missing the most. */
export function worstCoverage(list: readonly (Coverage | null)[]): Coverage | null {
  const gap = (c: Coverage) => (c.total ?? c.shown + 1) - c.shown
  return list.reduce<Coverage | null>((w, c) => (c && (!w || gap(c) > gap(w)) ? c : w), null)
}
