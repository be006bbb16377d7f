// DESIGN §3.5: declared bots and data-centre addresses (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { networkOfAs } from '../../../../engine/measure/attribute/hosting'
import { classify, isDataCentreIsp, ispText } from '../../../../engine/measure/attribute/ivt'
import { IVT } from '../../../../engine/measure/types'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

describe('classify: declared bots', () => {
  const cases: [string, string | undefined, boolean, number][] = [
    ['Googlebot', GOOGLEBOT, false, IVT.bot],
    ['Baiduspider', 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', false, IVT.bot],
    ['curl', 'curl/8.5.0', false, IVT.bot],
    ['python-requests', 'python-requests/2.31.0', false, IVT.bot],
    ['headless Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36', false, IVT.bot],
    ['a missing user agent', undefined, false, IVT.bot],
    ['an empty user agent', '  ', true, IVT.bot],
    ['okhttp on a web hit', 'okhttp/4.9.0', false, IVT.bot],
    ['okhttp on an app hit', 'okhttp/4.9.0', true, IVT.valid],
    ['an MMA-SDK agent on an app hit', 'MMA-SDK/1.0', true, IVT.valid],
    ['the Weibo app agent on an app hit', 'Weibo (iPhone14,2__weibo__13.6.1__iphone__os16.5)', true, IVT.valid],
    ['Googlebot on an app hit', GOOGLEBOT, true, IVT.bot],
    ['curl on an app hit', 'curl/8.5.0', true, IVT.bot],
    ['python-requests on an app hit', 'python-requests/2.31.0', true, IVT.bot],
    ['iPhone Safari', IPHONE, false, IVT.valid],
  ]
  it.each(cases)('classifies %s', (_name, ua, app, ivt) => {
    expect(classify(ua, '电信', app).ivt).toBe(ivt)
  })

  it('names the rule that applied', () => {
    expect(classify(undefined, '')).toEqual({ ivt: IVT.bot, rule: 'no user agent' })
    expect(classify('curl/8.5.0', '').rule).toMatch(/^declared bot: /)
    expect(classify(IPHONE, '')).toEqual({ ivt: IVT.valid, rule: '' })
  })
})

describe('classify: data centres', () => {
  const cases: [string, boolean][] = [
    ['阿里云', true], ['阿里云计算有限公司', true], ['腾讯', true], ['深圳市腾讯计算机系统有限公司腾讯云服务器网段', true], ['华为云服务数据中心', true],
    ['百度', true], ['北京金山云网络技术有限公司', true], ['亚马逊', true], ['Amazon AWS EC2 云主机服务器网段 - 美国东部1区', true], ['谷歌', true],
    ['Google Inc 服务器网段 (Anycast)', true], ['微软', true], ['Microsoft Corporation', true], ['Digital Ocean LLC', true], ['Linode LLC', true],
    ['Vultr Holdings LLC (The Constant Company LLC)', true], ['OVH SAS', true], ['Hetzner Online GmbH', true], ['中国电信IDC', true],
    ['中国电信股份有限公司云计算分公司', true], ['EGIHosting', true], ['UCloud', true], ['SmileServ', true], ['Ctrls', true], ['互联优势', true],
    ['电信', false], ['联通', false], ['移动', false], ['中国移动城域网', false], ['', false], ['内网IP', false],
    ['Midcontinent Communications', false], ['Cloudflare Inc', false], ['阿卡迈', false], ['Fastly', false], ['Google Fiber Inc.', false], ['云南大学', false],
  ]
  it.each(cases)('treats ISP %j as a data centre: %s', (isp, dc) => {
    expect(isDataCentreIsp(isp)).toBe(dc)
    expect(classify(IPHONE, isp)).toEqual(dc ? { ivt: IVT.datacenter, rule: `data centre: ${isp}` } : { ivt: IVT.valid, rule: '' })
  })

  it('finds a bot named past the first 512 characters of a user agent (not cut off)', () => {
    const padded = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 ${'x'.repeat(520)} Googlebot/2.1`
    expect(classify(padded, '').ivt).toBe(IVT.bot)
    expect(classify(padded.replace(' Googlebot/2.1', ''), '').ivt).toBe(IVT.valid)
  })

  it('puts a declared bot before a data centre', () => {
    expect(classify(GOOGLEBOT, '谷歌').ivt).toBe(IVT.bot)
  })

  const network = (asn: number, organisation: string) => networkOfAs(asn, organisation)
  it('lets the address\'s AS decide over the label: hosting is a data centre, a relay is not', () => {
    const cases: [string, ReturnType<typeof network>, string, boolean][] = [
      ['电信', network(45090, 'Shenzhen Tencent Computer Systems Company Limited'), '电信 | hosting AS45090 Tencent Cloud', true],
      ['', network(4694, 'IDC Frontier Inc.'), ' | hosting AS4694 IDC Frontier Inc.', true],
      ['阿卡迈', network(63949, 'Akamai Technologies, Inc.'), '阿卡迈 | hosting AS63949 Linode', true],
      ['亚马逊', network(13335, 'Cloudflare, Inc.'), '亚马逊 | relay AS13335 Cloudflare', false],
      ['谷歌', network(54113, 'Fastly, Inc.'), '谷歌 | relay AS54113 Fastly', false],
      // where the AS agrees with the label, or is neither, the label stands alone
      ['阿里云', network(37963, 'Hangzhou Alibaba Advertising Co.,Ltd.'), '阿里云', true],
      ['Cloudflare', network(13335, 'Cloudflare, Inc.'), 'Cloudflare', false],
      ['电信', network(4134, 'Chinanet'), '电信', false],
      ['亚马逊', undefined, '亚马逊', true],
    ]
    for (const [label, net, text, dc] of cases) {
      expect(ispText(label, net), label).toBe(text)
      expect(isDataCentreIsp(text), text).toBe(dc)
    }
    expect(classify(IPHONE, '电信 | hosting AS45090 Tencent Cloud')).toEqual({ ivt: IVT.datacenter, rule: 'data centre: 电信 | hosting AS45090 Tencent Cloud' })
  })

  it('classifies ASes by number, then by organisation name', () => {
    const hosting = (asn: number, organisation: string): boolean | undefined => network(asn, organisation)?.hosting
    expect(hosting(16509, 'Amazon.com, Inc.')).toBe(true)
    expect(hosting(47583, 'Hostinger International Limited')).toBe(true)
    expect(hosting(134238, 'CHINANET Jiangx province IDC network')).toBe(true)
    expect(hosting(45370, 'BROADBANDIDC')).toBe(true)
    expect(hosting(13878, 'Scala Data Centers')).toBe(true)
    expect(hosting(7979, 'Servers.com, Inc.')).toBe(true)
    expect(hosting(20940, 'Akamai International B.V.')).toBe(false)
    expect(hosting(21342, 'Akamai Technologies, Inc.')).toBe(false)
    expect(hosting(41012, 'The Cloud Networks Limited')).toBe(false)
    // access networks: no hosting word (AFRIHOST's `host` is not at a word's start, Colombia is not `colocation`)
    for (const [asn, org] of [[4134, 'Chinanet'], [9808, 'China Mobile'], [37611, 'AFRIHOST SP (PTY) LTD'], [3816, 'COLOMBIA TELECOMUNICACIONES S.A. ESP'], [7922, 'Comcast Cable Communications, LLC'], [11232, 'Midcontinent Communications']] as const) {
      expect(network(asn, org), org).toBeUndefined()
    }
  })

  it('gives equal verdicts on cache hits', () => {
    expect(isDataCentreIsp('阿里云')).toBe(isDataCentreIsp(['阿里', '云'].join('')))
  })
})
