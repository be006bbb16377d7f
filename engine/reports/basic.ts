// spec §4.4 basic/show; metrics.md for every figure
import { wholeWeight } from '../measure/panel/index'
import type { ParamsFor } from '../contract/endpoints'
import { badRequest, panelEmptyError } from '../contract/errors'
import { metricNames as catalogueNames } from '../contract/metrics-catalogue'
import type { BasicReport, ReportAttributes } from '../contract/models-reports'
import { checkBasicShow } from '../contract/report-rules'
import { SDK } from '../measure/types'
import type { JsonParts } from '../answers'
import { dayNumber } from '../time-zone'
import type { CensusResult } from './census'
import { DayCensuses } from './census-days'
import { audienceMask, homeCells, universes, type ReportEnv } from './env'
import { CellRow, LazyMetrics, finish, itemRoom, metricsIn, nullMetrics, reportJson, type CellRows, type Row } from './items'
import { cellBytes, type KeptItems } from './kept-bytes'
import { censusItems } from './kept-items'
import { calibrate, entryFactors, panelMember, projectCalibrated, type Calibration } from './calibration'
import { emptyProjection, personCells, type Projection } from './persons'
import { campaignScope, checkAnswerRows, chosenTargets, MAX_ANSWER_ROWS, selector } from './setup'

type P = ParamsFor<'reports.basic_show'>

// (the metric lists of the catalogue: its order is the answers' key order)
const ACC = [...catalogueNames('basic', 'acc')]
const DAY = [...catalogueNames('basic', 'day')]
const AVG = [...catalogueNames('basic', 'avg_day')]
const HRS = [...catalogueNames('basic', 'acc_hrs')]

function metricNames(p: P): string[] {
  const day = p.by_audience === 'target' ? [] : DAY
  switch (p.metrics) {
    case 'acc': return ACC
    case 'day': return DAY
    case 'avg_day': return AVG
    case 'acc_hrs': return HRS
    default: return [...ACC, ...day, ...AVG, ...HRS]
  }
}

function attributeNames(p: P): string[] {
  const pos = p.by_position
  return [
    'audience', ...(p.by_audience === 'target' ? ['target_id'] : []),
    ...(pos !== 'campaign' ? ['publisher_id'] : []), ...(pos === 'spot' || pos === 'keyword' ? ['spot_id', 'spot_id_str'] : []),
    ...(pos === 'keyword' ? ['keyword_id'] : []), 'region_id', 'universe',
  ]
}

const avg = (total: number, days: number) => (days > 0 ? Math.round(total / days) : 0)

/** The census metrics (metrics.md): a code per name, read by one function (no closure per metric). */
const CENSUS_CODES = [...ACC, ...DAY, ...AVG]
/** Codes of the hour metrics: IMP_HOUR + h, CLK_HOUR + h. */
const IMP_HOUR = 100
const CLK_HOUR = 200

function censusCode(name: string): number {
  const hour = /^(imp|clk)_acc_h(\d\d)$/.exec(name)
  if (hour) return (hour[1] === 'imp' ? IMP_HOUR : CLK_HOUR) + Number(hour[2])
  const k = CENSUS_CODES.indexOf(name)
  if (k < 0) throw new Error(`basic/show has no census metric '${name}'`)
  return k
}

/** The value of metric `code` of cell `c`. */
function censusValue(r: CensusResult, c: number, days: number, code: number): number {
  if (code >= CLK_HOUR) return r.clkHour[c * 24 + code - CLK_HOUR]!
  if (code >= IMP_HOUR) return r.impHour[c * 24 + code - IMP_HOUR]!
  switch (code) {
    case 0: return r.imp[c]!
    case 1: return r.clk[c]!
    case 2: return r.uim[c]!
    case 3: return r.ucl[c]!
    case 4: return r.impDay[c]!
    case 5: return r.clkDay[c]!
    case 6: return r.uimDay[c]!
    case 7: return r.uclDay[c]!
    case 8: return avg(r.imp[c]!, days)
    case 9: return avg(r.clk[c]!, days)
    case 10: return avg(r.uimDays[c]!, days)
    default: return avg(r.uclDays[c]!, days)
  }
}

/**
 * Metric values of census cells, in the order of `names`, computed from the census when the
 * answer is serialized (items.ts LazyMetrics), never built as a larger object and picked from.
 */
function censusMetrics(names: readonly string[], r: CensusResult, days: number): (cell: number) => LazyMetrics {
  const codes = Int32Array.from(names, censusCode)
  return (cell) => new LazyMetrics(names, (k) => censusValue(r, cell, days, codes[k]!))
}

