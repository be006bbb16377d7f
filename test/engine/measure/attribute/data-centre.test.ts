// Data centres on real addresses (docs/data-centres.md, docs/attribution.md §5): cloud ranges
// that the IP library labels with a carrier's name, relays and residential carrier addresses.
// The truth comes from the test's own reading of the two data files: the ASN package's CSV
// (a plain loop over its lines) and ip2region's own search, never from the engine's tables.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { classify } from '../../../../engine/measure/attribute/ivt'
import { RegionLocator } from '../../../../engine/measure/attribute/region'
import { IVT } from '../../../../engine/measure/types'
import { prng } from '../../../helpers/prng'

const require = createRequire(import.meta.url)
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

interface AsRow { start: number; end: number; asn: number; org: string }
interface Label { country: string; isp: string }

const rows: AsRow[] = []
const rows6: { start: bigint; end: bigint; asn: number }[] = []
let library: { searchRaw(ip: string, parse: boolean): Label | null }
const locator = new RegionLocator()

beforeAll(() => {
  const folder = dirname(require.resolve('@ip-location-db/asn/package.json'))
  for (const line of readFileSync(join(folder, 'asn-ipv4-num.csv'), 'utf8').split('\n')) {
    const m = /^(\d+),(\d+),(\d+),"?(.*?)"?\r?$/.exec(line)
    if (m !== null) rows.push({ start: Number(m[1]), end: Number(m[2]), asn: Number(m[3]), org: m[4]! })
  }
  for (const line of readFileSync(join(folder, 'asn-ipv6-num.csv'), 'utf8').split('\n')) {
    const m = /^(\d+),(\d+),(\d+),/.exec(line)
    if (m !== null) rows6.push({ start: BigInt(m[1]!), end: BigInt(m[2]!), asn: Number(m[3]) })
  }
  const { default: IP2Region } = require('ip2region') as { default: new (o: object) => typeof library }
  library = new IP2Region({})
})

const dotted = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
const asOf = (address: string): AsRow | undefined => {
  const [a = 0, b = 0, c = 0, d = 0] = address.split('.').map(Number)
  const n = ((a * 256 + b) * 256 + c) * 256 + d
  return rows.find((r) => r.start <= n && n <= r.end)
}
/** The AS of an IPv6 address: its eight groups read by hand. */
const asOf6 = (address: string): number | undefined => {
  const [head = '', tail = ''] = address.split('::')
  const h = head === '' ? [] : head.split(':')
  const t = tail === '' ? [] : tail.split(':')
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
  const n = groups.reduce((sum, g) => sum * 65536n + BigInt(parseInt(g, 16)), 0n)
  return rows6.find((r) => r.start <= n && n <= r.end)?.asn
}
/** What the hit path decides for an address: located, then classified (attribute/index.ts). */
const verdict = (address: string) => classify(UA, locator.locate(address).isp, false)
/** Carrier names the IP library gives Chinese hosting ranges. */
const CARRIERS = new Set(['电信', '联通', '移动', '铁通', '鹏博士'])
/** The first, middle and last address of a row. */
const samples = (r: AsRow): number[] => [r.start, Math.floor((r.start + r.end) / 2), r.end]

describe('Chinese cloud ranges labelled with a carrier name', () => {
  it('are data centres: every sampled Alibaba, Tencent and Huawei Cloud address that ip2region calls 电信/联通/移动', () => {
    const cloud = /alibaba|tencent|huawei/i
    const found = new Map<string, string[]>()
    const missed: string[] = []
    for (const r of rows) {
      if (!cloud.test(r.org)) continue
      for (const n of samples(r)) {
        const address = dotted(n)
        const label = library.searchRaw(address, true)
        if (label === null || label.country !== '中国' || !CARRIERS.has(label.isp)) continue
        const provider = /alibaba/i.test(r.org) ? 'Alibaba' : /tencent/i.test(r.org) ? 'Tencent' : 'Huawei'
        found.set(provider, [...(found.get(provider) ?? []), address])
        if (verdict(address).ivt !== IVT.datacenter) missed.push(`${address} ${label.isp} AS${r.asn} ${r.org}`)
      }
    }
    // each provider has such ranges in the data, and none of their addresses passes as valid
    for (const provider of ['Alibaba', 'Tencent', 'Huawei']) expect(found.get(provider)?.length ?? 0, provider).toBeGreaterThan(2)
    expect(missed).toEqual([])
  })

  it.each([
    ['42.187.128.1', '电信', 45090, 'Tencent Cloud'],
    ['103.15.96.1', '电信', 37963, 'Alibaba Cloud'],
    ['1.92.0.1', '鹏博士', 55990, 'Huawei Cloud'],
    ['1.203.94.1', '电信', 23724, 'China Telecom IDC'],
  ])('names the network in the rule: %s (%s, AS%i)', (address, label, asn, name) => {
    expect(library.searchRaw(address, true)?.isp).toBe(label)
    expect(asOf(address)?.asn).toBe(asn)
    expect(verdict(address)).toEqual({ ivt: IVT.datacenter, rule: `data centre: ${label} | hosting AS${asn} ${name}` })
  })

  it('marks the IDC networks of the carriers, which the data names `... IDC network`', () => {
    const idc = rows.filter((r) => /\bIDC\b/.test(r.org) && /CHINANET|CHINATELECOM|CNCGROUP/i.test(r.org))
    expect(idc.length).toBeGreaterThan(10)
    const missed = idc.flatMap((r) => samples(r).map(dotted)).filter((a) => verdict(a).ivt !== IVT.datacenter)
    expect(missed).toEqual([])
  })
})

