// spec §4.4 reach/show; DESIGN §3.6; metrics.md (reach, GRP, samples are panel projections, calibrated to the census)
import { wholeWeight } from '../measure/panel/index'
import type { ParamsFor } from '../contract/endpoints'
import { panelEmptyError } from '../contract/errors'
import { familyNames, metricNames } from '../contract/metrics-catalogue'
import type { BasicReport, ReportAttributes } from '../contract/models-reports'
import { checkReachShow } from '../contract/report-rules'
import type { PanelIndex, TargetMatcher } from '../measure/panel/types'
import { audienceMask, homeCells, universes, type ReportEnv } from './env'
import { calibrate, panelMember, type Calibration } from './calibration'
import { finish, metricsIn, nullMetrics, type Row } from './items'
import { personCells, type PersonCells } from './persons'
import { campaignScope, checkAnswerRows, chosenTargets, selector } from './setup'
import { sameValues } from './same-values'

type P = ParamsFor<'reports.reach_show'>

const RCH_ACC = familyNames('rch_acc_pNN')
const SPL = [...metricNames('reach', 'spl')]
const ACC = [...metricNames('reach', 'acc')]

export function reachShow(env: ReportEnv, p: P): BasicReport {
  checkReachShow(p)
  const { meta, part, pos, cells, nR, w, platforms, panel } = campaignScope(env, p)
  if (!panel) throw panelEmptyError(meta.panel_id)
  const names = p.metrics === 'acc' ? ACC : p.metrics === 'spl' ? SPL : [...ACC, ...SPL]
  const targets = chosenTargets(meta, p.target_id)
  const shape = { positions: pos.n, regions: nR, audiences: p.by_audience === 'target' ? targets.length : 1 }
  if (p.with_null) checkAnswerRows(shape.positions * shape.regions * shape.audiences, shape)
  const rows: Row[] = []
  const k = calibrate(env, panel, { part, pos, w, platforms, sdk: 0, filtration: p.filtration_type, audience: audienceMask(env, panel, platforms) })
  const { homeFirst, homeSecond } = homeCells(panel, cells.first, cells.second)
  const rules = { platforms, sdk: 0, stableOnly: p.by_audience === 'stable', filtration: p.filtration_type }
  // with both platforms, the pc part of each entry weighs its platforms' factors (split)
  const byCell = part ? personCells({ part, sel: selector(pos, w.from, w.to, rules), personOf: env.personOf(panel), nPos: pos.n, homeFirst, homeSecond, nRegions: nR, days: false, split: platforms === 3 }) : null
  const audiences: { extra: Partial<ReportAttributes>; matcher?: TargetMatcher }[] = p.by_audience === 'target'
    ? targets.map((t) => ({ extra: { target_id: String(t.target_id) }, matcher: env.matcher(panel, String(t.target_id), t.tag_id) }))
    : [{ extra: {} }]
  for (const a of audiences) rows.push(...audienceRows(env, panel, byCell, k, a, { pos, cells, nR, platforms, names, audience: p.by_audience, withNull: p.with_null }))
  checkAnswerRows(rows.length, shape)
  const attributeNames = ['audience', ...(p.by_audience === 'target' ? ['target_id'] : []), ...(p.by_position !== 'campaign' ? ['publisher_id'] : []),
    ...(p.by_position === 'spot' ? ['spot_id', 'spot_id_str'] : []), 'region_id', 'universe']
  return {
    campaign_id: meta.campaign_id, date: p.date, version: 'V1.0', platform: p.platform, total_spot_num: pos.totalSpots, panel: panelMember(meta.panel_id, panel, k),
    items: finish(rows, { withNull: p.with_null, order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames }),
  }
}

interface Shape {
  pos: { n: number; attrs: Partial<ReportAttributes>[] }
  cells: { ids: string[]; first: Int32Array; second: Int32Array }
  nR: number
  platforms: number
  names: string[]
  audience: 'overall' | 'stable' | 'target'
  withNull: boolean
}

/** Buckets of a cell's persons by impressions: 0, 1, ..., 9 and 10 or more. */
const BUCKETS = 11

/**
 * Per cell, the sums of the persons of `inCell` that calibration turns into projections, split by
 * platform so that they do not depend on the factors: a person's calibrated weight is units x
 * (kPc x share + kMb x (1 - share)), share the part of their impressions on pc, and their projected
 * impressions units x (kPc x pc + kMb x mobile); both are linear in the factors, which are applied
 * per cell (audienceRows). So the sums are kept per person-cells result while the census (and the
 * factors with it) changes.
 */
