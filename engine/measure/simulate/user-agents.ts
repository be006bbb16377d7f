/**
 * The user agents simulated clients send (docs/simulator.md, "Clients"): desktop browsers,
 * mobile browsers and in-app web views, app SDKs and declared bots, each with its share of its
 * group and, for browsers, the chance that one refuses third-party cookies. Chrome sends its
 * reduced user agent (one string per major version, the same for every user of that version).
 */

/** One user agent of a group, its weight in the group and the share of its browsers that refuse cookies. */
export interface AgentEntry {
  ua: string
  weight: number
  refuse: number
}

const chromeWin = (major: number): string => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`
const chromeMac = (major: number): string => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`
const edge = (major: number): string => `${chromeWin(major)} Edg/${major}.0.0.0`
const chromeAndroid = (major: number): string => `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`

/**
 * Desktop browsers. Safari blocks third-party cookies (ITP) and Firefox partitions them; a few
 * Chrome and Edge users turn them off in their privacy settings.
 */
export const DESKTOP_AGENTS: readonly AgentEntry[] = [
  { ua: chromeWin(131), weight: 30, refuse: 0.06 },
  { ua: chromeWin(130), weight: 14, refuse: 0.06 },
  { ua: chromeWin(129), weight: 5, refuse: 0.06 },
  { ua: chromeWin(128), weight: 3, refuse: 0.06 },
  { ua: chromeMac(131), weight: 6, refuse: 0.06 },
  { ua: chromeMac(130), weight: 3, refuse: 0.06 },
  { ua: edge(131), weight: 14, refuse: 0.05 },
  { ua: edge(130), weight: 6, refuse: 0.05 },
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', weight: 4, refuse: 0.5 },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0', weight: 1, refuse: 0.5 },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', weight: 4, refuse: 1 },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15', weight: 2, refuse: 1 },
]

const WECHAT_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323d) NetType/WIFI Language/zh_CN'
const WECHAT_ANDROID = 'Mozilla/5.0 (Linux; Android 14; V2309A Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.120 Mobile Safari/537.36 XWEB/1220133 MMWEBSDK/20240404 MMWEBID/6170 MicroMessenger/8.0.49.2600(0x28003133) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64'
const DOUYIN_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 aweme_30.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/zh Region/CN AppTheme/dark WKWebView/1 BytedanceWebview/d8a21c6'
const DOUYIN_ANDROID = 'Mozilla/5.0 (Linux; Android 13; PGT-AN10 Build/HONORPGT-AN10; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 aweme_300700 JsSdk/1.0 NetType/WIFI Channel/huawei_1128_64 app_version/30.7.0 ByteLocale/zh-CN Region/CN AppTheme/light BytedanceWebview/d8a21c6'

/**
 * Mobile browsers and the web views inside WeChat and Douyin. Safari and iOS web views (WKWebView)
 * block third-party cookies; Android web views keep them.
 */
export const MOBILE_WEB_AGENTS: readonly AgentEntry[] = [
  { ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', weight: 8, refuse: 1 },
  { ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1', weight: 4, refuse: 1 },
  { ua: chromeAndroid(131), weight: 8, refuse: 0.05 },
  { ua: chromeAndroid(130), weight: 4, refuse: 0.05 },
  { ua: WECHAT_IOS, weight: 10, refuse: 1 },
  { ua: WECHAT_ANDROID, weight: 14, refuse: 0.03 },
  { ua: DOUYIN_IOS, weight: 6, refuse: 1 },
  { ua: DOUYIN_ANDROID, weight: 8, refuse: 0.03 },
]

/** What native iOS apps' SDKs send (the app's web view agent). */
export const IOS_APP_AGENTS: readonly AgentEntry[] = [
  { ua: WECHAT_IOS, weight: 4, refuse: 0 },
  { ua: DOUYIN_IOS, weight: 4, refuse: 0 },
  { ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', weight: 3, refuse: 0 },
]

/** What native Android apps' SDKs send. */
export const ANDROID_APP_AGENTS: readonly AgentEntry[] = [
  { ua: WECHAT_ANDROID, weight: 4, refuse: 0 },
  { ua: DOUYIN_ANDROID, weight: 4, refuse: 0 },
  { ua: 'Dalvik/2.1.0 (Linux; U; Android 13; 22081212C Build/TKQ1.220829.002)', weight: 3, refuse: 0 },
]

/** Crawlers that say what they are (isbot recognises each): from data centres, some from abroad. */
export const BOT_AGENTS: readonly AgentEntry[] = [
  { ua: 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', weight: 4, refuse: 1 },
  { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', weight: 2, refuse: 1 },
  { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', weight: 2, refuse: 1 },
  { ua: 'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', weight: 1, refuse: 1 },
  { ua: 'Mozilla/5.0 (compatible; YisouSpider/5.0; http://www.yisou.com)', weight: 1, refuse: 1 },
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', weight: 2, refuse: 1 },
]

/** The user agents of every group in one list (a client keeps the index of its own). */
export const AGENT_GROUPS = { desktop: DESKTOP_AGENTS, mobileWeb: MOBILE_WEB_AGENTS, iosApp: IOS_APP_AGENTS, androidApp: ANDROID_APP_AGENTS, bot: BOT_AGENTS } as const
export type AgentGroup = keyof typeof AGENT_GROUPS
