/**
 * Networks by autonomous system (docs/data-centres.md), from the IPv4 and IPv6 tables of the
 * @ip-location-db/asn package (RouteViews, the RIRs and DB-IP, CC BY 4.0): the ranges of
 * hosting and cloud providers (HOSTING_ASNS by number, else by organisation name) and of relays
 * that carry people's browsers (RELAY_ASNS, RELAY_WORDS: content-delivery networks, public
 * Wi-Fi). The IP library's ISP labels miss hosting where they name only the carrier (`电信` on
 * a Tencent Cloud range) and call some relay ranges by a cloud's name. Each family's table is
 * read once, on its first lookup; only these two kinds of range are kept.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ipv4ToNumber } from './ip-ranges'

/**
 * Hosting and cloud ASes by number, with the provider's name (each checked against the data's
 * organisation name: AS63949 Linode is `Akamai Technologies, Inc.` there, AS45090 Tencent Cloud
 * `Shenzhen Tencent Computer Systems Company Limited`, AS63727 Huawei Cloud `Huawei`, and
 * HUAWEI INTERNATIONAL PTE. LTD. is Huawei Cloud's international company).
 */
export const HOSTING_ASNS: ReadonlyMap<number, string> = new Map([
  // mainland clouds and data centres
  [37963, 'Alibaba Cloud'], [45102, 'Alibaba Cloud'], [134963, 'Alibaba Cloud'],
  [45090, 'Tencent Cloud'], [132203, 'Tencent Cloud'], [133478, 'Tencent Cloud'], [132591, 'Tencent Cloud'], [137876, 'Tencent Cloud'],
  [136907, 'Huawei Cloud'], [55990, 'Huawei Cloud'], [63727, 'Huawei Cloud'], [131444, 'Huawei Cloud'], [141180, 'Huawei Cloud'],
  [149167, 'Huawei Cloud'], [151610, 'Huawei Cloud'], [38365, 'Baidu'], [55967, 'Baidu'], [38627, 'Baidu'],
  [59019, 'Kingsoft Cloud'], [137280, 'Kingsoft Cloud'], [135377, 'UCloud'], [59077, 'UCloud'], [152644, 'Qiniu Cloud'],
  [137718, 'Volcano Engine'], [396986, 'ByteDance'], [131486, 'JD Cloud'], [137753, 'JD Cloud'], [137787, 'JD Cloud'],
  [45062, 'NetEase'], [137263, 'NetEase'], [131659, 'NetEase'], [17428, '21Vianet'], [23724, 'China Telecom IDC'],
  // elsewhere
  [16509, 'Amazon AWS'], [14618, 'Amazon AWS'], [8987, 'Amazon AWS'], [15169, 'Google'], [396982, 'Google Cloud'],
  [19527, 'Google'], [8075, 'Microsoft'], [36351, 'IBM Cloud'], [31898, 'Oracle Cloud'], [14061, 'DigitalOcean'],
  [16276, 'OVH'], [24940, 'Hetzner'], [213230, 'Hetzner'], [63949, 'Linode'], [20473, 'Vultr'], [51167, 'Contabo'],
  [12876, 'Scaleway'], [60781, 'Leaseweb'], [28753, 'Leaseweb'], [16265, 'Leaseweb'], [9009, 'M247'],
  [26496, 'GoDaddy'], [21859, 'Zenlayer'], [40676, 'Psychz'], [8100, 'QuadraNet'], [212238, 'Datacamp'], [60068, 'Datacamp'],
  [9729, 'iAdvantage'], [38700, 'SmileServ'], [18229, 'CtrlS'], [132420, 'E2E Networks'],
])

/**
 * Relays by number: content-delivery networks that carry real browsers (iCloud Private Relay
 * leaves through Akamai, Cloudflare and Fastly; Cloudflare WARP) and The Cloud's public Wi-Fi,
 * whose name would read as hosting. Never data centres, whatever the IP library's label says.
 */
export const RELAY_ASNS: ReadonlyMap<number, string> = new Map([
  [13335, 'Cloudflare'], [209242, 'Cloudflare'], [14789, 'Cloudflare'], [132892, 'Cloudflare'], [202623, 'Cloudflare'],
  [20940, 'Akamai'], [16625, 'Akamai'], [36183, 'Akamai'], [54113, 'Fastly'], [41012, 'The Cloud public Wi-Fi'],
])

/** Organisation-name words (lower case) of relays not listed by number. */
export const RELAY_WORDS: readonly string[] = ['cloudflare', 'akamai', 'fastly']

/**
 * Organisation names of hosting providers not listed by number: these words in any case (`host`
 * only at a word's start, so that AFRIHOST, a consumer ISP, is not one; not `colo`, which
 * Colombia and Colorado hold), or `IDC` in capitals (`CHINANET Jiangx province IDC network`,
 * `BROADBANDIDC`).
 */
