/**
 * Panel projections reconciled with the census (docs/metrics.md, "Calibration"), as hybrid
 * measurement does (Nielsen DAR, comScore vCE): per position and platform, a factor k = the
 * census's impressions (clicks) / the panel's raw projection of them (its persons' impressions x
 * weight), so that projected impressions add up to the census. A person's weight in a reach-type
 * figure is then weight x the mean of the k of the platforms of their impressions.
 */
import { GLOBAL_REGION_ID } from '../reference/regions'
import type { Partition } from '../measure/columns'
import type { PanelIndex } from '../measure/panel/types'
import type { ReportPanel } from '../contract/models-reports'
import type { ReportEnv } from './env'
import { personCells, type PersonCells, type Projection } from './persons'
import { regionCells } from './region-cells'
import { selector, type Positions } from './setup'

/** What the census and raw projection count: the request's window, filtration and SDK, overall audience, global region. */
export interface CalibrationSpec {
  part: Partition | null | undefined
  pos: Positions
  w: { from: number; to: number; day: number }
  /** 1 pc, 2 mb, 3 both. */
  platforms: number
  sdk: number
  filtration: 'net' | 'totalnet'
  /** 1 for each person whose exposures the raw projection sums: the report's platform audience, any target. */
  audience: Uint8Array
}

/** Factors per position and platform: [pos * 2] pc, [pos * 2 + 1] mb (0 where the raw projection is 0). */
export interface Calibration {
  imp: Float64Array
  clk: Float64Array
  /** The factors of the answer's positions together, per platform of the request (null: no panel person exposed). */
  member: { pc?: number | null; mb?: number | null }
}

const PLATFORM_NAMES = ['pc', 'mb'] as const

/** The factors of a request (a census pass and a panel pass per platform, both kept between reports). */
export function calibrate(env: ReportEnv, panel: PanelIndex, s: CalibrationSpec): Calibration {
  const n = s.pos.n
  const out: Calibration = { imp: new Float64Array(n * 2), clk: new Float64Array(n * 2), member: {} }
  const global = regionCells('level0', [GLOBAL_REGION_ID])
  const homeFirst = new Int32Array(panel.size)
  const homeSecond = new Int32Array(panel.size).fill(-1)
  for (let p = 0; p < 2; p++) {
    if ((s.platforms & (1 << p)) === 0) continue
    let census = 0
    let raw = 0
    if (s.part) {
      const sel = selector(s.pos, s.w.from, s.w.to, { platforms: 1 << p, sdk: s.sdk, stableOnly: false, filtration: s.filtration })
      const r = env.census({ part: s.part, identities: env.identities.size, sel, day: s.w.day, nPos: n, nRegions: 1, regionFirst: global.first, regionSecond: global.second, uniques: false, averages: false })
      const c = personCells({ part: s.part, sel, personOf: env.personOf(panel), nPos: n, homeFirst, homeSecond, nRegions: 1, days: false })
      const rawImp = new Float64Array(n)
      const rawClk = new Float64Array(n)
      for (let j = 0; j < c.n; j++) {
        const person = c.person[j]!
        if (s.audience[person] !== 1) continue
        rawImp[c.cell[j]!]! += c.impressions[j]! * panel.units[person]!
        rawClk[c.cell[j]!]! += c.clicks[j]! * panel.units[person]!
      }
      for (let i = 0; i < n; i++) {
        // factors per weight unit: units x k sum to the census directly
        out.imp[i * 2 + p] = rawImp[i]! > 0 ? r.imp[i]! / rawImp[i]! : 0
        out.clk[i * 2 + p] = rawClk[i]! > 0 ? r.clk[i]! / rawClk[i]! : 0
        census += r.imp[i]!
        raw += rawImp[i]!
      }
    }
    out.member[PLATFORM_NAMES[p]!] = raw > 0 ? round6((census * panel.unit) / raw) : null
  }
  return out
}

/** Six significant digits: the factor as the answer shows it. */
const round6 = (x: number): number => Number(x.toPrecision(6))

/**
 * Per entry of `base` (the report's person cells over the request's platforms): the calibration
 * factor of its impressions and of its clicks, each the mean of the platforms' factors weighted
 * by the entry's impressions (clicks) on each; and, with `hours`, its pc hour counts (mobile is
 * the rest). `pc` is the same count over pc events alone (null when the request has one platform).
 */
export interface EntryFactors {
  imp: Float64Array
  clk: Float64Array
  /** Impressions and clicks by hour on pc, entry j at j * 24 (only with hours and two platforms). */
  pcImpHours: Uint32Array | null
  pcClkHours: Uint32Array | null
}

