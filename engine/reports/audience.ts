// spec §4.4 audience/show_overview and audience/show; DESIGN §3.6; metrics.md (audience)
import type { ParamsFor } from '../contract/endpoints'
import { badRequest, panelEmptyError } from '../contract/errors'
import { metricNames } from '../contract/metrics-catalogue'
import type { AudienceReport, ReportAttributes } from '../contract/models-reports'
import { checkAudience } from '../contract/report-rules'
import type { PanelIndex } from '../measure/panel/types'
import { requirePanel, tagTypesOf } from '../storage/repos/reference'
import { calibrate, panelMember, type Calibration } from './calibration'
import { audienceMask, window, type ReportEnv } from './env'
import { finish, metricsIn, nullMetrics, type Row } from './items'
import { loadCampaignMeta, type CampaignMeta } from './meta'
import { personCells, type PersonCells } from './persons'
import { positionSums, tagsOf, type Split } from './position-sums'
import { positions, selector, type Positions } from './setup'

type Overview = ParamsFor<'reports.audience_show_overview'>
type Show = ParamsFor<'reports.audience_show'>

interface Audience {
  meta: CampaignMeta
  pos: Positions
  panel: PanelIndex
  /** (person, position) -> counts, global region, every platform, net traffic, with their pc part. */
  cells: PersonCells
  k: Calibration
}

type NoPanel = { meta: CampaignMeta; pos: Positions; panel: null }

