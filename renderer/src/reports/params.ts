/**
 * From the pickers to the requests each view sends. A view fixes some parameters (the trend asks
 * for `metrics=day`), takes the rest from the pickers, sends a dependent choice (spots, a target,
 * a region, sdk) only where the API's rules accept it, and says so when a picker's value is not
 * one the report has (keyword is a position of the basic report only).
 */
import type { Params } from '../api/client'
import type { Pickers, ViewKey } from './pickers'
import { allowedValues, choicesOf, defaultOf, dependentProblem, problemOf, takes, type Choice, type ReportId, type ReportParams } from './rules'

/** Pickers that choose a value of an enumerated parameter of the report. */
export const TOP = ['by_position', 'by_audience', 'by_region', 'platform', 'filtration_type', 'metrics'] as const
export type TopName = (typeof TOP)[number]
/** Pickers whose values the API accepts only with some top-level values. */
export const DEPENDENT = ['publisher_id', 'spot_id', 'keyword_id', 'target_id', 'region_id', 'sdk'] as const
export type DependentName = (typeof DEPENDENT)[number]

/** One request of a view. */
export interface ViewRequest {
  id: ReportId
  /** Top-level parameters this view takes from the pickers. */
  top: readonly TopName[]
  /** Parameters the view sets itself. */
  fixed: ReportParams
  /** Values used when the picker's value is not one the report has. */
  fallback?: Partial<Record<TopName, string>>
}

const BASIC_TOP: TopName[] = ['by_position', 'by_audience', 'by_region', 'platform', 'filtration_type']

/** What each view asks (in order; the first request is the view's main one). */
export const VIEW_REQUESTS: Record<ViewKey, readonly ViewRequest[]> = {
  trend: [{ id: 'reports.basic_show', top: BASIC_TOP, fixed: { metrics: 'day' } }],
  hours: [{ id: 'reports.basic_show', top: BASIC_TOP, fixed: { metrics: 'acc_hrs' } }],
  region: [{ id: 'reports.basic_show', top: ['by_position', 'by_audience', 'platform', 'filtration_type', 'metrics'], fixed: {} }],
  reach: [{ id: 'reports.reach_show', top: BASIC_TOP, fixed: { metrics: 'all' } }],
  audience: [
    { id: 'reports.audience_show_overview', top: ['by_position'], fixed: { metrics: 'all' } },
    { id: 'reports.audience_show', top: ['by_position'], fixed: { metrics: 'all' } },
  ],
  minisite: [
    { id: 'reports.basic_show_minisite', top: ['by_position', 'by_audience', 'by_region'], fixed: { metrics: 'all' }, fallback: { by_position: 'campaign' } },
    { id: 'reports.realtime_show_minisite', top: ['by_position'], fixed: { metrics: 'all' }, fallback: { by_position: 'campaign' } },
  ],
  realtime: [{ id: 'reports.realtime_show', top: ['by_position', 'platform'], fixed: { metrics: 'all' } }],
}

/** A remark shown above a view: an i18n key under `reports.note` and its parameters. */
export interface Note {
  key: string
  params: Record<string, string>
}

/** Where the request applies: the campaign, the cut-off date, the engine's today, the minisite. */
export interface RequestEnv {
  campaignId: string
  date: string
  today: string
  minisiteId: string | null
}

/** A request ready to send, or the reason the API would refuse it. */
export interface BuiltRequest {
  id: ReportId
  params: ReportParams
  problem: string | null
  notes: Note[]
}

/** The top-level parameters of a request, each replaced by the report's default when it has no such value. */
export function effectiveTop(p: Pickers, r: ViewRequest): { params: ReportParams; notes: Note[] } {
  const params: ReportParams = {}
  const notes: Note[] = []
  for (const name of r.top) {
    const want = String(p[name])
    const allowed = allowedValues(r.id, name)
    if (allowed.includes(want)) params[name] = want
    else {
      const used = r.fallback?.[name] ?? String(defaultOf(r.id, name))
      params[name] = used
      notes.push({ key: 'notOffered', params: { name, value: want, used } })
    }
  }
  return { params: { ...params, ...r.fixed }, notes }
}

