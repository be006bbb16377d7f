// DESIGN §3.3: region from the IP (docs/attribution.md, docs/regions.md)
import { describe, expect, it } from 'vitest'
import { PlaceMatcher } from '../../../../engine/measure/attribute/place-matcher'
import { chooseIp, isNonPublicAddress, normaliseAddress, RegionLocator } from '../../../../engine/measure/attribute/region'
import { buildRegions, GLOBAL_REGION_ID, MAINLAND_REGION_ID } from '../../../../engine/reference/regions'

const regions = buildRegions()
const locator = new RegionLocator(regions)
const gbOf = (index: number): string => regions[index]?.gb_code ?? 'none'
const idOf = (index: number): string => regions[index]?.region_id ?? 'none'
const params = (o: Record<string, string>): Map<string, string> => new Map(Object.entries(o))

describe('RegionLocator.locate', () => {
  const cases: [string, string, string][] = [
    ['a Shenzhen address to 深圳市', '202.96.134.133', '440300'],
    ['a Beijing address to the 北京市 city row', '61.135.169.121', '110100'],
    ['a Shanghai address (library: 上海) to the 上海市 city row', '47.100.1.1', '310100'],
    ['114.114.114.114 to 南京市', '114.114.114.114', '320100'],
    ['a Chengdu address to 成都市', '61.139.2.69', '510100'],
    ['a Hong Kong address to Hong Kong', '203.198.7.66', '810000'],
    ['a Macau address to Macau', '202.175.3.8', '820000'],
    ['a Taiwan address with a city to Taiwan', '140.112.1.1', '710000'],
    ['a Chinese IPv6 address to its city', '240e:e9:8819::1', '320500'],
    ['an IPv6 address of a municipality to its city row', '2409:8000::1', '110100'],
    ['an IPv4-mapped IPv6 address like its IPv4 address', '::ffff:202.96.134.133', '440300'],
  ]
  it.each(cases)('maps %s', (_name, ip, gb) => {
    expect(gbOf(locator.locate(ip).region)).toBe(gb)
  })

  const level0: [string, string, string][] = [
    ['a Chinese address without a province to mainland China', '2408:8000::1', MAINLAND_REGION_ID],
    ['a foreign address to global', '8.8.8.8', GLOBAL_REGION_ID],
    ['a foreign IPv6 address to global', '2001:4860:4860::8888', GLOBAL_REGION_ID],
    ['loopback to global', '127.0.0.1', GLOBAL_REGION_ID],
    ['a private address to global', '192.168.1.1', GLOBAL_REGION_ID],
    ['IPv6 loopback to global', '::1', GLOBAL_REGION_ID],
    ['a link-local IPv6 address to global', 'fe80::1', GLOBAL_REGION_ID],
    ['an invalid address to global', 'not an ip', GLOBAL_REGION_ID],
    ['an empty address to global', '', GLOBAL_REGION_ID],
  ]
  it.each(level0)('maps %s', (_name, ip, id) => {
    expect(idOf(locator.locate(ip).region)).toBe(id)
  })

  it('reports the ISP', () => {
    expect(locator.locate('47.100.1.1').isp).toBe('阿里云')
    expect(locator.locate('127.0.0.1').isp).toBe('')
  })

  it('puts global at index 0 and mainland China at index 1', () => {
    expect([locator.locate('8.8.8.8').region, locator.locate('2408:8000::1').region]).toEqual([0, 1])
  })

  it('gives equal results on cache hits and from a new locator', () => {
    const first = locator.locate('202.96.134.133')
    expect(locator.locate('202.96.134.133')).toBe(first)
    expect(new RegionLocator(regions, { cacheSize: 1 }).locate('202.96.134.133')).toEqual(first)
    expect(Object.isFrozen(first)).toBe(true)
  })
})

