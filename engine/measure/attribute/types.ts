/** What attribution reads from a tracking request, and what it decides (docs/measurement.md). */
import type { TrackingKind } from '../../contract/tracking-url'
import type { IvtClass, PlatformCode, SdkCode } from '../types'

/** A request to one of the tracking endpoints, as the HTTP door saw it. */
export interface TrackingRequest {
  /** `/x/k=1&p=e&...&o=`, `/x.gif`, `/r/...`, `/e/...` */
  path: string
  /** Raw query string without `?` ('' when none). */
  query: string
  /** Lower-case header names (user-agent, cookie, referer, x-forwarded-for is NOT trusted). */
  headers: Record<string, string>
  /** The socket address. */
  remoteAddress: string
  /** The request came over https (the `amid` cookie is then `SameSite=None; Secure`). */
  secure?: boolean
}

export type { TrackingKind }

/** The parameters of a tracking URL, in the vendor's shape (vendor-notes §7.1). */
export interface TrackingParams {
  kind: TrackingKind
  /** Every parameter, decoded; for /x/ and /r/ also the ones written in the path. */
  params: Map<string, string>
}

/** Which rule gave a hit its identity (docs/attribution.md §2). */
export type IdentityKind = 'device' | 'cookie' | 'address' | 'check'

export interface IdentityResult {
  /**
   * `idfa:...`, `oaid:...`, `imei:...`, ... (device-ids.ts), `amid:...` (the cookie) or `ipua:...`
   * (address and user agent; for `check`, what the hit counts as if the browser never comes back).
   */
  identity: string
  /** True when a device-id macro carried the identity. */
  device: boolean
  kind: IdentityKind
  /** The hit's other filled device ids (`namespace:value`), linked to `identity` by the ingest. */
  links: readonly string[]
  /** Address identities: the text earlier versions wrote for the same address and agent (Hit.legacy). */
  legacy?: string
}

export interface PlatformResult {
  platform: PlatformCode
  sdk: SdkCode
}

export interface Located {
  /** Index of the region in region-table order (0 is global). */
  region: number
  /** ISP name from the IP library ('' when unknown). */
  isp: string
}

export interface Classified {
  ivt: IvtClass
  /** Which rule applied, for the request log and tests ('' when valid). */
  rule: string
}

/** Everything attribution decides about one tracking request (attribute/index.ts). */
export interface Attribution extends IdentityResult, PlatformResult, Located, Classified {
  tracking: TrackingParams
  /** The address the hit is located by: `ns=` when valid, else the socket's. */
  ip: string
  /** Lower-case OS name ('' unknown). */
  os: string
  /** The media request id (`tr=`, filled; '' when absent or not filled): request-ids.ts. */
  request: string
  /** The cookie check's marker (`amc=`) when the URL carries one (a browser back from the check), else null. */
  marker: string | null
}
