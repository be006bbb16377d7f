/**
 * Who a hit belongs to (DESIGN §3.2): the device ids the media filled, else the first-party cookie
 * `amid`, else its address and user agent (`ipua:`, a keyed hash), which serves server-to-server
 * hits, SDKs and browsers that refuse the cookie; a browser's first contact gets a cookie check
 * first (the route and cookie-check.ts). Rules for users: docs/attribution.md, section 2.
 */
import { createHash, createHmac } from 'node:crypto'
import { allDeviceIds } from './device-ids'
import type { Lru } from './lru'
import { sdkFromParam } from './platform'
import { userAgentFacts } from './user-agent'
import type { IdentityResult } from './types'
import { SDK } from '../types'

/** Name of the first-party cookie the tracking endpoints set. */
export const COOKIE_NAME = 'amid'
/** Two years, in seconds. */
export const COOKIE_MAX_AGE = 63_072_000
/** Namespace of the identities of an address and a user agent. */
export const ADDRESS_NAMESPACE = 'ipua'
/** The parameter the cookie check adds to the tracking URL it sends a browser back to. */
export const MARKER_PARAM = 'amc'
/** Bytes of the key of address identities (meta `identity_key`). */
export const IDENTITY_KEY_BYTES = 32

const COOKIE_VALUE = /^[0-9a-f]{32}$/

/** The identity text of a namespace and a normalised value: `idfa:…`, `amid:…`. */
export function identityText(namespace: string, value: string): string {
  return `${namespace}:${value}`
}

/**
 * SHA-256 of `ip + '\n' + userAgent`, first 32 hex digits: the `amid` value earlier versions gave
 * a browser on first contact (anyone knowing the address and agent could compute it). Read by
 * the legacy link of address identities and by imports of such identities.
 */
export function legacyIpUaHash(ip: string, userAgent: string): string {
  return createHash('sha256').update(`${ip}\n${userAgent}`).digest('hex').slice(0, 32)
}

/** legacyIpUaHash under a second name (`ipUaHash`), which callers also import. */
export const ipUaHash = legacyIpUaHash

/** Whether a text is a valid `amid` value (32 lower-case hex digits). */
export const isCookieValue = (value: string): boolean => COOKIE_VALUE.test(value)

/**
 * The identity of an address and a user agent: `ipua:` + the first 32 hex digits of
 * HMAC-SHA256(key, ip + '\n' + userAgent), which cannot be computed (nor reversed) without the
 * data directory's key; and `legacy`, the text earlier versions wrote for them
 * (`amid:` + legacyIpUaHash), which the ingest links when it holds it already.
 */
export function addressAgentIdentity(key: Uint8Array, ip: string, userAgent: string): { identity: string; legacy: string } {
  const text = `${ip}\n${userAgent}`
  return {
    identity: identityText(ADDRESS_NAMESPACE, createHmac('sha256', key).update(text).digest('hex').slice(0, 32)),
    legacy: identityText(COOKIE_NAME, createHash('sha256').update(text).digest('hex').slice(0, 32)),
  }
}

/** The value of a valid `amid` cookie in a Cookie header (32 lower-case hex digits), or ''. */
export function amidFromCookieHeader(header: string | undefined): string {
  if (header === undefined || !header.includes(COOKIE_NAME)) return ''
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== COOKIE_NAME) continue
    const value = part.slice(eq + 1).trim()
    if (COOKIE_VALUE.test(value)) return value
  }
  return ''
}

/**
 * The Set-Cookie header value for `amid`. `SameSite=None` needs `Secure` (browsers drop such a
 * cookie otherwise), so plain-http endpoints send `SameSite=Lax` and https ones `None; Secure`.
 */
export function amidSetCookie(value: string, secure: boolean): string {
  const site = secure ? 'SameSite=None; Secure' : 'SameSite=Lax'
  return `${COOKIE_NAME}=${value}; Max-Age=${COOKIE_MAX_AGE}; Path=/; HttpOnly; ${site}`
}

