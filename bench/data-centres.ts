/**
 * Data-centre coverage of the IP library (docs/data-centres.md): every ISP label of ip2region's
 * IPv4 database with its addresses, what the label rule alone marks (ivt.ts isDataCentreIsp on
 * the label), what the rule of the hit path marks (the address's AS first: hosting.ts, then the
 * label), per known cloud what each catches, and what the AS table costs. Run:
 * `node --expose-gc --import tsx bench/data-centres.ts [--labels]`
 * (`--labels` also prints every label with its addresses and the share each rule marks).
 */
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { eachNetworkRange, HOSTING_ASNS, networkOf, type Network } from '../engine/measure/attribute/hosting'
import { eachIpv4Range, ipv4FromNumber } from '../engine/measure/attribute/ip-ranges'
import { isDataCentreIsp } from '../engine/measure/attribute/ivt'
import { RegionLocator } from '../engine/measure/attribute/region'

// cost first, before the scans below allocate: loading the AS table, then uncached lookups
const memory = async (): Promise<number> => {
  await new Promise((resolve) => setTimeout(resolve, 50)) // let the file's buffer go
  globalThis.gc?.()
  globalThis.gc?.()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
const memoryBefore = await memory()
let t0 = performance.now()
networkOf('1.1.1.1')
const loadMs = performance.now() - t0
const memoryAfter = await memory()
let seed = 24
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed / 2 ** 31
}
const sample = Array.from({ length: 200_000 }, () => ipv4FromNumber(Math.floor(random() * 2 ** 32)))
t0 = performance.now()
let inHosting = 0
for (const a of sample) if (networkOf(a)?.hosting === true) inHosting++
const networkUs = ((performance.now() - t0) * 1000) / sample.length
const locator = new RegionLocator(undefined, { cacheSize: 1 })
locator.locate('1.1.1.1')
t0 = performance.now()
for (const a of sample) locator.locate(a)
const locateUs = ((performance.now() - t0) * 1000) / sample.length

interface Label { addresses: number; ranges: number; byLabel: boolean; marked: number }
interface Span { start: number; end: number; isp: string; country: string; where: string }
const labels = new Map<string, Label>()
const spans: Span[] = []
eachIpv4Range((start, end, country, province, city, isp) => {
  let l = labels.get(isp)
  if (l === undefined) {
    l = { addresses: 0, ranges: 0, byLabel: isDataCentreIsp(isp), marked: 0 }
    labels.set(isp, l)
  }
  l.addresses += end - start + 1
  l.ranges++
  spans.push({ start, end, isp, country, where: province + city })
})
const networks: { start: number; end: number; network: Network }[] = []
eachNetworkRange((start, end, network) => networks.push({ start, end, network }))

const CARRIER = new Set(['电信', '联通', '移动', '铁通', '鹏博士'])
const IGNORED = new Set(['内网IP']) // private and reserved addresses ('' is a public address of unknown ISP)
let publicAddresses = 0
let before = 0
let after = 0
let carrierAdded = 0
const added = new Map<string, number>()
const relayed = new Map<string, number>()
const examples = new Map<string, string>()
const carrierAddedBy = new Map<string, number>()
/** Per known cloud (HOSTING_ASNS name): its addresses, and how many the label rule marked. */
const clouds = new Map<string, { addresses: number; byLabel: number }>()

// walk the two sorted lists together; an address outside every network keeps its label's verdict
let h = 0
for (const s of spans) {
  const label = labels.get(s.isp)!
  const size = s.end - s.start + 1
  const counted = !IGNORED.has(s.isp)
  let decided = 0 // addresses of this span inside a network
  let markedHere = 0
  while (h < networks.length && networks[h]!.end < s.start) h++
  for (let k = h; k < networks.length && networks[k]!.start <= s.end; k++) {
    const { start, end, network } = networks[k]!
    const from = Math.max(start, s.start)
    const n = Math.min(end, s.end) - from + 1
    decided += n
    if (network.hosting) markedHere += n
    const key = `${s.isp || '(none)'} <- ${network.text}`
    if (network.hosting && !label.byLabel) {
      added.set(key, (added.get(key) ?? 0) + n)
      if (s.country === '中国' && CARRIER.has(s.isp)) {
        carrierAdded += n
        carrierAddedBy.set(network.text, (carrierAddedBy.get(network.text) ?? 0) + n)
        if (!examples.has(network.text)) examples.set(network.text, `${ipv4FromNumber(from)} (${s.where} ${s.isp})`)
      }
    }
    if (!network.hosting && label.byLabel) relayed.set(key, (relayed.get(key) ?? 0) + n)
    if (network.hosting && HOSTING_ASNS.has(network.asn)) {
      const c = clouds.get(network.name) ?? { addresses: 0, byLabel: 0 }
      c.addresses += n
      if (label.byLabel) c.byLabel += n
      clouds.set(network.name, c)
    }
  }
  if (label.byLabel) markedHere += size - decided
  label.marked += markedHere
  if (!counted) continue
  publicAddresses += size
  if (label.byLabel) before += size
  after += markedHere
}

