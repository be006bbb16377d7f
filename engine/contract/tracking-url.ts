/**
 * The shape of a tracking URL (vendor-notes §7.1, docs/attribution.md "Reading a tracking URL"):
 * the one home of its paths, parameter names and separators. The tags of list_spots are written
 * with it (tracking/tags.ts), hits are read with it (measure/attribute/tracking-url.ts), and the
 * endpoint table and the HTTP door take their tracking paths from it. It lives in the contract
 * because the endpoint table may import nothing else.
 */

/** What a tracking request counts. */
export type TrackingKind = 'impression' | 'click' | 'minisite'

/** The letter of each kind's paths: `/x/` impressions, `/r/` clicks, `/e/` minisite events. */
export const TRACKING_LETTERS = { impression: 'x', click: 'r', minisite: 'e' } as const satisfies Record<TrackingKind, string>

/** The kinds in the order of the endpoint table. */
export const TRACKING_KINDS = Object.keys(TRACKING_LETTERS) as TrackingKind[]

/** The separators of a tag's parameters: `name=value` pairs joined by `&`; `?` starts a query. */
export const SEPARATOR = { param: '&', value: '=', query: '?', path: '/' } as const

/** The image suffix of the old vendor codes' paths (`/x.gif?k=…`). */
export const GIF_SUFFIX = '.gif'

/** The three paths of one kind: parameters in the path after `prefix`, or in the query of `bare` or `gif`. */
export interface TrackingPaths {
  /** `/x/`: `/x/k=…&o=` (current vendor codes) and `/x/?k=…` (the `?` option). */
  readonly prefix: string
  /** `/x`: `/x?k=…`. */
  readonly bare: string
  /** `/x.gif`: `/x.gif?k=…` (old vendor codes). */
  readonly gif: string
}

const pathsOf = (letter: string): TrackingPaths => ({ prefix: `/${letter}/`, bare: `/${letter}`, gif: `/${letter}${GIF_SUFFIX}` })

/** Each kind's paths. */
export const TRACKING_PATHS: Readonly<Record<TrackingKind, TrackingPaths>> = {
  impression: pathsOf(TRACKING_LETTERS.impression),
  click: pathsOf(TRACKING_LETTERS.click),
  minisite: pathsOf(TRACKING_LETTERS.minisite),
}

/**
 * The path beginnings the HTTP door hands to the engine (with every path below them): each kind's
 * prefix and gif path. The bare paths are the endpoint table's aliases, matched whole.
 */
export const TRACKING_DOOR_PREFIXES: readonly string[] = TRACKING_KINDS.flatMap((k) => [TRACKING_PATHS[k].prefix, TRACKING_PATHS[k].gif])

/**
 * The parameter names this engine writes into tags or reads from hits (the macros of each
 * code_type option are in vocabulary.ts CODE_TYPES).
 */
export const TAG_PARAMS = {
  /** Campaign id. */
  campaign: 'k',
  /** Spot id (its spot_id_str). */
  spot: 'p',
  /** Keyword id (keyword tags). */
  keyword: 'af',
  /** Landing page: always the last parameter of an impression or click tag, everything after it is its value. */
  landing: 'o',
  /** The media's request id. */
  requestId: 'tr',
  /** The media's hit time (10 or 13 digits). */
  hitTime: 'nt',
  /** The answer wanted: 0 or 1 ask for a 204 without a body. */
  reply: 'rt',
  /** `ro=sm`: utm parameters added at redirect time. */
  redirect: 'ro',
  /** Minisite id (minisite events). */
  minisite: 'm',
  /** Event id (minisite events). */
  event: 'ev',
} as const

const KIND_OF_LETTER: Readonly<Record<string, TrackingKind>> = Object.fromEntries(TRACKING_KINDS.map((k) => [TRACKING_LETTERS[k], k]))

/** Where a tracking path keeps its parameters: `rest` is the text after the prefix ('' for the query forms). */
export interface TrackingRoute {
  kind: TrackingKind
  rest: string
}

/**
 * The kind of a tracking path and the parameter text written in it, or null when `path` is none
 * of the paths of TRACKING_PATHS (or below a prefix). Read by character, not by pattern: every
 * hit comes here.
 */
export function trackingRoute(path: string): TrackingRoute | null {
  if (path.length < 2 || path[0] !== SEPARATOR.path) return null
  const kind = KIND_OF_LETTER[path[1]!]
  if (kind === undefined) return null
  if (path.length === 2) return { kind, rest: '' }
  if (path[2] === SEPARATOR.path) return { kind, rest: path.slice(3) }
  return path.length === 2 + GIF_SUFFIX.length && path.endsWith(GIF_SUFFIX) ? { kind, rest: '' } : null
}
