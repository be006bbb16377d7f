// The ip2region IPv4 database read range by range (ip-ranges.ts), checked against the package's
// own search and against the region locator.
import { createRequire } from 'node:module'
import { beforeAll, describe, expect, it } from 'vitest'
import { eachIpv4Range, ipv4FromNumber, ipv4ToNumber } from '../../../../engine/measure/attribute/ip-ranges'
import { RegionLocator } from '../../../../engine/measure/attribute/region'
import { buildRegions } from '../../../../engine/reference/regions'
import { prng } from '../../../helpers/prng'
import { DC_IP, DC_REGION, IPS } from '../../reports/dataset'

interface Range { start: number; end: number; country: string; province: string; city: string; isp: string }
interface Raw { country: string; province: string; city: string; isp: string }

const ranges: Range[] = []
beforeAll(() => {
  eachIpv4Range((start, end, country, province, city, isp) => ranges.push({ start, end, country, province, city, isp }))
})

/** The range holding an address, by a plain scan. */
const rangeOf = (address: string): Range => {
  const n = ipv4ToNumber(address)
  const found = ranges.find((r) => r.start <= n && n <= r.end)
  if (found === undefined) throw new Error(`no range holds ${address}`)
  return found
}

describe('eachIpv4Range', () => {
  it('covers 0.0.0.0 to 255.255.255.255 in order, without gaps or overlaps', () => {
    expect(ranges.length).toBeGreaterThan(100_000)
    expect(ranges[0]!.start).toBe(0)
    expect(ranges[ranges.length - 1]!.end).toBe(0xffffffff)
    let bad = 0
    for (let i = 0; i < ranges.length; i++) {
      const r = ranges[i]!
      if (r.end < r.start) bad++
      if (i > 0 && r.start !== ranges[i - 1]!.end + 1) bad++
    }
    expect(bad).toBe(0)
  })

  it('gives the texts that ip2region itself gives, for 2,000 random addresses', () => {
    const require = createRequire(import.meta.url)
    const { default: IP2Region } = require('ip2region') as { default: new (o: object) => { searchRaw(ip: string, parse: boolean): Raw | null } }
    const library = new IP2Region({ disableIpv6: true })
    const rng = prng(24)
    let compared = 0
    for (let i = 0; i < 2000; i++) {
      const address = ipv4FromNumber(Math.floor(rng() * 2 ** 32))
      const raw = library.searchRaw(address, true)
      if (raw === null) continue
      const r = rangeOf(address)
      expect([r.country, r.province, r.city, r.isp], address).toEqual([raw.country, raw.province, raw.city, raw.isp])
      compared++
    }
    expect(compared).toBeGreaterThan(1900)
  })

  it('puts the dataset addresses in ranges whose texts the region locator reads the same way', () => {
    const regions = buildRegions()
    const locator = new RegionLocator(regions)
    const publicOnes = Object.entries(IPS).filter(([ip]) => !ip.startsWith('10.'))
    for (const [ip, region] of [...publicOnes, [DC_IP, DC_REGION] as const]) {
      const located = locator.locate(ip)
      expect(rangeOf(ip).isp, ip).toBe(located.isp)
      expect(regions[located.region]?.region_id, ip).toBe(region)
    }
    expect(rangeOf('202.96.134.133')).toMatchObject({ country: '中国', province: '广东省', city: '深圳市' })
    expect(rangeOf(DC_IP).isp).toBe('阿里云')
  })
})

describe('ipv4ToNumber and ipv4FromNumber', () => {
  it('convert both ways', () => {
    expect(ipv4ToNumber('1.2.3.4')).toBe(16909060)
    expect(ipv4ToNumber('255.255.255.255')).toBe(0xffffffff)
    expect(ipv4FromNumber(0xffffffff)).toBe('255.255.255.255')
    expect(ipv4FromNumber(ipv4ToNumber('47.100.1.1'))).toBe('47.100.1.1')
  })

  it('refuse what is not a dotted IPv4 address', () => {
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1.2.3.x', '::1']) expect(ipv4ToNumber(bad), bad).toBeNaN()
  })
})
