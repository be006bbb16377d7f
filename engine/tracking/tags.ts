/**
 * Monitoring codes (vendor-notes §7): the impression and click URLs of a spot or keyword, shaped
 * by list_spots' code_type options. Pure string building in the shape of contract/tracking-url.ts
 * (paths, parameter names, separators), which the measurement side reads the hits with.
 * Decisions are written for users in docs/tracking.md.
 */
import { SEPARATOR, TAG_PARAMS, TRACKING_PATHS } from '../contract/tracking-url'
import { BASE_TAG_PARAMS, CODE_TYPES, CODE_TYPE_NAMES, type CodeType } from '../contract/vocabulary'

/** Path of impression requests below the public URL (vendor-notes §7.1, current style). */
export const IMPRESSION_PATH = TRACKING_PATHS.impression.prefix
/** Path of click requests below the public URL. */
export const CLICK_PATH = TRACKING_PATHS.click.prefix

const { param: AMP, value: EQ, query: QUESTION } = SEPARATOR
const { campaign: K, spot: P, keyword: AF, landing: O } = TAG_PARAMS

/** What a tag needs of the campaign. */
export interface TagCampaign {
  campaign_id: string | number
  campaign_name: string
}

/** What a tag needs of the spot. */
export interface TagSpot {
  spot_id_str: string
  publisher_name: string
  placement_type: string
  landing_page: string
}

/** What a keyword tag needs of the keyword. */
export interface TagKeyword {
  keyword_id: string | number
  keyword_name: string
  landing_page: string
}

/** The utm parameters of a landing page (docs/tracking.md). */
export interface Utm {
  utm_source: string
  utm_medium: string
  utm_campaign: string
  utm_content: string
  utm_term?: string
}

/**
 * The part of a tag that depends only on the base URL and the options; build it once per
 * request with `tagShape` and reuse it for every spot and keyword.
 */
export interface TagShape {
  /** Scheme, host and path prefix, without a trailing slash. */
  readonly base: string
  /** '?' when the '?' option is on, else ''. */
  readonly question: string
  /** Parameters after the ids in impression tags (base macros and option parameters). */
  readonly impressionParams: string
  /** The same for click tags (click-only options included). */
  readonly clickParams: string
  /** closedurl: the click tag's o= stays empty. */
  readonly closed: boolean
  /** utm: the click tag's landing page carries utm parameters. */
  readonly utm: boolean
}

/** The public base URL, with https: as scheme when `https` is set; no trailing slash. */
export function baseUrl(publicUrl: string, https: boolean): string {
  const trimmed = publicUrl.replace(/\/+$/, '')
  return https ? trimmed.replace(/^http:/i, 'https:') : trimmed
}

/** The tag shape for a public URL and a set of code_type options (order of `options` is irrelevant). */
export function tagShape(publicUrl: string, options: readonly CodeType[] = []): TagShape {
  const on = new Set(options)
  const impression: string[] = [BASE_TAG_PARAMS]
  const click: string[] = [BASE_TAG_PARAMS]
  // Declaration order of CODE_TYPES, so that the same options always give the same URL.
  for (const name of CODE_TYPE_NAMES) {
    const def: { params: string; clickOnly?: boolean } = CODE_TYPES[name]
    if (!on.has(name) || def.params === '') continue
    click.push(def.params)
    if (!def.clickOnly) impression.push(def.params)
  }
  return {
    base: baseUrl(publicUrl, on.has('https')),
    question: on.has('?') ? QUESTION : '',
    impressionParams: impression.join(AMP),
    clickParams: click.join(AMP),
    closed: on.has('closedurl'),
    utm: on.has('utm'),
  }
}

function ids(campaign: TagCampaign, spot: TagSpot, keyword: TagKeyword | undefined): string {
  const af = keyword === undefined ? '' : `${AMP}${AF}${EQ}${keyword.keyword_id}`
  return `${K}${EQ}${campaign.campaign_id}${AMP}${P}${EQ}${spot.spot_id_str}${af}`
}

/** The impression URL; `o=` is always last and empty. */
export function impressionUrl(shape: TagShape, campaign: TagCampaign, spot: TagSpot, keyword?: TagKeyword): string {
  return `${shape.base}${IMPRESSION_PATH}${shape.question}${ids(campaign, spot, keyword)}${AMP}${shape.impressionParams}${AMP}${O}${EQ}`
}

/** The utm parameters of a spot's or a keyword's landing page. */
export function utmFor(campaign: TagCampaign, spot: TagSpot, keyword?: TagKeyword): Utm {
  const cpc = keyword !== undefined || spot.placement_type === 'search'
  return {
    utm_source: spot.publisher_name,
    utm_medium: cpc ? 'cpc' : 'display',
    utm_campaign: campaign.campaign_name,
    utm_content: spot.spot_id_str,
    ...(keyword === undefined ? {} : { utm_term: keyword.keyword_name }),
  }
}

/**
 * `url` with the utm parameters appended to its query (before any #fragment). A utm_ key the
 * URL already has keeps its value and is not added again. An empty URL stays empty.
 */
export function withUtm(url: string, utm: Utm): string {
  if (url === '') return ''
  const hash = url.indexOf('#')
  const [head, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)]
  const q = head.indexOf('?')
  const present = new Set(q < 0 ? [] : [...new URLSearchParams(head.slice(q + 1)).keys()])
  const added = Object.entries(utm)
    .filter(([k, v]) => v !== undefined && !present.has(k))
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
  if (added.length === 0) return url
  const sep = q < 0 ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&'
  return `${head}${sep}${added.join('&')}${fragment}`
}

/** The landing page a click goes to: the keyword's when it has one, else the spot's. */
export function landingOf(spot: TagSpot, keyword?: TagKeyword): string {
  return keyword !== undefined && keyword.landing_page !== '' ? keyword.landing_page : spot.landing_page
}

/** The click URL; `o=` is last and carries the URL-encoded landing page (empty with closedurl). */
export function clickUrl(shape: TagShape, campaign: TagCampaign, spot: TagSpot, keyword?: TagKeyword): string {
  let landing = shape.closed ? '' : landingOf(spot, keyword)
  if (shape.utm) landing = withUtm(landing, utmFor(campaign, spot, keyword))
  return `${shape.base}${CLICK_PATH}${shape.question}${ids(campaign, spot, keyword)}${AMP}${shape.clickParams}${AMP}${O}${EQ}${encodeURIComponent(landing)}`
}

/** Both tags of a spot, or of one of its keywords. */
export function trackingTags(shape: TagShape, campaign: TagCampaign, spot: TagSpot, keyword?: TagKeyword): { impression_url: string; click_url: string } {
  return { impression_url: impressionUrl(shape, campaign, spot, keyword), click_url: clickUrl(shape, campaign, spot, keyword) }
}
