/**
 * The campaign list screen's state (filters, sort, page size) and the `campaigns.list` parameters
 * it stands for (spec §4.2): PATTERN searches, an ID list, status, calculation type, one of
 * order_asc / order_desc over the orderable fields only, and `limit` M,N with M a start row.
 */
import type { Campaign } from '../../../engine/contract/models'
import { CAMPAIGN_ORDER, CAMPAIGN_STATUS, LIST_CALCULATION_TYPES } from '../../../engine/contract/vocabulary'
import type { Params } from '../api/client'

export type OrderField = (typeof CAMPAIGN_ORDER)[number]
export type CampaignStatus = (typeof CAMPAIGN_STATUS)[number]
export type ListCalculationType = (typeof LIST_CALCULATION_TYPES)[number]

/** The PATTERN filters, by their wire names. */
export const PATTERN_FILTERS = ['campaign_name', 'advertiser_name', 'agency_name', 'brand_name', 'creator_name'] as const
export type PatternFilter = (typeof PATTERN_FILTERS)[number]

export interface CampaignFilters extends Record<PatternFilter, string> {
  /** ID1,ID2,... as typed (commas, spaces or semicolons between ids). */
  campaign_id: string
  status: CampaignStatus | null
  calculation_type: ListCalculationType | null
}

export interface ListSort {
  field: OrderField
  dir: 'asc' | 'desc'
}

/** What the list screen remembers (prefs.rememberFilters('campaigns', ...)). */
export interface ListState {
  filters: CampaignFilters
  sort: ListSort | null
  pageSize: number
}

export const PAGE_SIZES = [20, 50, 100, 200] as const
/** Longest PATTERN the engine takes (engine/contract/params.ts `pattern`). */
export const PATTERN_MAX = 200
/** Most ids in one ID list (engine/contract/params.ts). */
export const ID_LIST_MAX = 1000

export const emptyFilters = (): CampaignFilters => ({
  campaign_name: '', advertiser_name: '', agency_name: '', brand_name: '', creator_name: '',
  campaign_id: '', status: null, calculation_type: null,
})

/** Newest first: most planners look for what they made last. */
export const defaultListState = (): ListState => ({ filters: emptyFilters(), sort: { field: 'campaign_id', dir: 'desc' }, pageSize: 50 })

/**
 * The sort after a header click: the column's order, or the default (newest first) when the
 * click clears it; without an order the engine lists oldest first, which the table would show
 * with no column marked.
 */
export function sortAfterClick(column: string | number | null | undefined, order: 'ascend' | 'descend' | false | undefined): ListSort | null {
  if (order && typeof column === 'string' && isOrderField(column)) return { field: column, dir: order === 'ascend' ? 'asc' : 'desc' }
  return defaultListState().sort
}

const str = (v: unknown): string => (typeof v === 'string' ? v.slice(0, PATTERN_MAX) : '')
const isOrderField = (v: unknown): v is OrderField => (CAMPAIGN_ORDER as readonly unknown[]).includes(v)

/** A remembered state made safe: unknown or malformed values fall back to the defaults. */
export function normaliseListState(raw: unknown): ListState {
  const d = defaultListState()
  if (typeof raw !== 'object' || raw === null) return d
  const r = raw as Partial<Record<keyof ListState, unknown>>
  const f = (typeof r.filters === 'object' && r.filters !== null ? r.filters : {}) as Record<string, unknown>
  const filters = emptyFilters()
  for (const k of PATTERN_FILTERS) filters[k] = str(f[k])
  filters.campaign_id = str(f.campaign_id)
  if ((CAMPAIGN_STATUS as readonly unknown[]).includes(f.status)) filters.status = f.status as CampaignStatus
  if ((LIST_CALCULATION_TYPES as readonly unknown[]).includes(f.calculation_type)) filters.calculation_type = f.calculation_type as ListCalculationType
  const s = r.sort as Partial<ListSort> | null | undefined
  const sort = s === null ? null : s && isOrderField(s.field) && (s.dir === 'asc' || s.dir === 'desc') ? { field: s.field, dir: s.dir } : d.sort
  const pageSize = (PAGE_SIZES as readonly unknown[]).includes(r.pageSize) ? (r.pageSize as number) : d.pageSize
  return { filters, sort, pageSize }
}

export type IdListProblem = 'format' | 'tooMany'

/** The ids of an ID-list filter, or what is wrong with it. Empty text means no filter. */
export function parseIdList(text: string): { ids: string[] } | { problem: IdListProblem } {
  const parts = text.split(/[\s,;]+/).filter((s) => s !== '')
  if (parts.some((s) => !/^[0-9]{1,18}$/.test(s) || /^0+$/.test(s))) return { problem: 'format' }
  const ids = [...new Set(parts.map((s) => BigInt(s).toString()))]
  if (ids.length > ID_LIST_MAX) return { problem: 'tooMany' }
  return { ids }
}

/** Whether any filter is set (the empty state then says "no match" instead of "no campaigns"). */
export function hasFilters(f: CampaignFilters): boolean {
  return PATTERN_FILTERS.some((k) => f[k].trim() !== '') || f.campaign_id.trim() !== '' || f.status !== null || f.calculation_type !== null
}

/**
 * The `campaigns.list` parameters of a page (0-based). One row more than the page size is asked
 * for: the list answers no total, so that extra row is how the screen knows a next page exists.
 * Returns null when a filter is malformed (the screen shows the problem instead of asking).
 */
export function buildListParams(state: ListState, page: number): Params | null {
  const f = state.filters
  const ids = parseIdList(f.campaign_id)
  if ('problem' in ids) return null
  const params: Params = {}
  for (const k of PATTERN_FILTERS) {
    const v = f[k].trim()
    if (v !== '') params[k] = v
  }
  if (ids.ids.length > 0) params.campaign_id = ids.ids.join(',')
  if (f.status !== null) params.status = f.status
  if (f.calculation_type !== null) params.calculation_type = f.calculation_type
  if (state.sort) params[state.sort.dir === 'asc' ? 'order_asc' : 'order_desc'] = state.sort.field
  params.limit = `${Math.max(0, page) * state.pageSize},${state.pageSize + 1}`
  return params
}

/** The rows of a page answered with one extra row, and whether a next page exists. */
export function pageOf<T>(rows: readonly T[], pageSize: number): { rows: T[]; hasMore: boolean } {
  return { rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize }
}

/** 1-based numbers of the first and last row shown (0, 0 for an empty page). */
export function rowRange(page: number, pageSize: number, shown: number): { from: number; to: number } {
  return shown === 0 ? { from: 0, to: 0 } : { from: page * pageSize + 1, to: page * pageSize + shown }
}

/**
 * A campaign's status from its dates and the engine's today (spec §2.2: 1 not started,
 * 2 in progress, 3 ended); the list object does not carry it, the engine computes it the same way.
 */
export function campaignStatus(c: Pick<Campaign, 'start_date' | 'end_date'>, today: string): CampaignStatus {
  if (c.start_date > today) return 1
  if (c.end_date < today) return 3
  return 2
}

/** The tag colour (naive-ui tag type) of each status, in the list and the campaign header. */
export const STATUS_TAG_TYPE: Record<CampaignStatus, 'info' | 'success' | 'default'> = { 1: 'info', 2: 'success', 3: 'default' }