const HOSTING_NAME = /hosting|\bhost|server|cloud|data ?cent(?:er|re)|vps|colocation/i
const IDC_NAME = /IDC/

/** An AS that decides the class of its addresses: hosting (a data centre) or a relay (never one). */
export interface Network {
  readonly asn: number
  /** The provider: HOSTING_ASNS's or RELAY_ASNS's name, else the data's organisation name. */
  readonly name: string
  readonly hosting: boolean
  /** `AS45090 Tencent Cloud` */
  readonly text: string
}

const makeNetwork = (asn: number, name: string, hosting: boolean): Network => Object.freeze({ asn, name, hosting, text: `AS${asn} ${name}` })

/** The network an AS is, by number first, then by organisation name; undefined for any other AS. */
export function networkOfAs(asn: number, organisation: string): Network | undefined {
  const relay = RELAY_ASNS.get(asn)
  if (relay !== undefined) return makeNetwork(asn, relay, false)
  const known = HOSTING_ASNS.get(asn)
  if (known !== undefined) return makeNetwork(asn, known, true)
  const lower = organisation.toLowerCase()
  if (RELAY_WORDS.some((w) => lower.includes(w))) return makeNetwork(asn, organisation, false)
  if (HOSTING_NAME.test(organisation) || IDC_NAME.test(organisation)) return makeNetwork(asn, organisation, true)
  return undefined
}

/** The kept ranges of one address family, in address order; `network` indexes `networks`. */
interface Ipv4Table { starts: Uint32Array; ends: Uint32Array; network: Uint16Array; networks: Network[] }

/**
 * IPv6 ranges by their first 64 bits, each as two 32-bit halves (the data's ranges are /64 or
 * wider but for a few dozen; a /64 that such a range covers in part counts as in it).
 */
interface Ipv6Table { startHigh: Uint32Array; startLow: Uint32Array; endHigh: Uint32Array; endLow: Uint32Array; network: Uint16Array; networks: Network[] }

let ipv4: Ipv4Table | undefined
let ipv6: Ipv6Table | undefined

const COMMA = 44
const QUOTE = 34
const NEWLINE = 10
const RETURN = 13

/** One CSV field's text: quotes removed, doubled quotes undone. */
function unquote(field: string): string {
  return field.length >= 2 && field.charCodeAt(0) === QUOTE ? field.slice(1, -1).replaceAll('""', '"') : field
}

/**
 * Reads one table of the package (`start,end,asn,organisation` a line, addresses as decimal
 * numbers, sorted) byte by byte and calls `keep` for each line whose AS is hosting or a relay,
 * with the byte offsets of its two numbers. Only the organisation name of an AS not seen
 * before is decoded, into a string of its own (a slice of one 21 MB string would keep all of
 * it alive).
 */
function scan(file: string, keep: (csv: Buffer, start: number, startEnd: number, endEnd: number, index: number) => void): Network[] {
  const require = createRequire(import.meta.url)
  const csv = readFileSync(join(dirname(require.resolve('@ip-location-db/asn/package.json')), file))
  const networks: Network[] = []
  // per AS: its index into networks, or -1 when neither hosting nor a relay (dropped after the read)
  const indexOfAs = new Map<number, number>()
  let at = 0
  while (at < csv.length) {
    const start = at
    while (at < csv.length && csv[at] !== COMMA) at++
    const startEnd = at++
    while (at < csv.length && csv[at] !== COMMA) at++
    const endEnd = at++
    let asn = 0
    let c = 0
    while (at < csv.length && (c = csv[at++]!) !== COMMA) asn = asn * 10 + (c - 48)
    const nameStart = at
    while (at < csv.length && csv[at] !== NEWLINE) at++
    const nameEnd = at > nameStart && csv[at - 1] === RETURN ? at - 1 : at
    at++
    if (c !== COMMA) continue
    let index = indexOfAs.get(asn)
    if (index === undefined) {
      const found = networkOfAs(asn, unquote(csv.toString('utf8', nameStart, nameEnd)))
      index = found === undefined ? -1 : networks.push(found) - 1
      indexOfAs.set(asn, index)
    }
    if (index >= 0) keep(csv, start, startEnd, endEnd, index)
  }
  if (networks.length > 0xffff) throw new Error(`${file} names ${networks.length} hosting and relay networks, more than a Uint16Array indexes`)
  return networks
}

/** A decimal number of at most 15 digits, from bytes. */
function decimal(csv: Buffer, from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) n = n * 10 + (csv[i]! - 48)
  return n
}