describe('networks that relay browsers', () => {
  it('are never data centres: Cloudflare, Akamai (Private Relay included) and Fastly addresses', () => {
    const relays = new Set([13335, 209242, 20940, 16625, 36183, 54113])
    const sampled = rows.filter((r) => relays.has(r.asn)).flatMap((r) => samples(r).map(dotted))
    expect(sampled.length).toBeGreaterThan(300)
    const marked = sampled.filter((a) => verdict(a).ivt === IVT.datacenter).map((a) => `${a} ${locator.locate(a).isp}`)
    expect(marked).toEqual([])
  })

  it('does not exempt Linode, whose AS the data names Akamai Technologies', () => {
    const linode = rows.filter((r) => r.asn === 63949)
    expect(linode[0]?.org).toMatch(/akamai/i)
    const valid = linode.flatMap((r) => samples(r).map(dotted)).filter((a) => verdict(a).ivt !== IVT.datacenter)
    expect(valid).toEqual([])
  })
})

describe('residential carrier addresses', () => {
  it('stay valid: 2,000 random Chinese addresses of the carriers\' access networks', () => {
    const access = new Set([4134, 4837, 9808, 4812, 4808, 17816, 56040, 56041, 56042, 56044, 56045, 56046, 56047, 56048])
    const rng = prng(3)
    const sampled: string[] = []
    while (sampled.length < 2000) {
      const r = rows[Math.floor(rng() * rows.length)]!
      if (!access.has(r.asn)) continue
      const address = dotted(r.start + Math.floor(rng() * (r.end - r.start + 1)))
      const label = library.searchRaw(address, true)
      if (label !== null && label.country === '中国' && CARRIERS.has(label.isp)) sampled.push(address)
    }
    const marked = sampled.filter((a) => verdict(a).ivt !== IVT.valid).map((a) => `${a} ${locator.locate(a).isp}`)
    expect(marked).toEqual([])
  })

  it.each([['49.77.3.233', '电信'], ['202.96.134.133', '电信'], ['61.135.169.121', '联通'], ['73.21.131.233', '康卡斯特']])('keeps %s (%s) valid', (address, label) => {
    expect(locator.locate(address).isp).toBe(label)
    expect(verdict(address)).toEqual({ ivt: IVT.valid, rule: '' })
  })
})

describe('IPv6 addresses', () => {
  it.each([
    ['2405:f080::1', 136907, true],
    ['2001:4f8:2::1', 16509, true],
    ['2600:1f18::1', 14618, true],
    ['2400:cb00::1', 13335, false],
    ['2a02:26f7:3::1', 36183, false],
    ['2409:8000:100::1', 9808, false],
  ])('classes %s (AS%i) by its AS: data centre %s', (address, asn, dc) => {
    expect(asOf6(address)).toBe(asn)
    expect(verdict(address).ivt).toBe(dc ? IVT.datacenter : IVT.valid)
  })

  it('catches cloud addresses whose IPv6 label names no cloud (Huawei Cloud unlabelled, AWS in ISC\'s space)', () => {
    expect(library.searchRaw('2405:f080::1', true)?.isp ?? '').toBe('')
    expect(library.searchRaw('2001:4f8:2::1', true)?.isp).toMatch(/Internet Systems Consortium/)
    expect(verdict('2405:f080::1').rule).toBe('data centre:  | hosting AS136907 Huawei Cloud')
  })
})