/**
 * Metric values of a projected (target audience) cell: every figure rounded to an integer, from
 * calibrated sums in persons (calibration.ts).
 */
function projectedMetrics(x: Projection, days: number, names: readonly string[]): Record<string, number | null> {
  const all: Record<string, number> = {
    imp_acc: Math.round(x.impressions), clk_acc: Math.round(x.clicks), uim_acc: Math.round(x.reach[0]!), ucl_acc: Math.round(x.clickers),
    imp_avg_day: avg(x.impressions, days), clk_avg_day: avg(x.clicks, days), uim_avg_day: avg(x.impPersonDays, days), ucl_avg_day: avg(x.clkPersonDays, days),
  }
  for (let h = 0; h < 24; h++) {
    all[HRS[h]!] = Math.round(x.impHours[h]!)
    all[HRS[24 + h]!] = Math.round(x.clkHours[h]!)
  }
  return metricsIn(names, all)
}

/** basic/show's answer; `counted`, when given, has the answer's rows added to it. */
export function basicShow(env: ReportEnv, p: P, counted?: { rows: number }): JsonParts<BasicReport> {
  checkBasicShow(p)
  const { meta, part, pos, cells, nR, w, platforms, panel } = campaignScope(env, p)
  const names = metricNames(p)
  // one record for every row without data (they serialize alike)
  const nulls = nullMetrics(names)
  const rows: Row[] = []
  const keywordsEmpty = p.by_position === 'keyword' && p.by_audience !== 'overall'
  const cellDef = { first: cells.first, second: cells.second, n: nR }
  const targets = chosenTargets(meta, p.target_id)
  const shape = { positions: pos.n, regions: nR, audiences: p.by_audience === 'target' ? targets.length : 1 }
  if (p.with_null && !keywordsEmpty) checkAnswerRows(shape.positions * shape.regions * shape.audiences, shape)
  // universes are in the panel's weight units; without a panel every universe is 0
  const attrsOf = (i: number, r: number, extra: Partial<ReportAttributes>, universe: Float64Array | null): ReportAttributes => ({
    audience: p.by_audience, ...extra, ...pos.attrs[i], region_id: cells.ids[r]!, universe: universe ? wholeWeight(universe[r]!, panel!.unit) : 0,
  })
  const finished = (all: Row[]) => {
    checkAnswerRows(all.length, shape)
    return finish(all, { withNull: p.with_null, order_asc: p.order_asc, order_desc: p.order_desc, metricNames: names, attributeNames: attributeNames(p) })
  }
  let k: Calibration | undefined
  let kept: KeptItems | null = null
  if (p.by_audience !== 'target' && !keywordsEmpty) {
    const u = panel ? universes(panel, cellDef, audienceMask(env, panel, platforms)) : null
    const sel = selector(pos, w.from, w.to, { platforms, sdk: sdkCode(p.sdk), stableOnly: p.by_audience === 'stable', filtration: p.filtration_type })
    const r = part ? env.census({
      part, identities: env.identities.size, sel, day: w.day, nPos: pos.n, nRegions: nR,
      regionFirst: cells.first, regionSecond: cells.second, uniques: names.some((n) => n.startsWith('u')), averages: names.includes('uim_avg_day'),
    }) : null
    // The rows of counted cells (CellRow): the text of a cell's item is kept with the census and
    // written again only when the cell changes; the key is everything else the text depends on:
    // metric names, day count (averages) and what attrsOf makes the attributes of: the universes
    // as written (the same units make other universes under another panel's unit).
    const key = JSON.stringify([names, w.days, p.by_audience, pos.attrs, cells.ids, u ? Array.from(u, (x) => wholeWeight(x, panel!.unit)) : null])
    const cellRows: CellRows | null = r ? { attributes: (i, c) => attrsOf(i, c, {}, u), metrics: censusMetrics(names, r, w.days), kept: cellBytes(r, key), room: itemRoom(names) } : null
    const push = () => {
      for (let i = 0; i < pos.n; i++) for (let c = 0; c < nR; c++) {
        const cell = i * nR + c
        if (r !== null && r.seen[cell] === 1) rows.push(new CellRow(cellRows!, i, c, cell))
        else if (p.with_null) rows.push({ attributes: attrsOf(i, c, {}, u), metrics: nulls, hasData: false })
      }
    }
    // the items text kept with the cells' (kept-items.ts), while the counts allow
    const inCellOrder = !p.with_null && (p.order_asc ?? p.order_desc) === undefined
    if (r && cellRows) kept = censusItems(r, cellRows, nR, JSON.stringify([p.with_null, p.order_asc, p.order_desc]), inCellOrder, () => (push(), finished(rows)))
    else push()
  } else if (p.by_audience === 'target' && !panel) {
    throw panelEmptyError(meta.panel_id)
  } else if (!keywordsEmpty && panel) {
    const { homeFirst, homeSecond } = homeCells(panel, cells.first, cells.second)
    const sdk = sdkCode(p.sdk)
    k = calibrate(env, panel, { part, pos, w, platforms, sdk, filtration: p.filtration_type, audience: audienceMask(env, panel, platforms) })
    const rules = { platforms, sdk, stableOnly: false, filtration: p.filtration_type }
    // with both platforms, the pc part of each entry weighs its platforms' factors (split), and
    // its hours split hour metrics by platform
    const hourly = names.some((n) => n.includes('_acc_h'))
    const byCell = part ? personCells({ part, sel: selector(pos, w.from, w.to, rules), personOf: env.personOf(panel), nPos: pos.n, nRegions: nR, homeFirst, homeSecond, hours: true, split: platforms === 3, splitHours: hourly }) : null
    const factors = byCell ? entryFactors(k, byCell, platforms, nR, hourly) : null
    for (const t of targets) {
      const matcher = env.matcher(panel, String(t.target_id), t.tag_id)
      const inTarget = audienceMask(env, panel, platforms, matcher)
      const u = universes(panel, cellDef, inTarget)!
      const proj = Array.from({ length: pos.n * nR }, () => emptyProjection())
      for (let j = 0; j < (byCell?.n ?? 0); j++) {
        const person = byCell!.person[j]!
        const cell = byCell!.cell[j]!
        if (inTarget[person] === 1) projectCalibrated(proj[cell]!, byCell!, j, panel.units[person]!, factors!, k, Math.floor(cell / nR))
      }
      for (let i = 0; i < pos.n; i++) for (let c = 0; c < nR; c++) {
        const x = proj[i * nR + c]!
        const seen = x.sample[0]! > 0 || x.clickerSample > 0
        if (!seen && !p.with_null) continue
        capReach(x, u[c]! / panel.unit)
        rows.push({ attributes: attrsOf(i, c, { target_id: String(t.target_id) }, u), metrics: seen ? projectedMetrics(x, w.days, names) : nulls, hasData: seen, base: { uim: x.sample[0]!, ucl: x.clickerSample } })
      }
    }
  }
  const items = kept ? [] : finished(rows)
  if (counted) counted.rows += kept ? kept.rows : items.length
  return reportJson<BasicReport>({
    campaign_id: meta.campaign_id, date: p.date, version: 'V1.0', platform: p.platform, total_spot_num: pos.totalSpots, panel: panelMember(meta.panel_id, panel, k),
    items,
  }, kept?.pieces)
}

