// DESIGN §3.4: PC or mobile, and the SDK of a mobile hit (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { detectPlatform, osFromMacro, sdkFromParam } from '../../../../engine/measure/attribute/platform'
import { userAgentFacts } from '../../../../engine/measure/attribute/user-agent'
import { PLATFORM, SDK } from '../../../../engine/measure/types'

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  tv: 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36',
  wechat: 'Mozilla/5.0 (Linux; Android 12; V2118A Build/SP1A.210812.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/86.0.4240.99 XWEB/4317 MMWEBSDK/20220903 Mobile Safari/537.36 MicroMessenger/8.0.28.2240(0x28001C57) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  harmony: 'Mozilla/5.0 (Phone; OpenHarmony 4.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.0.4.300',
  iosApp: 'MyApp/1.0 CFNetwork/1410.0.3 Darwin/22.6.0',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
}
const none = new Map<string, string>()
const params = (o: Record<string, string>): Map<string, string> => new Map(Object.entries(o))

describe('detectPlatform: user agents', () => {
  const cases: [string, string, number, string][] = [
    ['iPhone Safari', UA.iphone, PLATFORM.mb, 'ios'],
    ['Android Chrome', UA.android, PLATFORM.mb, 'android'],
    ['Windows Chrome', UA.windows, PLATFORM.pc, 'windows'],
    ['Mac Safari', UA.mac, PLATFORM.pc, 'macos'],
    ['iPad Safari', UA.ipad, PLATFORM.mb, 'ios'],
    ['a smart TV', UA.tv, PLATFORM.mb, 'tizen'],
    ['WeChat on Android', UA.wechat, PLATFORM.mb, 'android'],
    ['a HarmonyOS phone', UA.harmony, PLATFORM.mb, 'harmonyos'],
    ['an iOS app without a device type (mobile OS)', UA.iosApp, PLATFORM.mb, 'ios'],
    ['Linux Firefox', UA.linux, PLATFORM.pc, 'linux'],
    ['no user agent', '', PLATFORM.pc, ''],
  ]
  it.each(cases)('classifies %s', (_name, ua, platform, os) => {
    expect(detectPlatform(none, ua)).toEqual({ platform, sdk: SDK.none, os })
  })
})

describe('detectPlatform: macros', () => {
  const cases: [string, Record<string, string>, number, string][] = [
    ['is mobile when a device id is filled', { m11: 'oaid-1' }, PLATFORM.mb, 'windows'],
    ['ignores an unfilled device id', { m5: '__IDFA__', m11: '' }, PLATFORM.pc, 'windows'],
    ['is mobile when mo=0 (Android)', { mo: '0' }, PLATFORM.mb, 'android'],
    ['is mobile when mo=1 (iOS)', { mo: '1' }, PLATFORM.mb, 'ios'],
    ['is mobile when mo=2 (Windows Phone)', { mo: '2' }, PLATFORM.mb, 'windows phone'],
    ['is mobile when mo names iOS in words', { mo: 'iOS' }, PLATFORM.mb, 'ios'],
    ['is mobile when mo names HarmonyOS', { mo: 'HarmonyOS' }, PLATFORM.mb, 'harmonyos'],
    ['follows the user agent when mo=3 (other)', { mo: '3' }, PLATFORM.pc, 'windows'],
    ['follows the user agent when mo is unfilled', { mo: '__OS__' }, PLATFORM.pc, 'windows'],
  ]
  it.each(cases)('%s', (_name, p, platform, os) => {
    expect(detectPlatform(params(p), UA.windows)).toEqual({ platform, sdk: SDK.none, os })
  })

  it('reports os "other" when only mo=3 names it', () => {
    expect(detectPlatform(params({ mo: '3' }), '').os).toBe('other')
  })
})

describe('detectPlatform: SDK', () => {
  const cases: [string, Record<string, string>, string, number][] = [
    ['takes sdk=mm on a mobile hit', { sdk: 'mm' }, UA.android, SDK.mm],
    ['takes sdk=MZ in any case', { sdk: 'MZ' }, UA.iphone, SDK.mz],
    ['takes a MiaozhenSDK token in the user agent', {}, `${UA.android} MiaozhenSDK/3.1`, SDK.mz],
    ['takes an MMA-SDK token in the user agent', {}, 'MMA-SDK/2.0 (Android 13)', SDK.mm],
    ['lets sdk= win over the user agent token', { sdk: 'mm' }, `${UA.android} MiaozhenSDK/3.1`, SDK.mm],
    ['ignores an unknown sdk= value', { sdk: 'xx' }, UA.android, SDK.none],
    ['gives no SDK to a PC hit', { sdk: 'mz' }, UA.windows, SDK.none],
    ['reads the SDK of an app hit with a device id', { sdk: 'mz', m11: 'oaid-5c2e' }, 'okhttp/4.9.0', SDK.mz],
  ]
  it.each(cases)('%s', (_name, p, ua, sdk) => {
    expect(detectPlatform(params(p), ua).sdk).toBe(sdk)
  })

  it.each([['mm', SDK.mm], [' mz ', SDK.mz], ['', null], [undefined, null]] as const)('sdkFromParam(%j)', (v, sdk) => {
    expect(sdkFromParam(v)).toBe(sdk)
  })

  it.each([['0', 'android'], ['1', 'ios'], ['__OS__', ''], [undefined, ''], ['9', '']] as const)('osFromMacro(%j)', (v, os) => {
    expect(osFromMacro(v)).toBe(os)
  })
})

describe('userAgentFacts cache', () => {
  it('gives equal facts on a cache hit', () => {
    const first = userAgentFacts(UA.ipad)
    expect(userAgentFacts(`${UA.ipad}`)).toBe(first)
    expect(first).toMatchObject({ deviceType: 'tablet', os: 'ios', mobile: true, bot: '' })
  })

  it('parses only the first 512 characters of a very long user agent', () => {
    expect(userAgentFacts(UA.iphone + ' x'.repeat(2000))).toMatchObject({ mobile: true })
  })
})