function loadIpv4(): Ipv4Table {
  const starts: number[] = []
  const ends: number[] = []
  const network: number[] = []
  const networks = scan('asn-ipv4-num.csv', (csv, s, startEnd, endEnd, index) => {
    const start = decimal(csv, s, startEnd)
    const end = decimal(csv, startEnd + 1, endEnd)
    const last = starts.length - 1
    // neighbours of one network merge (an AS's prefixes are listed one by one)
    if (last >= 0 && network[last] === index && ends[last]! + 1 === start) ends[last] = end
    else {
      starts.push(start)
      ends.push(end)
      network.push(index)
    }
  })
  return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), network: Uint16Array.from(network), networks }
}

function loadIpv6(): Ipv6Table {
  const halves: number[][] = [[], [], [], []]
  const network: number[] = []
  const mask = 0xffffffffn
  const networks = scan('asn-ipv6-num.csv', (csv, s, startEnd, endEnd, index) => {
    const start = BigInt(csv.toString('latin1', s, startEnd)) >> 64n
    const end = BigInt(csv.toString('latin1', startEnd + 1, endEnd)) >> 64n
    halves[0]!.push(Number(start >> 32n))
    halves[1]!.push(Number(start & mask))
    halves[2]!.push(Number(end >> 32n))
    halves[3]!.push(Number(end & mask))
    network.push(index)
  })
  const [startHigh, startLow, endHigh, endLow] = halves.map((h) => Uint32Array.from(h)) as [Uint32Array, Uint32Array, Uint32Array, Uint32Array]
  return { startHigh, startLow, endHigh, endLow, network: Uint16Array.from(network), networks }
}

/** The hosting or relay network of an IPv4 address given as a number, or undefined. */
export function networkOfNumber(address: number): Network | undefined {
  const { starts, ends, network, networks } = (ipv4 ??= loadIpv4())
  let low = 0
  let high = starts.length - 1
  while (low <= high) {
    const mid = (low + high) >>> 1
    if (address < starts[mid]!) high = mid - 1
    else if (address > ends[mid]!) low = mid + 1
    else return networks[network[mid]!]
  }
  return undefined
}

/** The text of the hosting network of an IPv4 address given as a number (`AS45090 Tencent Cloud`); '' for any other. */
export function hostingOfNumber(address: number): string {
  const found = networkOfNumber(address)
  return found !== undefined && found.hosting ? found.text : ''
}

/**
 * The first 64 bits of an IPv6 address as two 32-bit numbers, or undefined when the text is not
 * one (`::` expanded; an embedded IPv4 address and a zone lie past the first 64 bits or end the
 * text).
 */
export function ipv6Prefix(address: string): [number, number] | undefined {
  const zone = address.indexOf('%')
  const text = zone < 0 ? address : address.slice(0, zone)
  const gap = text.indexOf('::')
  const head = gap < 0 ? text : text.slice(0, gap)
  const tail = gap < 0 ? '' : text.slice(gap + 2)
  const groups = head === '' ? [] : head.split(':')
  if (gap >= 0) {
    const after = tail === '' ? [] : tail.split(':')
    // an IPv4 tail fills two groups
    const count = after.length + (after.length > 0 && after[after.length - 1]!.includes('.') ? 1 : 0)
    for (let i = groups.length + count; i < 8; i++) groups.push('0')
    groups.push(...after)
  }
  const value = (i: number): number => {
    const g = groups[i] ?? ''
    return /^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN
  }
  const high = value(0) * 65536 + value(1)
  const low = value(2) * 65536 + value(3)
  return Number.isNaN(high) || Number.isNaN(low) ? undefined : [high, low]
}

/** The hosting or relay network of an IPv6 address given by its first 64 bits, or undefined. */
export function networkOfIpv6Prefix(high: number, low: number): Network | undefined {
  const t = (ipv6 ??= loadIpv6())
  let lo = 0
  let hi = t.network.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const sh = t.startHigh[mid]!
    const eh = t.endHigh[mid]!
    if (high < sh || (high === sh && low < t.startLow[mid]!)) hi = mid - 1
    else if (high > eh || (high === eh && low > t.endLow[mid]!)) lo = mid + 1
    else return t.networks[t.network[mid]!]
  }
  return undefined
}

/** The hosting or relay network of an IPv4 or IPv6 address (text), or undefined for any other. */
export function networkOf(address: string): Network | undefined {
  if (address.includes(':')) {
    const prefix = ipv6Prefix(address)
    return prefix === undefined ? undefined : networkOfIpv6Prefix(prefix[0], prefix[1])
  }
  const n = ipv4ToNumber(address)
  return Number.isNaN(n) ? undefined : networkOfNumber(n)
}

/** Calls `visit` for every hosting and relay IPv4 range, in address order (coverage figures, the simulator). */
export function eachNetworkRange(visit: (start: number, end: number, network: Network) => void): void {
  const { starts, ends, network, networks } = (ipv4 ??= loadIpv4())
  for (let i = 0; i < starts.length; i++) visit(starts[i]!, ends[i]!, networks[network[i]!]!)
}
