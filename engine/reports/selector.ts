/**
 * Which events of a partition a report counts, and at which position, as lookup tables the
 * kernels read inline (a report pass visits every event of a campaign, so no closure per event).
 */
import type { Partition } from '../measure/columns'
import { IVT, KIND, flagIvt, flagOver, flagPlatform, flagSdk, flagStable } from '../measure/types'

export interface Selector {
  /** Day numbers of the window, inclusive. */
  from: number
  to: number
  /** The kind counted in the impression slots, and in the click slots (-1: none). */
  impKind: number
  clkKind: number
  /** flagOk[dc * 256 + flags]: 1 when an event with these flags counts (dc: its spot filters data-centre traffic). */
  flagOk: Uint8Array
  /** Position of each spot (index spot id - spotBase); -1 leaves it out. */
  spotBase: number
  spotPos: Int32Array
  /** 1 when the spot filters data-centre traffic (dangerous_source_filtration). */
  spotDc: Uint8Array
  /** Keyword reports: position of each keyword (events of other keywords are left out). */
  keywordPos: Map<number, number> | null
  /** Per-event positions computed by the caller (minisites); overrides the spot tables. */
  eventPos: Int32Array | null
}

export interface FlagRules {
  /** 1: pc, 2: mobile, 3: both. */
  platforms: number
  /** 0 any, else only this SDK. */
  sdk: number
  stableOnly: boolean
  /** net: valid only; totalnet: valid and abnormal; none: every class but bots. */
  filtration: 'net' | 'totalnet' | 'none'
}

/** A selector as a string (a few kB), for results kept per spec (census-cache.ts, persons.ts); not for per-event positions. */
export function selectorKey(x: Selector): string {
  const keywords = x.keywordPos ? [...x.keywordPos].map(([k, p]) => `${k}:${p}`).join(',') : '-'
  return [x.from, x.to, x.impKind, x.clkKind, x.spotBase, x.flagOk.join(''), x.spotPos.join(','), x.spotDc.join(''), keywords].join('|')
}

/** The 512-entry table of which flags count (docs/metrics.md: classes, platform, SDK, stable). */
export function flagTable(r: FlagRules): Uint8Array {
  const t = new Uint8Array(512)
  for (let dc = 0; dc < 2; dc++) {
    for (let f = 0; f < 256; f++) {
      const ivt = flagIvt(f)
      // a data-centre hit counts where the spot does not filter data centres (dc 0), as valid, or
      // as abnormal when it was beyond its identity's frequency limit (flagOver)
      const counted = r.filtration !== 'net' || !flagOver(f)
      const classOk = ivt === IVT.valid || (ivt === IVT.abnormal && r.filtration !== 'net') || (ivt === IVT.datacenter && ((dc === 0 && counted) || r.filtration === 'none'))
      const ok = classOk && (r.platforms & (1 << flagPlatform(f))) !== 0 && (r.sdk === 0 || flagSdk(f) === r.sdk) && (!r.stableOnly || flagStable(f))
      t[dc * 256 + f] = ok ? 1 : 0
    }
  }
  return t
}

export const AD_KINDS = { impKind: KIND.impression, clkKind: KIND.click }
export const MINISITE_KINDS = { impKind: KIND.minisite, clkKind: -1 }

/** The columns a selector reads: a partition, or a compact copy of some of its events (persons.ts). */
export type SelectedColumns = Pick<Partition, 'day' | 'kind' | 'flags' | 'spot' | 'keyword'>

/** Position of event i, or -1 when it does not count (window, kind, flags, spot). */
export function positionOf(s: Selector, p: SelectedColumns, i: number): number {
  const d = p.day[i]!
  if (d < s.from || d > s.to) return -1
  const k = p.kind[i]!
  if (k !== s.impKind && k !== s.clkKind) return -1
  if (s.eventPos) return s.flagOk[p.flags[i]!] === 1 ? s.eventPos[i]! : -1
  const si = p.spot[i]! - s.spotBase
  if (si < 0 || si >= s.spotPos.length) return -1
  const pos = s.spotPos[si]!
  if (pos < 0 || s.flagOk[s.spotDc[si]! * 256 + p.flags[i]!] !== 1) return -1
  return s.keywordPos ? s.keywordPos.get(p.keyword[i]!) ?? -1 : pos
}
