// DESIGN §3.5: declared bots and data-centre addresses (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { classify, isDataCentreIsp } from '../../../../engine/measure/attribute/ivt'
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
    ['中国电信股份有限公司云计算分公司', true], ['EGIHosting', true], ['UCloud', true],
    ['电信', false], ['联通', false], ['移动', false], ['中国移动城域网', false], ['', false], ['内网IP', false],
    ['Midcontinent Communications', false], ['Cloudflare Inc', false], ['阿卡迈', false], ['Fastly', false], ['Google Fiber Inc.', false], ['云南大学', false],
  ]
  it.each(cases)('treats ISP %j as a data centre: %s', (isp, dc) => {
    expect(isDataCentreIsp(isp)).toBe(dc)
    expect(classify(IPHONE, isp)).toEqual(dc ? { ivt: IVT.datacenter, rule: `data centre: ${isp}` } : { ivt: IVT.valid, rule: '' })
  })

  it('finds a bot named past the first 512 characters of a user agent (the cut hid it until 2026-11-26)', () => {
    const padded = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 ${'x'.repeat(520)} Googlebot/2.1`
    expect(classify(padded, '').ivt).toBe(IVT.bot)
    expect(classify(padded.replace(' Googlebot/2.1', ''), '').ivt).toBe(IVT.valid)
  })

  it('puts a declared bot before a data centre', () => {
    expect(classify(GOOGLEBOT, '谷歌').ivt).toBe(IVT.bot)
  })

  it('gives equal verdicts on cache hits', () => {
    expect(isDataCentreIsp('阿里云')).toBe(isDataCentreIsp(['阿里', '云'].join('')))
  })
})
