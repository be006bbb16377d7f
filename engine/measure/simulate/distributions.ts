/**
 * The numbers behind the traffic simulator (docs/simulator.md): volumes, click-through rates,
 * the hour-of-day curve, the kinds of clients and their ids, shared addresses, invalid traffic and
 * the frequency classes of the audience. Data only; every figure is documented in docs/simulator.md.
 */
import type { Tier } from '../panel/generate/population'

/** Hits per chunk of `simulate()`: the caller awaits the ingest chunk by chunk. */
export const CHUNK_SIZE = 50_000

/** Impressions a day of a spot without a plan estimate, by placement type (spec §4.3 placement_type). */
export const DEFAULT_DAILY_IMPRESSIONS: Readonly<Record<string, number>> = {
  display: 2000, video: 1500, text: 1000, others: 1000, 'QR-Code': 300, search: 500,
}
/** Impressions a day of a keyword (search bidding) spot without a plan estimate. */
export const DEFAULT_KEYWORD_DAILY_IMPRESSIONS = 500
/** Default volumes are higher at weekends and vary from day to day by up to ±DAY_JITTER. */
export const WEEKEND_FACTOR = 1.15
export const DAY_JITTER = 0.1

/** Click-through rate range [low, high] by placement type; each spot draws its rate in it. */
export const CTR_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  display: [0.003, 0.008], video: [0.005, 0.015], text: [0.008, 0.015], others: [0.003, 0.008],
  'QR-Code': [0.01, 0.03], search: [0.02, 0.05],
}
/** Keyword spots click like search. */
export const KEYWORD_CTR_RANGE: readonly [number, number] = [0.02, 0.05]
/** A spot's daily click-through rate varies around its own by up to ±CTR_DAY_JITTER. */
export const CTR_DAY_JITTER = 0.15
/** Keyword popularity within a spot: Zipf weights 1 / rank^KEYWORD_ZIPF. */
export const KEYWORD_ZIPF = 0.8

/**
 * Relative traffic of each local hour (0-23): low at 2-6 am, a lunch peak at 12-13 and the
 * evening peak at 20-22, the usual shape of Chinese internet traffic.
 */
export const HOUR_WEIGHTS: readonly number[] = [
  3.2, 2.0, 1.1, 0.7, 0.5, 0.6, 1.2, 2.6, 3.9, 4.6, 4.9, 5.3,
  6.3, 6.1, 5.0, 4.8, 4.8, 5.0, 5.3, 5.9, 6.7, 7.0, 6.4, 4.8,
]
/** Each spot-day-hour weight varies by up to ±HOUR_NOISE, so spots do not share one curve exactly. */
export const HOUR_NOISE = 0.15
/** A click follows its impression by CLICK_DELAY_MIN_MS + CLICK_DELAY_SPAN_MS × u² (same hour). */
export const CLICK_DELAY_MIN_MS = 1500
export const CLICK_DELAY_SPAN_MS = 58_500

/** Share of mobile impressions of a spot the media does not pin down; the rest are PC browsers. */
export const MOBILE_SHARE = 0.7
/**
 * Mobile share of a spot's impressions by what the spot says of its media (first match wins,
 * tested on the publisher, channel, placement name and adposition type): app-only media and
 * formats (a splash screen, a short-video or social feed, a QR code, which a phone scans) are
 * mobile only; feeds mostly; video platforms and search have a PC side (docs/simulator.md).
 */
export const MEDIA_MOBILE_SHARE: readonly (readonly [RegExp, number])[] = [
  [/开屏|splash|抖音|douyin|快手|kuaishou|小红书|xiaohongshu|微信|wechat|朋友圈|tiktok|\bapp\b|移动|mobile|无线|wap/i, 1],
  [/信息流|feed|微博|weibo|头条|toutiao/i, 0.95],
  [/腾讯视频|tencent video|爱奇艺|iqiyi|优酷|youku|芒果|mgtv|bilibili|哔哩|视频|video/i, 0.75],
  [/百度|baidu|搜索|search|bidding/i, 0.8],
  [/\bpc\b|门户|portal|网页|desktop/i, 0.15],
]
/** Spots of these placement types are mobile only (a QR code is scanned by a phone). */
export const MOBILE_ONLY_PLACEMENTS: readonly string[] = ['QR-Code']
/**
 * Mobile clients: apps (device ids), browsers and in-app web views (cookies), and media servers
 * that report an app's impression server to server without its ids (the rest).
 */
export const MOBILE_APP_SHARE = 0.7
export const MOBILE_WEB_SHARE = 0.25
/**
 * Apps: iOS (IDFA when the user allowed tracking, and CAID); Android with an OAID (the id apps
 * read since Android 10) and an Android id, else an Android id and, for a few old phones, an IMEI.
 */
export const IOS_SHARE = 0.22
export const IOS_IDFA_SHARE = 0.3
export const ANDROID_OAID_SHARE = 0.85
/** Of the Android apps without an OAID, the share with an IMEI as well as an Android id. */
export const ANDROID_LEGACY_IMEI_SHARE = 0.3
/**
 * Which of a device's two ids a medium fills (drawn per spot): both, the first only (IDFA, OAID,
 * IMEI), the second only (CAID, Android id). So one device arrives with different id sets.
 */