const M = (n: number): string => `${(n / 1e6).toFixed(2)} M`
const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(2)}%`
const count = (m: Map<string, Label>, f: (l: Label) => boolean): number => [...m].filter(([isp, l]) => !IGNORED.has(isp) && f(l)).length
const top = (m: Map<string, number>, n: number): string[] => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${k}: ${v}`)

console.log(`AS table: ${networks.length} ranges (${networks.filter((r) => r.network.hosting).length} hosting), loaded in ${loadMs.toFixed(0)} ms, memory +${((memoryAfter - memoryBefore) / 2 ** 20).toFixed(1)} MiB (heap and array buffers; settled under --expose-gc)`)
console.log(`networkOf: ${networkUs.toFixed(2)} us a lookup (${inHosting} of ${sample.length} random addresses in hosting); RegionLocator.locate uncached: ${locateUs.toFixed(2)} us`)
console.log(`ip2region v4: ${spans.length} ranges, ${labels.size - 2} labels (besides '' and 内网IP), ${M(publicAddresses)} public addresses (all but 内网IP), ${M(labels.get('')?.addresses ?? 0)} of them without a label`)
console.log(`label rule: ${count(labels, (l) => l.byLabel)} labels, ${M(before)} addresses (${pct(before, publicAddresses)})`)
console.log(`hit-path rule: ${count(labels, (l) => l.marked > 0)} labels with marked addresses, ${M(after)} addresses (${pct(after, publicAddresses)})`)
console.log(`  added by AS: ${M([...added.values()].reduce((a, b) => a + b, 0))} (ranges in China labelled 电信/联通/移动/铁通/鹏博士: ${M(carrierAdded)}); taken back as relays: ${[...relayed.values()].reduce((a, b) => a + b, 0)} addresses`)
console.log('\nknown clouds (HOSTING_ASNS): addresses, share the label rule marked (the hit-path rule marks all):')
for (const [name, c] of [...clouds].sort((a, b) => b[1].addresses - a[1].addresses)) console.log(`  ${name}: ${M(c.addresses)}, ${pct(c.byLabel, c.addresses)}`)
console.log('\nlargest additions (label <- network: addresses):')
console.log(top(added, 30).join('\n'))
console.log('\ntaken back as relays (label <- network: addresses):')
console.log(top(relayed, 10).join('\n'))
console.log('\nranges in China (中国: Hong Kong and Taiwan included) labelled with a carrier, by network (addresses):')
console.log(top(carrierAddedBy, 25).join('\n'))
console.log('\ncarrier-labelled examples in China (first address of each network):')
for (const [network, example] of examples) console.log(`  ${network}: ${example}`)

// The IPv6 database's labels, read through ip2region's own IPv6 reader (its index: 8-byte start
// of a /64 range and a record pointer); its texts are finer than the IPv4 ones (中国电信IDC).
interface Ipv6Reader { record: number; indexStart: number; offlen: number; readLongData(at: number): number; getAddr(at: number): { aArea: string } }
const { default: IP2Region } = createRequire(import.meta.url)('ip2region') as { default: new () => { ipv6: Ipv6Reader } }
const v6 = new IP2Region().ipv6
const v6Labels = new Set<string>()
for (let i = 0; i < v6.record; i++) v6Labels.add(v6.getAddr(v6.readLongData(v6.indexStart + i * (8 + v6.offlen) + 8)).aArea)
console.log(`\nip2region v6: ${v6.record} ranges, ${v6Labels.size} ISP texts, ${[...v6Labels].filter((t) => isDataCentreIsp(t)).length} marked by the label rule`)

if (process.argv.includes('--labels')) {
  console.log('\nevery label: addresses, ranges, marked by the label rule, share marked by the hit-path rule:')
  for (const [isp, l] of [...labels].sort((a, b) => b[1].addresses - a[1].addresses)) {
    console.log(`  ${l.addresses}\t${l.ranges}\t${l.byLabel ? 'dc' : '-'}\t${pct(l.marked, l.addresses)}\t${isp || "''"}`)
  }
}