/** The exposed persons of the campaign's panel per position (panel_id filters which panels). */
function exposed(env: ReportEnv, p: Overview | Show): Audience | NoPanel {
  checkAudience(p)
  const meta = loadCampaignMeta(env.db, p.campaign_id, env.today)
  // (a panel_id naming no panel is a mistake, not a filter that keeps nothing)
  for (const id of p.panel_id ?? []) requirePanel(env.db, id)
  const part = env.columns.campaign(meta.campaign_id)
  // limit pages the rows (finish), not the spots
  const pos = positions(meta, p.by_position, { publisher_id: p.publisher_id, spot_id: p.spot_id })
  const chosen = !p.panel_id || p.panel_id.includes(meta.panel_id)
  const panel = chosen ? env.panel(meta.panel_id) : null
  if (chosen && !panel) throw panelEmptyError(meta.panel_id)
  if (!panel) return { meta, pos, panel: null }
  const w = window(meta, p.date)
  const k = calibrate(env, panel, { part, pos, w, platforms: 3, sdk: 0, filtration: 'net', audience: audienceMask(env, panel, 3) })
  // (the pc part of each entry weighs its platforms' factors: split, positionSums)
  const cells = part ? personCells({
    part, sel: selector(pos, w.from, w.to, { platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' }), personOf: env.personOf(panel), nPos: pos.n,
    homeFirst: new Int32Array(panel.size).fill(0), homeSecond: new Int32Array(panel.size).fill(-1), nRegions: 1, days: false, split: true,
  }) : NO_CELLS
  return { meta, pos, panel, cells, k }
}

/** Person cells of a campaign without events. */
const NO_CELLS: PersonCells = {
  n: 0, person: new Int32Array(0), cell: new Int32Array(0), impressions: new Uint32Array(0), clicks: new Uint32Array(0), impressionsOnDay: new Uint32Array(0),
  clicksOnDay: new Uint32Array(0), impDays: new Uint32Array(0), clkDays: new Uint32Array(0), impHours: new Uint32Array(0), clkHours: new Uint32Array(0),
  impPc: new Uint32Array(0), clkPc: new Uint32Array(0), pcImpHours: new Uint32Array(0), pcClkHours: new Uint32Array(0),
}

/** The weight (persons) of the panel's persons with a device: the most an audience figure projects to. */
const reachable = (panel: PanelIndex): number => {
  let u = 0
  for (let i = 0; i < panel.size; i++) if (panel.platforms[i] !== 0) u += panel.units[i]!
  return u / panel.unit
}

/** The answer's panel member; none when panel_id leaves the campaign's panel out. */
const panelOf = (a: Audience | NoPanel) => (a.panel ? { panel: panelMember(a.meta.panel_id, a.panel, a.k) } : {})

const positionNames = (by: string) => [...(by !== 'campaign' ? ['publisher_id'] : []), ...(by === 'spot' ? ['spot_id', 'spot_id_str'] : [])]

export function audienceOverview(env: ReportEnv, p: Overview): AudienceReport {
  const a = exposed(env, p)
  const names = [...metricNames('audience_overview', p.metrics === 'all' ? undefined : p.metrics)]
  const rows: Row[] = []
  if (a.panel) {
    // persons count with weight x calibration factor (calibration.ts): sums in persons
    const x = positionSums(a.panel, a.cells, a.pos.n, false)
    const sums = Array.from({ length: a.pos.n }, (_, i) => ({
      uim_acc: a.k.imp[i * 2]! * x.imp.pc[i]! + a.k.imp[i * 2 + 1]! * x.imp.mb[i]!, ucl_acc: a.k.clk[i * 2]! * x.clk.pc[i]! + a.k.clk[i * 2 + 1]! * x.clk.mb[i]!,
      uim_spl: x.impCount[i]!, ucl_spl: x.clkCount[i]!,
    }))
    const most = reachable(a.panel)
    sums.forEach((s, i) => {
      const seen = s.uim_spl > 0 || s.ucl_spl > 0
      const m: Record<string, number> = { uim_acc: Math.round(Math.min(s.uim_acc, most)), ucl_acc: Math.round(Math.min(s.ucl_acc, most)), uim_spl: s.uim_spl, ucl_spl: s.ucl_spl }
      rows.push({ attributes: { panel_id: a.panel!.panelId, ...a.pos.attrs[i] }, metrics: seen ? metricsIn(names, m) : nullMetrics(names), hasData: seen, base: { uim: s.uim_spl, ucl: s.ucl_spl } })
    })
  }
  return {
    campaign_id: a.meta.campaign_id, date: p.date, version: 'V1.0', ...panelOf(a),
    items: finish(rows, { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames: ['panel_id', ...positionNames(p.by_position)], rows: p.limit }),
  }
}

interface Shares {
  total: number
  /** Persons counted (unweighted): the base of the shares. */
  persons?: number
  /** Weight (in the panel's units) of the persons carrying each tag (tagIds order). */
  byTag: Float64Array
}

/** The panel's baseline shares (every person), remembered per panel index. */
const baselines = new WeakMap<PanelIndex, Shares>()

function baseline(panel: PanelIndex): Shares {
  let b = baselines.get(panel)
  if (!b) {
    let total = 0
    const byTag = new Float64Array(panel.tagIds.length)
    const tags = new Int32Array(panel.tagBytes * 8)
    for (let person = 0; person < panel.size; person++) {
      const weight = panel.units[person]!
      total += weight
      for (let i = 0, n = tagsOf(panel, person, tags); i < n; i++) byTag[tags[i]!]! += weight
    }
    baselines.set(panel, (b = { total, byTag }))
  }
  return b
}

/** The shares of each position: the position sums with the calibration factors applied. */
function positionShares(a: Audience): { imp: Shares[]; clk: Shares[] } {
  const T = a.panel.tagIds.length
  const x = positionSums(a.panel, a.cells, a.pos.n, true)
  const of = (s: Split, tags: Split, count: Uint32Array, k: Float64Array): Shares[] => Array.from({ length: a.pos.n }, (_, i) => {
    const [kPc, kMb] = [k[i * 2]!, k[i * 2 + 1]!]
    const byTag = new Float64Array(T)
    for (let t = 0; t < T; t++) byTag[t] = kPc * tags.pc[i * T + t]! + kMb * tags.mb[i * T + t]!
    return { total: kPc * s.pc[i]! + kMb * s.mb[i]!, byTag, persons: count[i]! }
  })
  return { imp: of(x.imp, x.impTags!, x.impCount, a.k.imp), clk: of(x.clk, x.clkTags!, x.clkCount, a.k.clk) }
}

export function audienceShow(env: ReportEnv, p: Show): AudienceReport {
  const a = exposed(env, p)
  const names = [...metricNames('audience', p.metrics === 'all' ? undefined : p.metrics)]
  const rows: Row[] = []
  // tag types of the panel reported, or of those panel_id names when it leaves the campaign's out
  const typesOf = a.panel ? [a.panel.panelId] : (p.panel_id ?? [a.meta.panel_id])
  const known = new Set(typesOf.flatMap((id) => tagTypesOf(env.db, id)))
  for (const t of p.type_id ?? []) if (!known.has(t)) throw badRequest('report.notTagType', { param: 'type_id', value: t, types: typesOf.join(', ') })
  if (a.panel) {
    const panel = a.panel
    const base = baseline(panel)
    const { imp, clk } = positionShares(a)
    for (let i = 0; i < a.pos.n; i++) rows.push(...tagRows(panel, a.pos.attrs[i]!, imp[i]!, clk[i]!, base, names, p.type_id))
  }
  return {
    campaign_id: a.meta.campaign_id, date: p.date, version: 'V1.0', ...panelOf(a),
    items: finish(rows, { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames: ['panel_id', 'tag_id', ...positionNames(p.by_position)], rows: p.limit }),
  }
}

function tagRows(panel: PanelIndex, attrs: Partial<ReportAttributes>, imp: Shares, clk: Shares, base: Shares, names: string[], types?: string[]): Row[] {
  const pct = (s: Shares, t: number) => (s.total > 0 ? (100 * s.byTag[t]!) / s.total : null)
  const idx = (s: Shares, t: number) => {
    const share = pct(s, t)
    const b = base.total > 0 ? (100 * base.byTag[t]!) / base.total : 0
    return share === null || b === 0 ? null : Math.round((100 * share) / b)
  }
  const rows: Row[] = []
  panel.tagIds.forEach((tag, t) => {
    if (types && !types.includes(panel.tagTypes[t]!)) return
    const up = pct(imp, t)
    const cp = pct(clk, t)
    const m: Record<string, number | null> = { uim_pct: up === null ? null : Math.round(up), ucl_pct: cp === null ? null : Math.round(cp), uim_idx: idx(imp, t), ucl_idx: idx(clk, t) }
    const seen = imp.total > 0 || clk.total > 0
    rows.push({ attributes: { panel_id: panel.panelId, tag_id: tag, ...attrs }, metrics: seen ? metricsIn(names, m) : nullMetrics(names), hasData: seen, base: { uim: imp.persons ?? 0, ucl: clk.persons ?? 0 } })
  })
  return rows
}