/** What resolveIdentity knows of a request besides its parameters. */
export interface IdentityOptions {
  /** The data directory's key of address identities (IDENTITY_KEY_BYTES); null throws when one is needed. */
  key: Uint8Array | null
  /** The `ns=` macro gave the address: a server-to-server hit, which keeps no cookie. */
  serverToServer?: boolean
  /** Address identities already computed (an Attributor's cache), by `ip + '\n' + userAgent`. */
  cache?: Lru<string, { identity: string; legacy: string }>
}

const NO_LINKS: readonly string[] = Object.freeze([])

/**
 * The identity of a hit, the first that applies (docs/attribution.md §2):
 * - `device`: the first filled device id (device-ids.ts order); the others go to `links`;
 * - `cookie`: a valid `amid` cookie, `amid:<value>`;
 * - `address`: `ipua:…` (addressAgentIdentity) for a server-to-server hit, a hit an SDK marks
 *   (`sdk=`, or an SDK token in the user agent), and a browser back from the cookie check
 *   without the cookie (the `amc` marker);
 * - `check`: any other first contact, whose identity is decided by the cookie check; `identity`
 *   holds what it is counted as when the browser never comes back (its address identity).
 * `ip` is the address chosen by chooseIp.
 */
export function resolveIdentity(params: ReadonlyMap<string, string>, cookieHeader: string | undefined, ip: string, userAgent: string, options: IdentityOptions): IdentityResult {
  const devices = allDeviceIds(params)
  if (devices.length > 0) {
    const first = devices[0]!
    const links = devices.length === 1 ? NO_LINKS : devices.slice(1).map((d) => identityText(d.namespace, d.value))
    return { identity: identityText(first.namespace, first.value), device: true, kind: 'device', links }
  }
  const cookie = amidFromCookieHeader(cookieHeader)
  const key = `${ip}\n${userAgent}`
  let address = options.cache?.get(key)
  if (address === undefined) {
    address = addressAgentIdentity(keyOrThrow(options.key), ip, userAgent)
    options.cache?.set(key, address)
  }
  // A cookie equal to the legacy hash of this very address and agent is what earlier versions
  // gave every browser first seen here: it tells none of them apart, so it counts as no cookie
  // (the browser goes through the check and gets its own). One from elsewhere (a browser that
  // moved) is honoured as any cookie.
  // (both values are 32 hex digits: the legacy text ends with the cookie exactly when it is `amid:<cookie>`)
  if (cookie !== '' && !address.legacy.endsWith(cookie)) {
    return { identity: identityText(COOKIE_NAME, cookie), device: false, kind: 'cookie', links: NO_LINKS }
  }
  const kept = options.serverToServer === true || params.has(MARKER_PARAM) || sdkFromParam(params.get('sdk')) !== null || userAgentFacts(userAgent).sdk !== SDK.none
  return { identity: address.identity, legacy: address.legacy, device: false, kind: kept ? 'address' : 'check', links: NO_LINKS }
}

/** The key, or an Error saying that address identities need one (a caller built without it). */
export function keyOrThrow(key: Uint8Array | null): Uint8Array {
  if (key === null) throw new Error('No identity key was given: address identities need one (identityKeyOf, AttributorOptions.identityKey).')
  return key
}

/** Where identityKeyOf keeps the key: the database's meta table. */
export interface MetaStore {
  meta(key: string): string | undefined
  setMeta(key: string, value: string): void
  tx<T>(fn: () => T): T
}

/**
 * The data directory's key of address identities (meta `identity_key`, hex), made from `random`
 * on first need: the same key as long as the data directory lives, so an address and an agent
 * stay one identity across restarts and rebuilds.
 */
export function identityKeyOf(db: MetaStore, random: { bytes(n: number): Uint8Array }): Uint8Array {
  const kept = db.meta('identity_key')
  if (kept !== undefined && /^[0-9a-f]{64}$/.test(kept)) return Uint8Array.from(Buffer.from(kept, 'hex'))
  const key = random.bytes(IDENTITY_KEY_BYTES)
  db.tx(() => db.setMeta('identity_key', Buffer.from(key).toString('hex')))
  return key
}