describe('PlaceMatcher', () => {
  const matcher = new PlaceMatcher(regions)
  const cases: [string, string][] = [
    ['广东省深圳市', '440300'], ['北京北京市', '110100'], ['北京市海淀区', '110100'], ['重庆市', '500100'], ['广西区南宁市', '450100'],
    ['内蒙古自治区呼和浩特市', '150100'], ['内蒙古呼和浩特市', '150100'], ['新疆区乌鲁木齐市', '650100'], ['吉林省吉林市', '220200'],
    ['四川省自贡市', '510300'], ['湖北省仙桃市', '429004'], ['吉林省延边朝鲜族自治州', '222400'], ['山东省莱芜市', '370100'],
    ['陕西省杨凌市', '610400'], ['广东省', '440000'], ['广东省某市', '440000'], ['香港区', '810000'], ['香港荃湾', '810000'],
    ['台湾省台北市', '710000'], ['澳门', '820000'],
  ]
  it.each(cases)('maps %j to GB %s', (text, gb) => {
    expect(gbOf(matcher.match(text))).toBe(gb)
  })

  it.each(['', '火星', '中国'])('maps %j to mainland China', (text) => {
    expect(idOf(matcher.match(text))).toBe(MAINLAND_REGION_ID)
  })
})

describe('chooseIp', () => {
  const cases: [string, Record<string, string>, string, string][] = [
    ['takes a valid ns= over the socket', { ns: '202.96.134.133' }, '10.0.0.1', '202.96.134.133'],
    ['takes an IPv6 ns=', { ns: '240e:e9:8819::1' }, '10.0.0.1', '240e:e9:8819::1'],
    ['strips ::ffff: from ns=', { ns: '::ffff:1.2.3.4' }, '10.0.0.1', '1.2.3.4'],
    ['ignores an unreplaced __IP__', { ns: '__IP__' }, '61.135.169.121', '61.135.169.121'],
    ['ignores an empty ns=', { ns: '' }, '61.135.169.121', '61.135.169.121'],
    ['ignores an invalid ns=', { ns: '999.1.1.1' }, '61.135.169.121', '61.135.169.121'],
    // the media's own network: located nowhere
    ...['10.1.2.3', '192.168.1.1', '172.16.0.9', '100.64.1.1', '127.0.0.1', '169.254.1.1', 'fd00::1', 'fe80::1%eth0', '::1'].map(
      (ns): [string, Record<string, string>, string, string] => [`ignores a private ns= ${ns}`, { ns }, '61.135.169.121', '61.135.169.121']),
    ['strips ::ffff: from the socket address', {}, '::ffff:127.0.0.1', '127.0.0.1'],
    ['keeps an IPv6 socket address', {}, '::1', '::1'],
  ]
  it.each(cases)('%s', (_name, p, socket, ip) => {
    expect(chooseIp(params(p), socket)).toBe(ip)
  })

  it('lets ns= decide the region', () => {
    expect(gbOf(locator.locate(chooseIp(params({ ns: '202.96.134.133' }), '127.0.0.1')).region)).toBe('440300')
  })

  it.each([['[::1]', '::1'], [' 1.2.3.4 ', '1.2.3.4'], ['::FFFF:1.2.3.4', '1.2.3.4'], ['::ffff:abcd', '::ffff:abcd']])('normaliseAddress(%j)', (a, b) => {
    expect(normaliseAddress(a)).toBe(b)
  })
})

describe('isNonPublicAddress', () => {
  it.each([
    ['127.0.0.1', 4, true], ['10.1.2.3', 4, true], ['172.16.0.1', 4, true], ['172.31.255.255', 4, true], ['172.32.0.1', 4, false],
    ['192.168.0.1', 4, true], ['169.254.1.1', 4, true], ['100.64.0.1', 4, true], ['100.128.0.1', 4, false], ['0.0.0.0', 4, true],
    ['8.8.8.8', 4, false], ['::1', 6, true], ['::', 6, true], ['fd00::1', 6, true], ['FE80::1', 6, true], ['240e::1', 6, false],
  ] as const)('%s is non-public: %s', (ip, v, expected) => {
    expect(isNonPublicAddress(ip, v)).toBe(expected)
  })
})
