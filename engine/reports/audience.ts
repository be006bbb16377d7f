// spec §4.4 audience/show_overview and audience/show; DESIGN §3.6; metrics.md (audience)
import type { ParamsFor } from '../contract/endpoints'
import { badParam, panelEmptyError } from '../contract/errors'
import type { AudienceReport, ReportAttributes } from '../contract/models-reports'
import { checkAudience } from '../contract/report-rules'
import type { PanelIndex } from '../measure/panel/types'
import { requirePanel, tagTypesOf } from '../storage/repos/reference'
import { calibrate, entryFactors, panelMember, type Calibration, type EntryFactors } from './calibration'
import { audienceMask, window, type ReportEnv } from './env'
import { finish, metricsIn, nullMetrics, type Row } from './items'
import { loadCampaignMeta, type CampaignMeta } from './meta'
import { personCells, type PersonCells } from './persons'
import { positions, selector, type Positions } from './setup'

type Overview = ParamsFor<'reports.audience_show_overview'>
type Show = ParamsFor<'reports.audience_show'>

interface Audience {
  meta: CampaignMeta
  pos: Positions
  panel: PanelIndex
  /** (person, position) -> counts, global region, every platform, net traffic. */
  cells: PersonCells
  /** Calibration factors of each entry of `cells` (impressions, clicks). */
  factors: EntryFactors
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
  // (the pc part of each entry weighs its platforms' factors: split)
  const cells = part ? personCells({
    part, sel: selector(pos, w.from, w.to, { platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' }), personOf: env.personOf(panel), nPos: pos.n,
    homeFirst: new Int32Array(panel.size).fill(0), homeSecond: new Int32Array(panel.size).fill(-1), nRegions: 1, days: false, split: true,
  }) : NO_CELLS
  const factors = entryFactors(k, cells, 3, 1, false)
  return { meta, pos, panel, cells, factors, k }
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
  const names = p.metrics === 'acc' ? ['uim_acc', 'ucl_acc'] : p.metrics === 'spl' ? ['uim_spl', 'ucl_spl'] : ['uim_acc', 'ucl_acc', 'uim_spl', 'ucl_spl']
  const rows: Row[] = []
  if (a.panel) {
    const sums = Array.from({ length: a.pos.n }, () => ({ uim_acc: 0, ucl_acc: 0, uim_spl: 0, ucl_spl: 0 }))
    const c = a.cells
    // persons count with weight x calibration factor (calibration.ts): sums in persons
    for (let j = 0; j < c.n; j++) {
      const s = sums[c.cell[j]!]!
      const units = a.panel.units[c.person[j]!]!
      if (c.impressions[j]! > 0) (s.uim_acc += units * a.factors.imp[j]!, s.uim_spl++)
      if (c.clicks[j]! > 0) (s.ucl_acc += units * a.factors.clk[j]!, s.ucl_spl++)
    }
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

/** Adds a person's weight to slot `at` of `total`, and to each tag they carry in row `at` of `byTag` (set bits only). */
function addPerson(panel: PanelIndex, total: Float64Array, byTag: Float64Array, at: number, person: number, weight: number): void {
  total[at]! += weight
  const T = panel.tagIds.length
  const row = person * panel.tagBytes
  for (let b = 0; b < panel.tagBytes; b++) {
    let bits = panel.tags[row + b]!
    while (bits !== 0) {
      const low = bits & -bits
      byTag[at * T + b * 8 + 31 - Math.clz32(low)]! += weight
      bits ^= low
    }
  }
}

/** The panel's baseline shares (every person), remembered per panel index. */
const baselines = new WeakMap<PanelIndex, Shares>()

function baseline(panel: PanelIndex): Shares {
  let b = baselines.get(panel)
  if (!b) {
    const total = new Float64Array(1)
    const byTag = new Float64Array(panel.tagIds.length)
    for (let person = 0; person < panel.size; person++) addPerson(panel, total, byTag, 0, person, panel.units[person]!)
    baselines.set(panel, (b = { total: total[0]!, byTag }))
  }
  return b
}

/**
 * Shares per position of the persons with an impression, and with a click, each person with
 * weight x calibration factor. Each entry of the person cells is one (person, position), so a
 * person is counted once per position.
 */
function positionShares(a: Audience): { imp: Shares[]; clk: Shares[] } {
  const { panel, cells: c, factors } = a
  const nPos = a.pos.n
  const T = panel.tagIds.length
  const impTotal = new Float64Array(nPos)
  const clkTotal = new Float64Array(nPos)
  const impTags = new Float64Array(nPos * T)
  const clkTags = new Float64Array(nPos * T)
  const impCount = new Uint32Array(nPos)
  const clkCount = new Uint32Array(nPos)
  for (let j = 0; j < c.n; j++) {
    const person = c.person[j]!
    const units = panel.units[person]!
    const at = c.cell[j]!
    if (c.impressions[j]! > 0) (addPerson(panel, impTotal, impTags, at, person, units * factors.imp[j]!), impCount[at]!++)
    if (c.clicks[j]! > 0) (addPerson(panel, clkTotal, clkTags, at, person, units * factors.clk[j]!), clkCount[at]!++)
  }
  const of = (total: Float64Array, tags: Float64Array, count: Uint32Array) => Array.from({ length: nPos }, (_, i) => ({ total: total[i]!, byTag: tags.subarray(i * T, (i + 1) * T), persons: count[i]! }))
  return { imp: of(impTotal, impTags, impCount), clk: of(clkTotal, clkTags, clkCount) }
}

export function audienceShow(env: ReportEnv, p: Show): AudienceReport {
  const a = exposed(env, p)
  const names = p.metrics === 'pct' ? ['uim_pct', 'ucl_pct'] : p.metrics === 'idx' ? ['uim_idx', 'ucl_idx'] : ['uim_pct', 'ucl_pct', 'uim_idx', 'ucl_idx']
  const rows: Row[] = []
  // tag types of the panel reported, or of those panel_id names when it leaves the campaign's out
  const typesOf = a.panel ? [a.panel.panelId] : (p.panel_id ?? [a.meta.panel_id])
  const known = new Set(typesOf.flatMap((id) => tagTypesOf(env.db, id)))
  for (const t of p.type_id ?? []) if (!known.has(t)) throw badParam('type_id', `'${t}' is not a tag type of panel ${typesOf.join(', ')} (see /cms/v1/panels/show)`)
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
