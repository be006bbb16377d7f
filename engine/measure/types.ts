/**
 * An attributed hit: everything a report needs about one impression, click or minisite event,
 * decided once at ingest (docs/measurement.md). Its binary form is in record.ts.
 */

export const KIND = { impression: 1, click: 2, minisite: 3 } as const

/**
 * How late a hit dated by the media's own time (`nt=`, server-to-server reporting) may arrive
 * (docs/tracking.md): a day's figures are complete once this long has passed after it (basic/progress).
 */
export const LATE_HIT_MS = 3 * 3_600_000
export type Kind = (typeof KIND)[keyof typeof KIND]

/** Invalid-traffic class (metrics.md): one per event, the first rule that applies. */
export const IVT = { valid: 0, abnormal: 1, datacenter: 2, bot: 3 } as const
export type IvtClass = (typeof IVT)[keyof typeof IVT]

export const PLATFORM = { pc: 0, mb: 1 } as const
export type PlatformCode = (typeof PLATFORM)[keyof typeof PLATFORM]

/** SDK that reported a mobile hit: none, MMA SDK, Miaozhen SDK (basic report `sdk`). */
export const SDK = { none: 0, mm: 1, mz: 2 } as const
export type SdkCode = (typeof SDK)[keyof typeof SDK]

export interface Hit {
  kind: Kind
  /** ms since the epoch, UTC. */
  ts: number
  /** For impressions and clicks the campaign; for minisite events the campaign credited (0: none). */
  campaign: number
  /** Spot id (0: none, for minisite events without a credited spot). */
  spot: number
  /** Keyword id (0: none). */
  keyword: number
  /** Identity text: `idfa:...`, `oaid:...`, ..., `amid:...`, `ipua:...` (see attribute/identity.ts). */
  identity: string
  /**
   * Further identity texts that arrived together with `identity` on this hit (the other filled
   * device ids): the ingest links them to `identity`'s device (docs/attribution.md, "Devices").
   */
  links?: readonly string[]
  /**
   * A text linked to `identity` only when the identity dictionary already holds it: the
   * first-contact text of the address and user agent that earlier versions wrote
   * (`amid:` + SHA-256 of address and agent), so that such identities go on counting as one.
   */
  legacy?: string
  platform: PlatformCode
  sdk: SdkCode
  /** Index of the region in the region table order (regions.ts); 0 is global. */
  region: number
  ivt: IvtClass
  /** Stable audience (mobile, or PC first seen 24 h earlier); set by the ingest, not the caller. */
  stable?: boolean
  /** The media request id the tag carried (`tr=`, filled), impressions and clicks: counted once (request-ids.ts). */
  request?: string
  /** Minisite events only. */
  minisite?: number
  event?: number
  /**
   * Minisite events to credit at ingest (metrics.md): to the identity's latest touch on one of
   * these campaigns (or on `k` only, when given) within 30 days; else to `k` when linked, else none.
   * Resolved in arrival order, so a click earlier in the same import counts.
   */
  credit?: { linked: ReadonlySet<number>; k: number }
}

/** Hits as columns, row i of each array being hit i (an import: no object per hit; import-parse.ts). */
export interface HitColumns {
  n: number
  kind: Uint8Array<ArrayBuffer>
  ts: Float64Array<ArrayBuffer>
  campaign: Uint32Array<ArrayBuffer>
  spot: Uint32Array<ArrayBuffer>
  keyword: Uint32Array<ArrayBuffer>
  region: Uint16Array<ArrayBuffer>
  platform: Uint8Array<ArrayBuffer>
  sdk: Uint8Array<ArrayBuffer>
  ivt: Uint8Array<ArrayBuffer>
  minisite: Uint32Array<ArrayBuffer>
  event: Uint32Array<ArrayBuffer>
  /**
   * 1: a minisite event without a spot, credited at ingest to the identity's latest touch on a
   * campaign its minisite links (Hit.credit), on the row's campaign when it names one (k).
   */
  credit: Uint8Array<ArrayBuffer>
  identity: string[]
  /** Media request ids (Hit.request) by row, when any row has one (a sparse array). */
  request?: string[]
  /** Further ids that arrived with the row's identity (Hit.links) by row, when any row has some (a sparse array). */
  links?: (readonly string[] | undefined)[]
  /** Legacy texts (Hit.legacy) by row, when any row has one (a sparse array). */
  legacy?: (string | undefined)[]
}

/**
 * Flags byte: ivt (2 bits) | stable (1) | platform (1) | sdk (2) | over (1). `over`: the hit was
 * beyond its identity's frequency limit. A valid hit so is `abnormal`; a data-centre hit keeps
 * its class (left out where the spot filters data centres) and this bit, which makes it abnormal
 * where the spot counts data-centre hits (metrics.md).
 */
export function packFlags(h: { ivt: IvtClass; stable: boolean; platform: PlatformCode; sdk: SdkCode; over?: boolean }): number {
  return h.ivt | (h.stable ? 4 : 0) | (h.platform << 3) | (h.sdk << 4) | (h.over ? 64 : 0)
}

export const flagIvt = (f: number): IvtClass => (f & 3) as IvtClass
export const flagStable = (f: number): boolean => (f & 4) !== 0
export const flagPlatform = (f: number): PlatformCode => ((f >> 3) & 1) as PlatformCode
export const flagSdk = (f: number): SdkCode => ((f >> 4) & 3) as SdkCode
export const flagOver = (f: number): boolean => (f & 64) !== 0
