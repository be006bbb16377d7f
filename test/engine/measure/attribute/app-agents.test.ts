// Measurement truth: the agents of China's large news and payment apps are people, not
// bots. isbot's generic words ('news' of news crawlers, a bare '|') match Toutiao's `NewsArticle/…`
// and `(News 8.5.7 …)`, Tencent News' `qqnews/…`, NetEase News' `NewsApp/…`, Sohu News and Alipay's
// `AlipayDefined(…|…)`: every impression seen in those apps was a declared bot, in no report.
// The agents below are as those apps send them (hand-collected), labelled by hand: people or bots.
import { describe, expect, it } from 'vitest'
import { classify } from '../../../../engine/measure/attribute/ivt'
import { IVT } from '../../../../engine/measure/types'

const PEOPLE: Record<string, string> = {
  'Toutiao (iOS)': 'Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 NewsArticle/8.5.7 JsSdk/2.0 NetType/WIFI (News 8.5.7 15.0)',
  'Toutiao (Android in-app browser)': 'Mozilla/5.0 (Linux; Android 12; V2136A Build/SP1A.210812.003; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/91.0.4472.114 Mobile Safari/537.36 JsSdk/2 NewsArticle/8.6.6 NetType/wifi',
  'Toutiao Lite': 'Mozilla/5.0 (Linux; Android 12; M2102J2SC Build/SKQ1.211006.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/91.0.4472.114 Mobile Safari/537.36 JsSdk/2 NewsArticle/8.9.7 NetType/wifi (NewsLite 8.9.7)',
  'Tencent News': 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 qqnews/7.1.60 qnappversion/7.1.60 AppType/1',
  'NetEase News': 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 NewsApp/106.1 NetType/WIFI (iPhone; iOS 16.5; Scale/3.00)',
  'Sohu News': 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 SohuNews/6.8.0 BundleID/com.sohu.newspaper',
  Alipay: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/20F66 ChannelId(0) Ariver/1.1.0 AliApp(AP/10.3.90.6000) Nebula WK RVKType(0) AlipayDefined(nt:WIFI,ws:390|780|3.0) AlipayClient/10.3.90.6000 Language/zh-Hans Region/CN NebulaX/1.0.0',
  WeChat: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.44(0x18002c2d) NetType/WIFI Language/zh_CN',
  Douyin: 'Mozilla/5.0 (Linux; Android 13; 22081212C Build/TKQ1.220829.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 aweme_280500 JsSdk/1.0 NetType/WIFI Channel/huawei_1128_64 app_version/28.5.0 ByteLocale/zh-CN',
}

const BOTS: Record<string, string> = {
  Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot-News': 'Googlebot-News',
  'a crawler naming a news token too': 'Mozilla/5.0 NewsArticle/1.0 (compatible; Googlebot/2.1)',
  'a news crawler': 'NewsBlur Feed Fetcher - 42 subscribers',
}

describe('declared bots (docs/attribution.md §5)', () => {
  for (const [app, ua] of Object.entries(PEOPLE)) {
    it(`does not take a person in ${app} for a bot, on a web hit or an app hit`, () => {
      expect(classify(ua, '', false).ivt).toBe(IVT.valid)
      expect(classify(ua, '', true).ivt).toBe(IVT.valid)
    })
  }
  for (const [name, ua] of Object.entries(BOTS)) {
    it(`still takes ${name} for a bot`, () => {
      expect(classify(ua, '', false).ivt).toBe(IVT.bot)
    })
  }
})
