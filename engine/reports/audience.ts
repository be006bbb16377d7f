// spec §4.4 audience/show_overview and audience/show; DESIGN §3.6; metrics.md (audience)
import type { ParamsFor } from '../contract/endpoints'
import { badParam } from '../contract/errors'
import type { AudienceReport, ReportAttributes } from '../contract/models-reports'
import { checkAudience } from '../contract/report-rules'
import type { PanelIndex } from '../measure/panel/types'
import { window, type ReportEnv } from './env'
import { finish, nullMetrics, type Row } from './items'
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
}

/** The exposed persons of the campaign's panel per position (panel_id filters which panels). */
function exposed(env: ReportEnv, p: Overview | Show): Audience | { meta: CampaignMeta; pos: Positions; panel: null } {
  checkAudience(p)
  const meta = loadCampaignMeta(env.db, p.campaign_id, env.today)
  const part = env.columns.campaign(meta.campaign_id)
  // limit pages the rows (finish), not the spots
  const pos = positions(meta, p.by_position, { publisher_id: p.publisher_id, spot_id: p.spot_id })
  const panel = !p.panel_id || p.panel_id.includes(meta.panel_id) ? env.panel(meta.panel_id) : null
  if (!panel || !part) return { meta, pos, panel: null }
  const w = window(meta, p.date)
  const sel = selector(pos, w.from, w.to, { platforms: 3, sdk: 0, stableOnly: false, filtration: 'net' })
  const cells = personCells({
    part, sel, personOf: env.personOf(panel), nPos: pos.n, homeFirst: new Int32Array(panel.size).fill(0), homeSecond: new Int32Array(panel.size).fill(-1), nRegions: 1,
  })
  return { meta, pos, panel, cells }
}

const positionNames = (by: string) => [...(by !== 'campaign' ? ['publisher_id'] : []), ...(by === 'spot' ? ['spot_id', 'spot_id_str'] : [])]

export function audienceOverview(env: ReportEnv, p: Overview): AudienceReport {
  const a = exposed(env, p)
  const names = p.metrics === 'acc' ? ['uim_acc', 'ucl_acc'] : p.metrics === 'spl' ? ['uim_spl', 'ucl_spl'] : ['uim_acc', 'ucl_acc', 'uim_spl', 'ucl_spl']
  const rows: Row[] = []
  if (a.panel) {
    const sums = Array.from({ length: a.pos.n }, () => ({ uim_acc: 0, ucl_acc: 0, uim_spl: 0, ucl_spl: 0 }))
    const c = a.cells
    for (let j = 0; j < c.n; j++) {
      const s = sums[c.cell[j]!]!
      const weight = a.panel.weight[c.person[j]!]!
      if (c.impressions[j]! > 0) (s.uim_acc += weight, s.uim_spl++)
      if (c.clicks[j]! > 0) (s.ucl_acc += weight, s.ucl_spl++)
    }
    sums.forEach((s, i) => {
      const seen = s.uim_spl > 0 || s.ucl_spl > 0
      const m: Record<string, number> = { uim_acc: Math.round(s.uim_acc), ucl_acc: Math.round(s.ucl_acc), uim_spl: s.uim_spl, ucl_spl: s.ucl_spl }
      rows.push({ attributes: { panel_id: a.panel!.panelId, ...a.pos.attrs[i] }, metrics: seen ? Object.fromEntries(names.map((n) => [n, m[n]!])) : nullMetrics(names), hasData: seen })
    })
  }
  return {
    campaign_id: a.meta.campaign_id, date: p.date, version: 'V1.0',
    items: finish(rows, { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames: ['panel_id', ...positionNames(p.by_position)], rows: p.limit }),
  }
}

/** Weighted share of each tag among `persons` (person -> weight), and the total weight. */
function shares(panel: PanelIndex, persons: Map<number, number>): { total: number; byTag: Float64Array } {
  const byTag = new Float64Array(panel.tagIds.length)
  let total = 0
  for (const [person, weight] of persons) {
    total += weight
    for (let t = 0; t < panel.tagIds.length; t++) if ((panel.tags[person * panel.tagBytes + (t >> 3)]! >> (t & 7)) & 1) byTag[t]! += weight
  }
  return { total, byTag }
}

export function audienceShow(env: ReportEnv, p: Show): AudienceReport {
  const a = exposed(env, p)
  const names = p.metrics === 'pct' ? ['uim_pct', 'ucl_pct'] : p.metrics === 'idx' ? ['uim_idx', 'ucl_idx'] : ['uim_pct', 'ucl_pct', 'uim_idx', 'ucl_idx']
  const rows: Row[] = []
  if (a.panel) {
    const panel = a.panel
    const known = new Set(panel.tagTypes)
    for (const t of p.type_id ?? []) if (!known.has(t)) throw badParam('type_id', `'${t}' is not a tag type of panel ${panel.panelId} (see /cms/v1/panels/show)`)
    const everyone = new Map(Array.from({ length: panel.size }, (_, i) => [i, panel.weight[i]!]))
    const base = shares(panel, everyone)
    const imp = Array.from({ length: a.pos.n }, () => new Map<number, number>())
    const clk = Array.from({ length: a.pos.n }, () => new Map<number, number>())
    const c = a.cells
    for (let j = 0; j < c.n; j++) {
      if (c.impressions[j]! > 0) imp[c.cell[j]!]!.set(c.person[j]!, panel.weight[c.person[j]!]!)
      if (c.clicks[j]! > 0) clk[c.cell[j]!]!.set(c.person[j]!, panel.weight[c.person[j]!]!)
    }
    for (let i = 0; i < a.pos.n; i++) rows.push(...tagRows(panel, a.pos.attrs[i]!, shares(panel, imp[i]!), shares(panel, clk[i]!), base, names, p.type_id))
  }
  return {
    campaign_id: a.meta.campaign_id, date: p.date, version: 'V1.0',
    items: finish(rows, { order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames: ['panel_id', 'tag_id', ...positionNames(p.by_position)], rows: p.limit }),
  }
}

type Shares = ReturnType<typeof shares>

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
    rows.push({ attributes: { panel_id: panel.panelId, tag_id: tag, ...attrs }, metrics: seen ? Object.fromEntries(names.map((n) => [n, m[n] ?? null])) : nullMetrics(names), hasData: seen })
  })
  return rows
}
