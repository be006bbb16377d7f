/**
 * The pickers of the reports screen: their state (remembered per campaign, except the date),
 * its defaults, and reading a remembered value back safely.
 */
import { AUDIENCES, FILTRATIONS, PLATFORMS, POSITIONS, REGION_LEVELS } from '../../../engine/contract/endpoints-reports'
import { allowedValues } from './rules'

/** The views of the screen, in tab order. */
export const VIEWS = ['trend', 'hours', 'region', 'reach', 'audience', 'minisite', 'realtime'] as const
export type ViewKey = (typeof VIEWS)[number]

/** The basic report's period choices the region ranking offers (the `metrics` parameter). */
export const PERIODS = ['acc', 'day', 'avg_day'] as const
export type Period = (typeof PERIODS)[number]

/** Which census figure a chart shows. */
export const MEASURES = ['imp', 'clk', 'uim', 'ucl'] as const
export type Measure = (typeof MEASURES)[number]

/** The region levels a ranking can use. */
export const RANK_LEVELS = ['level1', 'level2'] as const
export type RankLevel = (typeof RANK_LEVELS)[number]

export interface Pickers {
  view: ViewKey
  /** Cut-off date; null: the last fully computed day (never remembered). */
  date: string | null
  by_position: (typeof POSITIONS)[number]
  publisher_id: string[]
  spot_id: string[]
  keyword_id: string[]
  by_audience: (typeof AUDIENCES)[number]
  /** One target at a time; null: every target of the campaign. */
  target_id: string | null
  by_region: (typeof REGION_LEVELS)[number]
  /** One region of the level; null: the global row on level0, every region otherwise. */
  region_id: string | null
  platform: (typeof PLATFORMS)[number]
  sdk: 'all' | 'mm' | 'mz'
  filtration_type: (typeof FILTRATIONS)[number]
  /** `metrics` of the region ranking. */
  metrics: Period
  measure: Measure
  rank_level: RankLevel
  panel_id: string | null
  type_id: string[]
  audience_measure: 'uim' | 'ucl'
  minisite_id: string | null
}

/**
 * The state of a campaign seen for the first time. The platform is `pm`, every platform, where
 * the API's default is `pc`: the daily trend sets the figures against the plan, which has no
 * platform, and most campaigns are mostly mobile (the PC share alone is a fifth of the plan for
 * the demo's).
 */
export function defaultPickers(): Pickers {
  return {
    view: 'trend', date: null, by_position: 'campaign', publisher_id: [], spot_id: [], keyword_id: [],
    by_audience: 'overall', target_id: null, by_region: 'level0', region_id: null, platform: 'pm', sdk: 'all',
    filtration_type: 'net', metrics: 'acc', measure: 'imp', rank_level: 'level1', panel_id: null, type_id: [],
    audience_measure: 'uim', minisite_id: null,
  }
}

/** The localStorage screen key under which a campaign's pickers are remembered. */
export const screenKey = (campaignId: string): string => `reports:${campaignId}`

const ENUMS: Partial<Record<keyof Pickers, readonly string[]>> = {
  view: VIEWS, by_position: POSITIONS, by_audience: AUDIENCES, by_region: REGION_LEVELS, platform: PLATFORMS,
  sdk: allowedValues('reports.basic_show', 'sdk'), filtration_type: FILTRATIONS, metrics: PERIODS, measure: MEASURES, rank_level: RANK_LEVELS,
  audience_measure: ['uim', 'ucl'],
}
const LISTS = ['publisher_id', 'spot_id', 'keyword_id', 'type_id'] as const
const NULLABLE = ['target_id', 'region_id', 'panel_id', 'minisite_id'] as const

const isIdText = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_.\-]{1,64}$/.test(v)

/**
 * A remembered state read back: unknown keys dropped, values that are no longer valid
 * (an edited localStorage, an older version) replaced by the defaults. The date is never kept.
 */
export function readPickers(raw: Record<string, unknown>): Pickers {
  const out = defaultPickers() as unknown as Record<string, unknown>
  for (const [k, values] of Object.entries(ENUMS)) if (values.includes(String(raw[k]))) out[k] = raw[k]
  for (const k of LISTS) if (Array.isArray(raw[k])) out[k] = (raw[k] as unknown[]).filter(isIdText)
  for (const k of NULLABLE) if (isIdText(raw[k])) out[k] = raw[k]
  return out as unknown as Pickers
}

/** What is remembered: everything but the date. */
export function rememberable(p: Pickers): Record<string, unknown> {
  const { date: _date, ...rest } = p
  return rest
}

/**
 * The state after a picker changed, with the choices that depended on the old value cleared
 * (spots of another publisher, a region of another level).
 */
export function withChange<K extends keyof Pickers>(p: Pickers, key: K, value: Pickers[K]): Pickers {
  const next = { ...p, [key]: value }
  if (key === 'by_region') next.region_id = null
  if (key === 'by_audience' && value !== 'target') next.target_id = null
  if (key === 'panel_id') next.type_id = []
  return next
}
