/**
 * Attribution of one tracking request (docs/measurement.md, docs/attribution.md): its
 * parameters, identity, platform, region and invalid-traffic class. Campaign, spot and keyword
 * lookups and frequency-based invalid traffic belong to the ingest.
 */
import { IVT, SDK } from '../types'
import { addressAgentIdentity, keyOrThrow, MARKER_PARAM, resolveIdentity } from './identity'
import { classify } from './ivt'
import { Lru } from './lru'
import { detectPlatform } from './platform'
import { chooseIp, normaliseAddress, RegionLocator } from './region'
import { parseTrackingUrl, requestIdOf } from './tracking-url'
import type { Attribution, TrackingRequest } from './types'

export { parseTrackingUrl, decodeComponent, requestIdOf, requestIdText, withMarker } from './tracking-url'
export { speculativeRequest } from './prefetch'
export {
  resolveIdentity, identityText, ipUaHash, legacyIpUaHash, addressAgentIdentity, identityKeyOf, isCookieValue, amidFromCookieHeader, amidSetCookie,
  COOKIE_NAME, COOKIE_MAX_AGE, ADDRESS_NAMESPACE, MARKER_PARAM, IDENTITY_KEY_BYTES,
} from './identity'
export { DEVICE_ID_PARAMS, firstDeviceId, allDeviceIds, normaliseDeviceId } from './device-ids'
export { detectPlatform, osFromMacro, sdkFromParam } from './platform'
export { RegionLocator, chooseIp, normaliseAddress, isNonPublicAddress } from './region'
export { classify, isDataCentreIsp, DATA_CENTRE_ISPS, NOT_DATA_CENTRE_ISPS } from './ivt'
export type * from './types'

/** Options of an Attributor. */
export interface AttributorOptions {
  /** The data directory's key of address identities (identityKeyOf); address identities need it. */
  identityKey?: Uint8Array
}

/** Attributes tracking requests; holds the region locator (its IP database and caches) and the identity key. */
export class Attributor {
  private readonly key: Uint8Array | null
  /** Address identities by `ip + '\n' + userAgent` (two HMACs a hit for a server-to-server tracker otherwise). */
  private readonly addresses = new Lru<string, { identity: string; legacy: string }>(10_000)

  /** @param locator shared by every request; built from buildRegions() unless given. */
  constructor(readonly locator: RegionLocator = new RegionLocator(), options: AttributorOptions = {}) {
    this.key = options.identityKey ?? null
  }

  /** The address identity of an address and a user agent, and its legacy text (addressAgentIdentity). */
  addressAgent(ip: string, userAgent: string): { identity: string; legacy: string } {
    return this.addresses.through(`${ip}\n${userAgent}`, () => addressAgentIdentity(keyOrThrow(this.key), ip, userAgent))
  }

  /** The attribution of a request, or null when its path is not a tracking path. */
  attribute(request: TrackingRequest): Attribution | null {
    const tracking = parseTrackingUrl(request.path, request.query)
    if (tracking === null) return null
    const { params } = tracking
    const userAgent = request.headers['user-agent'] ?? ''
    // (chooseIp with no socket address answers the `ns=` address, or '' when it takes none)
    const ns = chooseIp(params, '')
    const ip = ns !== '' ? ns : normaliseAddress(request.remoteAddress)
    const identity = resolveIdentity(params, request.headers.cookie, ip, userAgent, { key: this.key, serverToServer: ns !== '', cache: this.addresses })
    const platform = detectPlatform(params, userAgent)
    const located = this.locator.locate(ip)
    const classified = classify(userAgent, located.isp, identity.device || platform.sdk !== SDK.none)
    // written out, not spread: one object of one shape a hit (spreading four took a tenth of the attribution)
    const out: Attribution = {
      tracking, ip, identity: identity.identity, device: identity.device,
      // a declared bot gets no cookie check: it is counted at once by its address and agent
      kind: identity.kind === 'check' && classified.ivt === IVT.bot ? 'address' : identity.kind, links: identity.links, platform: platform.platform, sdk: platform.sdk, os: platform.os,
      region: located.region, isp: located.isp, ivt: classified.ivt, rule: classified.rule, request: requestIdOf(params), marker: params.get(MARKER_PARAM) ?? null,
    }
    if (identity.legacy !== undefined) out.legacy = identity.legacy
    return out
  }
}
