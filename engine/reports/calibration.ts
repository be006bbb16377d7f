/**
 * Panel projections reconciled with the census (docs/metrics.md, "Calibration"), as hybrid
 * measurement does (Nielsen DAR, comScore vCE): per position and platform, a factor k = the
 * census's impressions (clicks) / the panel's raw projection of them (its persons' impressions x
 * weight), so that projected impressions add up to the census. A person's weight in a reach-type
 * figure is then weight x the mean of the k of the platforms of their impressions.
 */
import type { Partition } from '../measure/columns'
import type { PanelIndex } from '../measure/panel/types'
import type { ReportPanel } from '../contract/models-reports'
import type { ReportEnv } from './env'
import { derivationOf, walkUpdate, type PersonCells, type Projection } from './persons'
import { platformCounts } from './platform-counts'
import { rawSums } from './raw-sums'
import { selector, type Positions } from './setup'
import { sameValues } from './same-values'

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

/**
 * The factors of a request: the census's counts per position and platform (platformCounts) and
 * the panel's raw projection of the same events (rawSums), both kept between reports.
 */
export function calibrate(env: ReportEnv, panel: PanelIndex, s: CalibrationSpec): Calibration {
  const n = s.pos.n
  const out: Calibration = { imp: new Float64Array(n * 2), clk: new Float64Array(n * 2), member: {} }
  // (one selector over the request's platforms: both counts split by the events' own platform)
  const sel = selector(s.pos, s.w.from, s.w.to, { platforms: s.platforms, sdk: s.sdk, stableOnly: false, filtration: s.filtration })
  const census = s.part ? platformCounts(s.part, sel, n) : new Uint32Array(n * 4)
  const raw = s.part ? rawSums(s.part, env.personOf(panel), panel, sel, n, s.audience) : new Float64Array(n * 4)
  ;[1, 2].forEach((platform, p) => {
    if ((s.platforms & platform) === 0) return
    let sum = 0
    let rawSum = 0
    for (let i = 0; i < n; i++) {
      // factors per weight unit: units x k sum to the census directly
      const imp = census[i * 4 + p * 2]!
      const clk = census[i * 4 + p * 2 + 1]!
      const rawImp = raw[i * 4 + p * 2]!
      const rawClk = raw[i * 4 + p * 2 + 1]!
      out.imp[i * 2 + p] = rawImp > 0 ? imp / rawImp : 0
      out.clk[i * 2 + p] = rawClk > 0 ? clk / rawClk : 0
      sum += imp
      rawSum += rawImp
    }
    out.member[PLATFORM_NAMES[p]!] = rawSum > 0 ? round6((sum * panel.unit) / rawSum) : null
  })
  return out
}

/** Six significant digits: the factor as the answer shows it. */
const round6 = (x: number): number => Number(x.toPrecision(6))

/**
 * Per entry of `base` (the report's person cells over the request's platforms, with their pc part
 * when there are two: personCells `split`): the calibration factor of its impressions and of its
 * clicks, each the mean of the platforms' factors weighted by the entry's impressions (clicks) on
 * each; and, with `hours` and two platforms, its pc hour counts (mobile is the rest).
 */
export interface EntryFactors {
  imp: Float64Array
  clk: Float64Array
  /** Impressions and clicks by hour on pc, entry j at j * 24 (only with hours and two platforms). */
  pcImpHours: Uint32Array | null
  pcClkHours: Uint32Array | null
}

export function entryFactors(k: Calibration, base: PersonCells, platforms: number, nRegions: number, hours: boolean): EntryFactors {
  const same = (x: KeptFactors | undefined): x is KeptFactors => x !== undefined && x.platforms === platforms && x.nRegions === nRegions && x.hours === hours && sameValues(x.kImp, k.imp) && sameValues(x.kClk, k.clk)
  // (the same kept person cells and the same factors: the same answer, as after a hit outside the window)
  const kept = keptFactors.get(base)
  if (same(kept)) return kept.out
  const both = platforms === 3
  if (both && base.impPc.length < base.n) throw new Error('entryFactors: person cells over both platforms need their pc part (personCells split)')
  const withHours = hours && both
  if (withHours && base.pcImpHours.length < base.n * 24) throw new Error('entryFactors: hours over both platforms need their pc part (personCells splitHours)')
  const imp = new Float64Array(base.n)
  const clk = new Float64Array(base.n)
  const factor = (j: number) => {
    const pos = Math.floor(base.cell[j]! / nRegions)
    // one platform: all its counts are on it (its factor is the slot of that platform)
    const imps = base.impressions[j]!
    const clicks = base.clicks[j]!
    const pcImp = both ? base.impPc[j]! : platforms === 1 ? imps : 0
    const pcClk = both ? base.clkPc[j]! : platforms === 1 ? clicks : 0
    imp[j] = mean(imps, pcImp, k.imp[pos * 2]!, k.imp[pos * 2 + 1]!)
    clk[j] = mean(clicks, pcClk, k.clk[pos * 2]!, k.clk[pos * 2 + 1]!)
  }
  // cells brought up to date after a panel person's hit, with the same factors: the others'
  // entries keep theirs, only the added persons' are computed
  const d = derivationOf(base)
  const before = d ? keptFactors.get(d.prev) : undefined
  if (d && same(before)) {
    let at = 0
    walkUpdate(d.prev, d.persons, (from, to) => {
      imp.set(before.out.imp.subarray(from, to), at)
      clk.set(before.out.clk.subarray(from, to), at)
      at += to - from
    }, (person) => {
      for (; at < base.n && base.person[at] === person; at++) factor(at)
    })
  } else for (let j = 0; j < base.n; j++) factor(j)
  const out = { imp, clk, pcImpHours: withHours ? base.pcImpHours : null, pcClkHours: withHours ? base.pcClkHours : null }
  keptFactors.set(base, { platforms, nRegions, hours, kImp: k.imp.slice(), kClk: k.clk.slice(), out })
  return out
}

interface KeptFactors {
  platforms: number
  nRegions: number
  hours: boolean
  kImp: Float64Array
  kClk: Float64Array
  out: EntryFactors
}

/** entryFactors kept per person-cells result (the last spec it was asked with). */
const keptFactors = new WeakMap<PersonCells, KeptFactors>()

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
