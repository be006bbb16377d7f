/**
 * Invalid-traffic rules decided per hit (DESIGN §3.5): declared bots and data-centre addresses.
 * Abnormal frequency needs the identity's history and is decided by the ingest.
 * Rules for users: docs/attribution.md.
 */
import { IVT } from '../types'
import type { Network } from './hosting'
import { Lru } from './lru'
import type { Classified } from './types'
import { userAgentFacts } from './user-agent'

/**
 * ISP names (as the ip2region database writes them, in Chinese or English) of hosting and cloud
 * providers, matched as case-insensitive substrings. Generic words catch the database's
 * `…云计算分公司`, `Amazon AWS 服务器网段`, `…数据中心` and small hosting companies; SmileServ,
 * Ctrls (CtrlS) and 互联优势 (iAdvantage) are data-centre operators of the IPv4 labels.
 */
export const DATA_CENTRE_ISPS: readonly string[] = [
  '阿里云', '阿里巴巴', '腾讯', '华为云', '百度', '金山云', 'ucloud', '京东云', '天翼云', '移动云', '云平台',
  '世纪互联', '网宿', '亚马逊', 'amazon', 'aws', '谷歌', 'google', '微软', 'microsoft', 'azure', '脸书',
  'facebook', 'digitalocean', 'digital ocean', 'linode', 'vultr', 'ovh', 'hetzner', 'softlayer', 'equinix',
  'stackpath', 'rackspace', 'smileserv', 'ctrls', '互联优势', '数据中心', '机房', '云计算', '云主机', '云服务', '服务器', 'host',
]

/** `IDC` (Internet data centre: `中国电信IDC`), matched in capitals so that `Midcontinent` is not. */
const IDC = /IDC/

/**
 * Networks that carry people although a word above matches: content-delivery networks that relay
 * browsers (iCloud Private Relay, Cloudflare WARP) and Google's residential fibre.
 */
export const NOT_DATA_CENTRE_ISPS: readonly string[] = ['cloudflare', 'akamai', '阿卡迈', 'fastly', 'google fiber']

const includesAny = (text: string, words: readonly string[]): boolean => words.some((w) => text.includes(w))

/**
 * Joins the IP library's ISP label and the network that the ASN data gives for the address
 * (`电信 | hosting AS45090 Tencent Cloud`, `亚马逊 | relay AS13335 Cloudflare`): ip2region's
 * labels never hold `|`.
 */
export const NETWORK_SEPARATOR = ' | '
const HOSTING = 'hosting '
const RELAY = 'relay '

/**
 * The ISP text of a located address (region.ts): its label, followed by its network (hosting.ts)
 * where the network's class differs from the label's, so that the text alone decides.
 */
export function ispText(label: string, network: Network | undefined): string {
  if (network === undefined || network.hosting === isDataCentreIsp(label)) return label
  return `${label}${NETWORK_SEPARATOR}${network.hosting ? HOSTING : RELAY}${network.text}`
}

const ispCache = new Lru<string, boolean>(2000)

/**
 * True when an ISP text is a hosting or cloud provider's. A network written after the label
 * (ispText) decides: hosting is, a relay is not. Else the label decides: it matches
 * DATA_CENTRE_ISPS or `IDC` and none of NOT_DATA_CENTRE_ISPS.
 */
export function isDataCentreIsp(isp: string): boolean {
  if (isp === '') return false
  return ispCache.through(isp, (text) => {
    const cut = text.indexOf(NETWORK_SEPARATOR)
    if (cut >= 0) return text.startsWith(HOSTING, cut + NETWORK_SEPARATOR.length)
    const lower = text.toLowerCase()
    return (IDC.test(text) || includesAny(lower, DATA_CENTRE_ISPS)) && !includesAny(lower, NOT_DATA_CENTRE_ISPS)
  })
}

const VALID: Classified = Object.freeze({ ivt: IVT.valid, rule: '' })

/**
 * The invalid-traffic class of a hit, first rule that applies:
 * 1. `bot`: no user agent, or isbot recognises it. For an app hit (`app`: a device-id macro or
 *    an SDK marker) only isbot's named patterns count, not its generic `Name/1.0` and HTTP-client
 *    ones, since app SDKs send such agents (`okhttp/4.9.0`).
 * 2. `datacenter`: the address's AS is a hosting or cloud provider's, or its AS is neither that
 *    nor a relay and the IP library's ISP label names a hosting or cloud provider (isDataCentreIsp).
 */
export function classify(userAgent: string | undefined, isp: string, app = false): Classified {
  if (userAgent === undefined || userAgent.trim() === '') return { ivt: IVT.bot, rule: 'no user agent' }
  const facts = userAgentFacts(userAgent)
  const bot = app ? facts.appBot : facts.bot
  if (bot !== '') return { ivt: IVT.bot, rule: `declared bot: ${bot}` }
  if (isDataCentreIsp(isp)) return { ivt: IVT.datacenter, rule: `data centre: ${isp}` }
  return VALID
}
