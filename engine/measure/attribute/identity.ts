/**
 * Who a hit belongs to (DESIGN §3.2): a device id the media filled, else the first-party cookie
 * `amid`, else a hash of IP and user agent, which also becomes the cookie's value so that a
 * visitor keeps one identity when the cookie comes back. Rules for users: docs/attribution.md.
 */
import { createHash } from 'node:crypto'
import { firstDeviceId } from './device-ids'
import type { IdentityResult } from './types'

/** Name of the first-party cookie the tracking endpoints set. */
export const COOKIE_NAME = 'amid'
/** Two years, in seconds. */
export const COOKIE_MAX_AGE = 63_072_000

const COOKIE_VALUE = /^[0-9a-f]{32}$/

/** The identity text of a namespace and a normalised value: `idfa:…`, `amid:…`. */
export function identityText(namespace: string, value: string): string {
  return `${namespace}:${value}`
}

/** The first-contact id of a browser: SHA-256 of `ip + '\n' + userAgent`, first 32 hex digits. */
export function ipUaHash(ip: string, userAgent: string): string {
  return createHash('sha256').update(`${ip}\n${userAgent}`).digest('hex').slice(0, 32)
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

/** Options of resolveIdentity. */
export interface IdentityOptions {
  /** The request came over https (decides the cookie's SameSite/Secure attributes). */
  secure?: boolean
}

/**
 * The identity of a hit: `<namespace>:<id>` from the first filled device-id macro (device-ids.ts
 * order), else `amid:<cookie>`, else `amid:<ipUaHash>` together with a Set-Cookie that stores
 * that same value, so the next hit that brings the cookie back is the same identity.
 * `ip` is the address chosen by chooseIp (the `ns=` macro wins over the socket).
 */
export function resolveIdentity(params: ReadonlyMap<string, string>, cookieHeader: string | undefined, ip: string, userAgent: string, options: IdentityOptions = {}): IdentityResult {
  const device = firstDeviceId(params)
  if (device !== null) return { identity: identityText(device.namespace, device.value), device: true }
  const cookie = amidFromCookieHeader(cookieHeader)
  if (cookie !== '') return { identity: identityText(COOKIE_NAME, cookie), device: false }
  const hash = ipUaHash(ip, userAgent)
  return { identity: identityText(COOKIE_NAME, hash), device: false, setCookie: amidSetCookie(hash, options.secure === true) }
}
