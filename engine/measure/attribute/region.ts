/**
 * Region from the IP (DESIGN §3.3): the `ns=` macro wins over the socket address; the address is
 * looked up in the ip2region package's database and mapped onto the region table.
 * Rules for users: docs/attribution.md.
 */
import { createRequire } from 'node:module'
import { isIP, isIPv4 } from 'node:net'
import { buildRegions } from '../../reference/regions'
import type { RegionSeed } from '../../reference/types'
import { networkOf } from './hosting'
import { ispText } from './ivt'
import { Lru } from './lru'
import { PlaceMatcher } from './place-matcher'
import type { Located } from './types'

/** What ip2region's `searchRaw(ip, true)` returns: v4 rows have country…isp, v6 rows also `data`. */
interface RawResult {
  country?: string
  province?: string
  city?: string
  isp?: string
  /** IPv6 rows: the whole place text (`中国广东省深圳市南山区`). */
  data?: string
}

interface Searcher {
  searchRaw(ip: string, parse: boolean): RawResult | null
}

let shared: Searcher | undefined

// ip2region is CommonJS with an `exports.default` class and reads its .db files relative to its
// own __dirname (11 MB, once): require works under tsx, vitest and the Electron main bundle,
// where it stays an external dependency.
function searcher(): Searcher {
  if (shared === undefined) {
    const require = createRequire(import.meta.url)
    const { default: IP2Region } = require('ip2region') as { default: new () => Searcher }
    shared = new IP2Region()
  }
  return shared
}

/** Place names that the IP library may give as a country rather than as a province of 中国. */
const CHINESE_COUNTRIES = new Set(['中国', '香港', '澳门', '台湾'])

/** `::ffff:1.2.3.4` -> `1.2.3.4`, `[::1]` -> `::1`; other text is only trimmed. */
export function normaliseAddress(address: string): string {
  let a = address.trim()
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1)
  if (a.length > 7 && a.charAt(0) === ':' && /^::ffff:/i.test(a) && isIPv4(a.slice(7))) a = a.slice(7)
  return a
}

/**
 * The address a hit is located by: `ns=` when it holds a valid public IPv4/IPv6 address, else
 * the socket's. (A private, loopback, link-local or carrier-grade NAT `ns=` is the media's own
 * network's, which would locate the hit nowhere, "global".)
 */
export function chooseIp(params: ReadonlyMap<string, string>, remoteAddress: string): string {
  const ns = params.get('ns')
  if (ns !== undefined && ns !== '') {
    const a = normaliseAddress(ns)
    const version = isIP(a)
    if (version !== 0 && !isNonPublicAddress(a, version)) return a
  }
  return normaliseAddress(remoteAddress)
}

const DOT = 46
const ZERO = 48

/** Loopback, private, link-local, shared (CGN) and unspecified addresses: never located. */
export function isNonPublicAddress(address: string, version: number): boolean {
  if (version === 4) {
    // (the first two numbers read by character, not split into arrays: every hit's address comes here)
    let i = 0
    let a = 0
    let b = 0
    for (; i < address.length && address.charCodeAt(i) !== DOT; i++) a = a * 10 + address.charCodeAt(i) - ZERO
    for (i++; i < address.length && address.charCodeAt(i) !== DOT; i++) b = b * 10 + address.charCodeAt(i) - ZERO
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b < 128)
  }
  const v6 = address.toLowerCase()
  return v6 === '::' || v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6)
}

/** Options of a RegionLocator. */
export interface RegionLocatorOptions {
  /** Addresses whose result is kept (LRU); 10,000 unless told. */
  cacheSize?: number
}

/** Locates addresses in the region table; results are cached per address. */
export class RegionLocator {
  private readonly places: PlaceMatcher
  private readonly cache: Lru<string, Located>
  private readonly global: Located

  /** @param regions the region table (buildRegions()); a result's `region` is an index into it. */
  constructor(regions: readonly RegionSeed[] = buildRegions(), options: RegionLocatorOptions = {}) {
    this.places = new PlaceMatcher(regions)
    this.cache = new Lru(options.cacheSize ?? 10_000)
    this.global = Object.freeze({ region: this.places.global, isp: '' })
  }

  /**
   * The region and ISP of an address: its city when the library names a mainland city, else its
   * province (Hong Kong, Macau, Taiwan included), else mainland China for other Chinese
   * addresses; global for foreign, non-public and invalid addresses. The ISP is the library's
   * label, followed by the network of an address whose AS is hosting or a relay where the
   * label says otherwise (`电信 | hosting AS45090 Tencent Cloud`: ivt.ts ispText). The result
   * is frozen.
   */
  locate(ip: string): Located {
    return this.cache.through(ip, (key) => this.lookup(key))
  }

  private lookup(ip: string): Located {
    const address = normaliseAddress(ip)
    const version = isIP(address)
    if (version === 0 || isNonPublicAddress(address, version)) return this.global
    const raw = searcher().searchRaw(address, true)
    if (raw === null) return this.global
    // the AS of the address catches hosting that the library labels with a carrier's name
    const isp = ispText(raw.isp ?? '', networkOf(address))
    return Object.freeze({ region: this.regionOf(raw), isp })
  }

  private regionOf(raw: RawResult): number {
    if (raw.data !== undefined) return raw.data.startsWith('中国') ? this.places.match(raw.data.slice(2)) : this.places.global
    const country = raw.country ?? ''
    if (!CHINESE_COUNTRIES.has(country)) return this.places.global
    const lead = country === '中国' ? '' : country
    return this.places.match(lead + (raw.province ?? '') + (raw.city ?? ''))
  }
}
