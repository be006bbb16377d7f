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

/** Census and raw projection of each position over some platforms: impressions and clicks. */
interface Counts {
  census: { imp: Float64Array; clk: Float64Array }
  /** Sums of counts x weight units of the audience's persons, and their counts alone (exact). */
  raw: { imp: Float64Array; clk: Float64Array }
  exposures: { imp: Float64Array; clk: Float64Array }
}

function countsOn(env: ReportEnv, panel: PanelIndex, s: CalibrationSpec, platforms: number): Counts {
  const n = s.pos.n
  const pair = () => ({ imp: new Float64Array(n), clk: new Float64Array(n) })
  const out: Counts = { census: pair(), raw: pair(), exposures: pair() }
  if (!s.part) return out
  const sel = selector(s.pos, s.w.from, s.w.to, { platforms, sdk: s.sdk, stableOnly: false, filtration: s.filtration })
  const global = regionCells('level0', [GLOBAL_REGION_ID])
  const r = env.census({ part: s.part, identities: env.identities.size, sel, day: s.w.day, nPos: n, nRegions: 1, regionFirst: global.first, regionSecond: global.second, uniques: false, averages: false })
  out.census.imp.set(r.imp.subarray(0, n))
  out.census.clk.set(r.clk.subarray(0, n))
  // (home cells all 0: the spec the audience reports count with, so their pass is this one, kept)
  const c = personCells({ part: s.part, sel, personOf: env.personOf(panel), nPos: n, homeFirst: new Int32Array(panel.size), homeSecond: new Int32Array(panel.size).fill(-1), nRegions: 1, days: false })
  const kept = keptRaw.get(c)
  if (kept && kept.panel === panel && sameBytes(kept.audience, s.audience)) return { census: out.census, raw: kept.raw, exposures: kept.exposures }
  for (let j = 0; j < c.n; j++) {
    const person = c.person[j]!
    if (s.audience[person] !== 1) continue
    const at = c.cell[j]!
    out.raw.imp[at]! += c.impressions[j]! * panel.units[person]!
    out.raw.clk[at]! += c.clicks[j]! * panel.units[person]!
    out.exposures.imp[at]! += c.impressions[j]!
    out.exposures.clk[at]! += c.clicks[j]!
  }
  keptRaw.set(c, { panel, audience: s.audience.slice(), raw: out.raw, exposures: out.exposures })
  return out
}

/**
 * The panel's raw projection of a kept person-cells result (personCells answers the same object
 * while no panel person's event came): a report after other hits reads it again, not the entries.
 */
const keptRaw = new WeakMap<PersonCells, { panel: PanelIndex; audience: Uint8Array; raw: Counts['raw']; exposures: Counts['exposures'] }>()

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const sameNumbers = (a: Float64Array, b: Float64Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** `all` less `pc`: the mobile counts (a raw sum without mobile exposures is 0, not a float remainder). */
function minus(all: Counts, pc: Counts): Counts {
  const sub = (a: Float64Array, b: Float64Array) => a.map((x, i) => x - b[i]!)
  const exposures = { imp: sub(all.exposures.imp, pc.exposures.imp), clk: sub(all.exposures.clk, pc.exposures.clk) }
  const raw = { imp: sub(all.raw.imp, pc.raw.imp).map((x, i) => (exposures.imp[i]! > 0 ? x : 0)), clk: sub(all.raw.clk, pc.raw.clk).map((x, i) => (exposures.clk[i]! > 0 ? x : 0)) }
  return { census: { imp: sub(all.census.imp, pc.census.imp), clk: sub(all.census.clk, pc.census.clk) }, raw, exposures }
}

/**
 * The factors of a request: a census pass and a panel pass over the request's platforms, and with
 * both platforms another pair over pc (mobile is the rest), all kept between reports.
 */
export function calibrate(env: ReportEnv, panel: PanelIndex, s: CalibrationSpec): Calibration {
  const n = s.pos.n
  const out: Calibration = { imp: new Float64Array(n * 2), clk: new Float64Array(n * 2), member: {} }
  const pc = s.platforms & 1 ? countsOn(env, panel, s, 1) : null
  const mb = s.platforms === 2 ? countsOn(env, panel, s, 2) : s.platforms === 3 ? minus(countsOn(env, panel, s, 3), pc!) : null
  ;[pc, mb].forEach((x, p) => {
    if (!x) return
    let census = 0
    let raw = 0
    for (let i = 0; i < n; i++) {
      // factors per weight unit: units x k sum to the census directly
      out.imp[i * 2 + p] = x.raw.imp[i]! > 0 ? x.census.imp[i]! / x.raw.imp[i]! : 0
      out.clk[i * 2 + p] = x.raw.clk[i]! > 0 ? x.census.clk[i]! / x.raw.clk[i]! : 0
      census += x.census.imp[i]!
      raw += x.raw.imp[i]!
    }
    out.member[PLATFORM_NAMES[p]!] = raw > 0 ? round6((census * panel.unit) / raw) : null
  })
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
  // (the same kept person cells and the same factors: the same answer, as after a hit outside the window)
  const kept = keptFactors.get(base)
  if (kept && kept.pc === pc && kept.platforms === platforms && kept.nRegions === nRegions && kept.hours === hours && sameNumbers(kept.kImp, k.imp) && sameNumbers(kept.kClk, k.clk)) return kept.out
  const out = computeFactors(k, base, pc, platforms, nRegions, nCells, hours)
  keptFactors.set(base, { pc, platforms, nRegions, hours, kImp: k.imp.slice(), kClk: k.clk.slice(), out })
  return out
}

/** entryFactors kept per person-cells result (the last spec it was asked with). */
const keptFactors = new WeakMap<PersonCells, { pc: PersonCells | null; platforms: number; nRegions: number; hours: boolean; kImp: Float64Array; kClk: Float64Array; out: EntryFactors }>()

function computeFactors(k: Calibration, base: PersonCells, pc: PersonCells | null, platforms: number, nRegions: number, nCells: number, hours: boolean): EntryFactors {
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