function dependentValue(p: Pickers, name: DependentName): string | readonly string[] | undefined {
  if (name === 'sdk') return p.sdk === 'all' ? undefined : p.sdk
  const v = p[name]
  if (Array.isArray(v)) return v.length ? v : undefined
  return v === null ? undefined : [v as string]
}

/** Builds one request of a view from the pickers. */
export function buildRequest(p: Pickers, r: ViewRequest, env: RequestEnv, view: ViewKey): BuiltRequest {
  const { params, notes } = effectiveTop(p, r)
  const realtime = r.id === 'reports.realtime_show' || r.id === 'reports.realtime_show_minisite'
  params.date = realtime ? env.today : env.date
  if (r.id.includes('minisite')) {
    if (env.minisiteId) params.minisite_id = env.minisiteId
    if (!dependentProblem(r.id, 'campaign_id', params)) params.campaign_id = [env.campaignId]
  } else params.campaign_id = env.campaignId
  if (view === 'region') params.by_region = p.rank_level
  if (r.id.startsWith('reports.audience')) addAudience(p, r, params)
  const problem = problemOf(r.id, params)
  for (const name of DEPENDENT) {
    const value = dependentValue(p, name)
    if (value === undefined || !takes(r.id, name)) continue
    if (view === 'region' && name === 'region_id') continue
    if (!dependentProblem(r.id, name, params, value)) params[name] = value
  }
  return { id: r.id, params, problem, notes }
}

function addAudience(p: Pickers, r: ViewRequest, params: ReportParams): void {
  if (p.panel_id) params.panel_id = [p.panel_id]
  if (r.id === 'reports.audience_show' && p.type_id.length) params.type_id = p.type_id
}

/** Every request of a view. */
export function buildView(p: Pickers, view: ViewKey, env: RequestEnv): BuiltRequest[] {
  return VIEW_REQUESTS[view].map((r) => buildRequest(p, r, env, view))
}

/** The choices of a top-level picker on a view (from its main request), each disabled with the API's reason. */
export function topChoices(p: Pickers, view: ViewKey, name: TopName, env: RequestEnv): Choice[] {
  const r = VIEW_REQUESTS[view][0]!
  const built = buildRequest(p, r, env, view)
  const others: ReportParams = {}
  for (const [k, v] of Object.entries(built.params)) if (!(DEPENDENT as readonly string[]).includes(k)) others[k] = v
  return choicesOf(r.id, name, others)
}

/** Why a dependent picker is not usable on a view with the current choices (the API's reason), or null. */
export function dependentReason(p: Pickers, view: ViewKey, name: DependentName, env: RequestEnv): string | null {
  const r = VIEW_REQUESTS[view][0]!
  const built = buildRequest(p, r, env, view)
  return dependentProblem(r.id, name, built.params, name === 'sdk' ? 'mm' : ['1'])
}

/** Whether a picker applies to a view at all (it is hidden otherwise). */
export function pickerApplies(view: ViewKey, name: TopName | DependentName): boolean {
  if (view === 'region' && (name === 'by_region' || name === 'region_id')) return false
  const dependent = (DEPENDENT as readonly string[]).includes(name)
  return VIEW_REQUESTS[view].some((r) => (dependent ? takes(r.id, name) && dependsOnTop(r, name as DependentName) : (r.top as readonly string[]).includes(name)))
}

function dependsOnTop(r: ViewRequest, name: DependentName): boolean {
  if (name === 'target_id') return r.top.includes('by_audience')
  if (name === 'region_id') return r.top.includes('by_region')
  if (name === 'sdk') return r.top.includes('platform')
  return r.top.includes('by_position')
}

/** The wire form of parameters: lists joined with ',' (spec: ID lists). */
export function toWire(params: ReportParams): Params {
  const out: Params = {}
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(',') : (v as string | number)
  return out
}