/**
 * basic/show with metrics=day of each of `dates` (consecutive, ascending), each answer as
 * basicShow gives it alone, its census read from censuses with cells per day (census-days.ts):
 * one pass over the events for the range rather than one per day. The range's rows in all are
 * held to the limit of one answer (MAX_ANSWER_ROWS): a day may hold that many alone, and a year of
 * such days is an answer no server holds; the refusal names end_date at the first day past it.
 */
export function basicShowDays(env: ReportEnv, p: Omit<P, 'date' | 'metrics'>, dates: readonly string[]): JsonParts<BasicReport>[] {
  if (dates.length === 0) return []
  const days = new DayCensuses((s) => env.census(s), dayNumber(dates.at(-1)!))
  const byDay: ReportEnv = { ...env, census: (s) => days.of(s) }
  const counted = { rows: 0 }
  return dates.map((date) => {
    const answer = basicShow(byDay, { ...p, date, metrics: 'day' }, counted)
    if (counted.rows > MAX_ANSWER_ROWS) throw badRequest('report.tooManyDayRows', { param: 'end_date', rows: counted.rows, date, max: MAX_ANSWER_ROWS })
    return answer
  })
}

/** Reach-type sums (persons) capped at the cell's universe (persons): calibration may raise a person's weight. */
function capReach(x: Projection, universe: number): void {
  x.reach[0] = Math.min(x.reach[0]!, universe)
  x.clickers = Math.min(x.clickers, universe)
}

/** The selector's SDK code of the sdk parameter: 0 for all (also when absent), 1 mm, 2 mz. */
const sdkCode = (sdk: 'all' | 'mm' | 'mz' | undefined): number => (sdk === 'mm' ? SDK.mm : sdk === 'mz' ? SDK.mz : 0)
