/**
 * What attribution needs to know of a user agent (device class, OS, declared bot, SDK marker),
 * parsed once per distinct user agent and kept in a bounded LRU: ua-parser-js costs about
 * 10 µs a parse, a cache hit well under 1 µs.
 */
import { isbotMatch, list as isbotPatterns } from 'isbot'
import UAParser from 'ua-parser-js'
import { SDK, type SdkCode } from '../types'
import { Lru } from './lru'

/** The facts of one user agent. */
export interface UserAgentFacts {
  /** ua-parser-js device type (`mobile`, `tablet`, `smarttv`, …), '' for a desktop or unknown device. */
  deviceType: string
  /** Lower-case OS name (`ios`, `android`, `harmonyos`, `windows`, `macos`, `linux`, …), '' when unknown. */
  os: string
  /** The device is not a personal computer: a device type, or a mobile OS. */
  mobile: boolean
  /** The text isbot matched ('' when none): a declared bot for a web hit. */
  bot: string
  /** The same with only isbot's named patterns: a declared bot for an app hit (see ivt.ts). */
  appBot: string
  /** SDK named by a `MiaozhenSDK` / `MMA-SDK` token. */
  sdk: SdkCode
}

const MOBILE_OS = new Set(['ios', 'android', 'harmonyos', 'windows phone', 'kaios', 'blackberry', 'symbian', 'firefox os', 'sailfish'])
const OS_ALIASES: Readonly<Record<string, string>> = { 'mac os': 'macos', openharmony: 'harmonyos' }

/**
 * isbot patterns that match any short `Name/1.0` agent or a generic HTTP client (okhttp,
 * Alamofire, the Weibo app): normal for an app's SDK, so they do not make an app hit a bot.
 */
const GENERIC_PATTERNS = new Set([
  '(?<!lib)http',
  'java(?!;)',
  '^[\\w \\.\\-\\(?:\\):%]+(?:/v?\\d+(?:\\.\\d+)?(?:\\.\\d{1,10})*?)?(?:,|$)',
  '^[\\w\\-]+/[\\w]+$',
  '^\\w+/[\\w\\(\\)]*$',
  '^\\w+/\\d\\.\\d\\s\\([\\w@]+\\)$',
])
const NAMED_PATTERN = new RegExp(isbotPatterns.filter((p) => !GENERIC_PATTERNS.has(p)).join('|'), 'i')

/**
 * Tokens of large Chinese apps' own agents and in-app browsers that isbot's generic words match
 * ('news' as in a news crawler, a bare `|`): Toutiao and Toutiao Lite (`NewsArticle/…`,
 * `(News 8.5.7 15.0)`, `(NewsLite …)`), Tencent News (`qqnews/…`, `qnappversion/…`), NetEase News
 * (`NewsApp/…`), Sohu News (`SohuNews/…`, its bundle id) and Alipay (`AlipayDefined(…|…|…)`). They are
 * people reading in those apps, hundreds of millions a day: the bot rules read the agent without them.
 */
const APP_TOKEN = /NewsArticle\/[\w.]+|\(News(?:Lite)?[ \w.]*\)|qqnews\/[\w.]+|qnappversion\/[\w.]+|NewsApp\/[\w.]+|SohuNews\/[\w.]+|com\.sohu\.newspaper|AlipayDefined\([^)]*\)/i
const APP_TOKENS = new RegExp(APP_TOKEN.source, 'gi')

/** The agent as the bot rules read it: without the app tokens above (the same text when it has none). */
export const forBotRules = (userAgent: string): string => (APP_TOKEN.test(userAgent) ? userAgent.replace(APP_TOKENS, '') : userAgent)

/** Normalised OS name of a ua-parser-js OS name. */
export function normaliseOs(name: string | undefined): string {
  if (name === undefined || name === '') return ''
  const lower = name.toLowerCase()
  return OS_ALIASES[lower] ?? lower
}

/** True for the OS names (normaliseOs) of phones, tablets and other handheld devices. */
export function isMobileOs(os: string): boolean {
  return MOBILE_OS.has(os)
}

function sdkToken(userAgent: string): SdkCode {
  if (/miaozhen-?sdk/i.test(userAgent)) return SDK.mz
  return /mma-?sdk/i.test(userAgent) ? SDK.mm : SDK.none
}

function parse(userAgent: string): UserAgentFacts {
  const parser = new UAParser(userAgent)
  const deviceType = parser.getDevice().type ?? ''
  const os = normaliseOs(parser.getOS().name)
  return Object.freeze({
    deviceType,
    os,
    mobile: deviceType !== '' || isMobileOs(os),
    bot: isbotMatch(forBotRules(userAgent)) ?? '',
    appBot: NAMED_PATTERN.exec(forBotRules(userAgent))?.[0] ?? '',
    sdk: sdkToken(userAgent),
  })
}

/** Longest user agent parsed and cached as it is; a longer one is cut for the device and OS. */
const MAX_LENGTH = 512
const cache = new Lru<string, UserAgentFacts>(5000)

/**
 * The (cached, frozen) facts of a user agent. The bot and SDK marks of a longer one than
 * MAX_LENGTH are read from all of it, so that a bot's name past the cut is found.
 */
export function userAgentFacts(userAgent: string): UserAgentFacts {
  if (userAgent.length <= MAX_LENGTH) return cache.through(userAgent, parse)
  const cut = cache.through(userAgent.slice(0, MAX_LENGTH), parse)
  const bot = isbotMatch(forBotRules(userAgent)) ?? ''
  const appBot = NAMED_PATTERN.exec(forBotRules(userAgent))?.[0] ?? ''
  const sdk = sdkToken(userAgent)
  return bot === cut.bot && appBot === cut.appBot && sdk === cut.sdk ? cut : Object.freeze({ ...cut, bot, appBot, sdk })
}