export const ID_FILL_BOTH = 0.5
export const ID_FILL_FIRST = 0.3
/** SDK marks of app clients: MMA SDK and Miaozhen SDK (the rest: none). */
export const SDK_MM_SHARE = 0.3
export const SDK_MZ_SHARE = 0.2
/** Share of browser impressions preceded by a speculative request (Sec-Purpose: prefetch), not counted. */
export const PREFETCH_SHARE = 0.02

/** Addresses drawn from a province's ranges without a city (the IP library knows no city), and from abroad. */
export const PROVINCE_ONLY_SHARE = 0.03
export const GLOBAL_SHARE = 0.01
/** Ad exposure per internet user is higher in large cities: a multiplier of a city's online population. */
export const TIER_EXPOSURE: Readonly<Record<Tier, number>> = { 'tier-1': 2, 'tier-new1': 1.5, 'tier-2': 1.2, 'tier-3': 1, 'tier-4-5': 0.8 }
/**
 * Who shares an address (clients per group, smallest and largest): a household's broadband, an
 * office or campus, a carrier's NAT address, a proxy in a data centre. OFFICE_SHARE of PC
 * browsers are at an office; movers change address between days (PC: home and office; phones:
 * the carrier's NAT and home Wi-Fi).
 */
export const HOUSEHOLD_SIZE: readonly [number, number] = [1, 4]
export const OFFICE_SIZE: readonly [number, number] = [10, 120]
export const CARRIER_NAT_SIZE: readonly [number, number] = [50, 400]
export const PROXY_SIZE: readonly [number, number] = [1, 8]
export const OFFICE_SHARE = 0.3
export const PC_MOVER_SHARE = 0.2
export const MOBILE_MOVER_SHARE = 0.4

/** Shares of impressions from declared bots and from data-centre addresses. */
export const BOT_SHARE = 0.02
export const DATACENTER_SHARE = 0.01
/** Impressions per bot client and per data-centre client over the simulated days (pool sizing). */
export const BOT_FREQUENCY = 20
export const DATACENTER_FREQUENCY = 4
/** Bots that come from abroad; the rest from data-centre addresses. */
export const BOT_GLOBAL_SHARE = 0.25
/** Data-centre clients (proxies, emulator farms) that are mobile (apps with device ids). */
export const DATACENTER_MOBILE_SHARE = 0.4

/**
 * Bursts (abnormal frequency, metrics.md): BURST_SHARE of a day's impressions, at least one burst
 * a day from BURST_MIN_DAY impressions, each BURST_MIN..BURST_MAX impressions of one spot by one
 * client within BURST_WINDOW_MIN_MS..BURST_WINDOW_MAX_MS. The ingest marks the hits beyond 30.
 */
export const BURST_SHARE = 0.005
export const BURST_MIN_DAY = 1000
export const BURST_MIN = 35
export const BURST_MAX = 70
export const BURST_WINDOW_MIN_MS = 4 * 60_000
export const BURST_WINDOW_MAX_MS = 9 * 60_000

/**
 * Frequency classes of the audience: [share of clients, relative activity]. Each client's
 * impressions are Poisson with a mean proportional to its activity. The pool is sized so that it
 * sees IMPRESSIONS_PER_IDENTITY_DAY impressions per client over one simulated day and
 * × days^FREQUENCY_BUILD_UP over more (the same clients come back day after day): one day
 * reaches about 30% of the pool 1.7 times, 28 days about 60% of it 3 times (docs/simulator.md).
 */
export const FREQUENCY_CLASSES: readonly (readonly [number, number])[] = [[0.4, 0.3], [0.27, 0.8], [0.16, 1.6], [0.1, 3], [0.05, 6], [0.02, 13]]
export const IMPRESSIONS_PER_IDENTITY_DAY = 0.5
export const FREQUENCY_BUILD_UP = 0.385

/**
 * Frequency capping (spec §8.2): an impression drawn for a client at its cap is drawn again
 * (up to CAP_REDRAWS times, then the nearest client under the cap, within CAP_SCAN of the pool),
 * except CAP_LEAK of them, which get through as on a real ad server (several servers, late
 * counts, cleared cookies). An impression that finds nobody under the cap is not delivered.
 */
export const CAP_LEAK = 0.01
export const CAP_REDRAWS = 16
export const CAP_SCAN = 512

/**
 * Panel devices in the pool: their true share (the panel's persons over the population their
 * weights add up to) when that is enough for reports, else oversampled to PANEL_SQRT_FACTOR ×
 * √(pool), between PANEL_MIN_SHARE and PANEL_MAX_SHARE of the panel's persons and at most
 * PANEL_MAX_POOL_SHARE of the pool; the summary says by how much (docs/decisions.md).
 */
export const PANEL_SQRT_FACTOR = 3
export const PANEL_MIN_SHARE = 0.01
export const PANEL_MAX_SHARE = 0.15
export const PANEL_MAX_POOL_SHARE = 0.25