export function entryFactors(k: Calibration, base: PersonCells, pc: PersonCells | null, platforms: number, nRegions: number, nCells: number, hours: boolean): EntryFactors {
  const imp = new Float64Array(base.n)
  const clk = new Float64Array(base.n)
  const withHours = hours && pc !== null
  const pcImpHours = withHours ? new Uint32Array(base.n * 24) : null
  const pcClkHours = withHours ? new Uint32Array(base.n * 24) : null
  const pcImp = new Uint32Array(base.n)
  const pcClk = new Uint32Array(base.n)
  if (pc === null) {
    if (platforms === 1) (pcImp.set(base.impressions.subarray(0, base.n)), pcClk.set(base.clicks.subarray(0, base.n)))
  } else {
    // entries of both are grouped by person, persons ascending: a walk over both, person by person
    const slot = new Int32Array(nCells).fill(-1)
    let q = 0
    for (let j = 0; j < base.n; ) {
      const person = base.person[j]!
      while (q < pc.n && pc.person[q]! < person) q++
      let qEnd = q
      for (; qEnd < pc.n && pc.person[qEnd] === person; qEnd++) slot[pc.cell[qEnd]!] = qEnd
      for (; j < base.n && base.person[j] === person; j++) {
        const at = slot[base.cell[j]!]!
        if (at < 0) continue
        pcImp[j] = pc.impressions[at]!
        pcClk[j] = pc.clicks[at]!
        if (withHours) (pcImpHours!.set(pc.impHours.subarray(at * 24, at * 24 + 24), j * 24), pcClkHours!.set(pc.clkHours.subarray(at * 24, at * 24 + 24), j * 24))
      }
      for (let x = q; x < qEnd; x++) slot[pc.cell[x]!] = -1
      q = qEnd
    }
  }
  for (let j = 0; j < base.n; j++) {
    const pos = Math.floor(base.cell[j]! / nRegions)
    imp[j] = mean(base.impressions[j]!, pcImp[j]!, k.imp[pos * 2]!, k.imp[pos * 2 + 1]!)
    clk[j] = mean(base.clicks[j]!, pcClk[j]!, k.clk[pos * 2]!, k.clk[pos * 2 + 1]!)
  }
  return { imp, clk, pcImpHours, pcClkHours }
}

/** The mean of the pc and mobile factors weighted by counts (all of them, of which `pc` on pc). */
const mean = (all: number, pc: number, kPc: number, kMb: number): number => (all > 0 ? (pc * kPc + (all - pc) * kMb) / all : 0)

/** The answer's `panel` member (docs/panel.md): which panel, how many persons, synthetic or not, and the factors. */
export function panelMember(panelId: string, panel: PanelIndex | null, k?: Calibration): ReportPanel {
  return { panel_id: panelId, persons: panel?.size ?? 0, synthetic: panel?.synthetic === true, ...(k ? { calibration: k.member } : {}) }
}

/**
 * Adds entry j (one person's counts in a cell, position `pos`) to its cell's projection, each count
 * projected with its calibration: impressions and clicks (and their hours) with their platform's
 * factor, reach-type sums (persons, person-days) with the entry's factor. Sums are in persons
 * (impressions), not weight units; the samples stay unweighted.
 */
export function projectCalibrated(into: Projection, c: PersonCells, j: number, units: number, f: EntryFactors, k: Calibration, pos: number): void {
  const imps = c.impressions[j]!
  const wImp = units * f.imp[j]!
  const wClk = units * f.clk[j]!
  into.impressions += imps * wImp
  into.clicks += c.clicks[j]! * wClk
  for (let n = 1; n <= 10 && n <= imps; n++) {
    into.reach[n - 1]! += wImp
    into.sample[n - 1]!++
  }
  if (c.clicks[j]! > 0) {
    into.clickers += wClk
    into.clickerSample++
  }
  if (c.impHours.length > 0) {
    const at = j * 24
    if (f.pcImpHours) {
      // both platforms: each hour's pc and mobile counts with their own factors
      const [ip, im, cp, cm] = [k.imp[pos * 2]! * units, k.imp[pos * 2 + 1]! * units, k.clk[pos * 2]! * units, k.clk[pos * 2 + 1]! * units]
      for (let h = 0; h < 24; h++) {
        const pcI = f.pcImpHours[at + h]!
        const pcC = f.pcClkHours![at + h]!
        into.impHours[h]! += pcI * ip + (c.impHours[at + h]! - pcI) * im
        into.clkHours[h]! += pcC * cp + (c.clkHours[at + h]! - pcC) * cm
      }
    } else {
      for (let h = 0; h < 24; h++) {
        into.impHours[h]! += c.impHours[at + h]! * wImp
        into.clkHours[h]! += c.clkHours[at + h]! * wClk
      }
    }
  }
  into.impPersonDays += c.impDays[j]! * wImp
  into.clkPersonDays += c.clkDays[j]! * wClk
}