interface CellSums {
  /** Weight units x impressions, on pc and on mobile. */
  impPc: Float64Array
  impMb: Float64Array
  /** Per cell and bucket (persons by impressions): weight units x share on pc, and on mobile. */
  wPc: Float64Array
  wMb: Float64Array
  counted: Uint32Array
}

function cellSums(panel: PanelIndex, byCell: PersonCells | null, platforms: number, inCell: Uint8Array, nCells: number): CellSums {
  const kept = byCell ? keptSums.get(byCell)?.find((k) => k.nCells === nCells && k.platforms === platforms && k.units === panel.units && sameValues(k.inCell, inCell)) : undefined
  if (kept) return kept.sums
  const sums: CellSums = { impPc: new Float64Array(nCells), impMb: new Float64Array(nCells), wPc: new Float64Array(nCells * BUCKETS), wMb: new Float64Array(nCells * BUCKETS), counted: new Uint32Array(nCells * BUCKETS) }
  const both = platforms === 3
  for (let j = 0; j < (byCell?.n ?? 0); j++) {
    const person = byCell!.person[j]!
    if (inCell[person] !== 1) continue
    const units = panel.units[person]!
    const cell = byCell!.cell[j]!
    const imps = byCell!.impressions[j]!
    // (one platform: every impression is on it)
    const pc = both ? byCell!.impPc[j]! : platforms === 1 ? imps : 0
    sums.impPc[cell]! += units * pc
    sums.impMb[cell]! += units * (imps - pc)
    const b = cell * BUCKETS + (imps < BUCKETS - 1 ? imps : BUCKETS - 1)
    const share = imps > 0 ? pc / imps : 0
    sums.wPc[b]! += units * share
    sums.wMb[b]! += units * (1 - share)
    sums.counted[b]!++
  }
  if (byCell) {
    const list = keptSums.get(byCell) ?? []
    // (one a target of the answer, and the overall audience)
    if (list.length >= 16) list.shift()
    list.push({ nCells, platforms, units: panel.units, inCell: inCell.slice(), sums })
    keptSums.set(byCell, list)
  }
  return sums
}

/** cellSums kept per person-cells result (kept itself while no panel person's event changes it). */
const keptSums = new WeakMap<PersonCells, { nCells: number; platforms: number; units: Float64Array; inCell: Uint8Array; sums: CellSums }[]>()

function audienceRows(env: ReportEnv, panel: PanelIndex, byCell: PersonCells | null, k: Calibration, a: { extra: Partial<ReportAttributes>; matcher?: TargetMatcher }, s: Shape): Row[] {
  const inCell = audienceMask(env, panel, s.platforms, a.matcher)
  const u = universes(panel, { first: s.cells.first, second: s.cells.second, n: s.nR }, inCell)!
  // Per cell: projected impressions, and projected and counted persons by how many impressions
  // they had (capped at 10): reach n+ is then the sum of the buckets from n up, one addition per
  // entry instead of one per n. A person counts with weight x their calibration factor, so the
  // sums are in persons (impressions), not in weight units.
  const { impPc, impMb, wPc, wMb, counted } = cellSums(panel, byCell, s.platforms, inCell, s.pos.n * s.nR)
  const rows: Row[] = []
  for (let i = 0; i < s.pos.n; i++) for (let c = 0; c < s.nR; c++) {
    const cell = i * s.nR + c
    const kPc = k.imp[i * 2]!
    const kMb = k.imp[i * 2 + 1]!
    const imps = kPc * impPc[cell]! + kMb * impMb[cell]!
    const universe = u[c]! / panel.unit
    const m: Record<string, number | null> = {
      imp_acc: Math.round(imps),
      // GRP = 100 x projected impressions / universe; null when the cell has no universe
      grp_acc: universe > 0 ? Math.round((100 * imps) / universe) : null,
    }
    // reach n+ and its sample: the buckets from n up (metricsIn puts them in the names' order);
    // reach is capped at the universe (calibration may raise a person's weight)
    let reach = 0
    let sample = 0
    for (let n = 10; n >= 1; n--) {
      reach += kPc * wPc[cell * BUCKETS + n]! + kMb * wMb[cell * BUCKETS + n]!
      sample += counted[cell * BUCKETS + n]!
      m[RCH_ACC[n - 1]!] = Math.round(Math.min(reach, universe))
      m[SPL[n - 1]!] = sample
    }
    const seen = sample > 0
    if (!seen && !s.withNull) continue
    rows.push({
      attributes: { audience: s.audience, ...a.extra, ...s.pos.attrs[i], region_id: s.cells.ids[c]!, universe: wholeWeight(u[c]!, panel.unit) },
      metrics: seen ? metricsIn(s.names, m) : nullMetrics(s.names),
      hasData: seen,
    })
  }
  return rows
}
