/**
 * Reads a tracking request's parameters in the vendor's URL shapes (vendor-notes §7.1,
 * docs/tracking.md): parameters written in the path after `/x/` `/r/` `/e/`, or in the query
 * (`/x/?k=…`, `/x.gif?k=…`). The paths, names and separators are contract/tracking-url.ts's; the
 * rules, for users, are in docs/attribution.md.
 */
import { SEPARATOR, TAG_PARAMS, trackingRoute, type TrackingKind } from '../../contract/tracking-url'
import { MAX_REQUEST_ID_LENGTH } from '../request-ids'
import type { TrackingParams } from './types'

const { param: AMP, value: EQ, query: QUESTION } = SEPARATOR
const { campaign: K, spot: P, landing: O } = TAG_PARAMS

/**
 * Percent-decodes `raw`; `+` becomes a space when `plusIsSpace` (query text). A malformed escape
 * leaves the whole value as it was sent: it never throws.
 */
export function decodeComponent(raw: string, plusIsSpace: boolean): string {
  const text = plusIsSpace && raw.includes('+') ? raw.replaceAll('+', ' ') : raw
  if (!text.includes('%')) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return raw
  }
}

/** Parses `a=1&b=2…` into `into` (the first occurrence of a name wins). True when `o=` also took `tail`. */
function parseInto(into: Map<string, string>, text: string, plusIsSpace: boolean, kind: TrackingKind, tail: string): boolean {
  // (most tags hold no escape: then no name or value is looked at again to decode it)
  const plain = !text.includes('%') && !(plusIsSpace && text.includes('+'))
  let pos = 0
  while (pos < text.length) {
    const amp = text.indexOf(AMP, pos)
    const end = amp < 0 ? text.length : amp
    const eq = text.indexOf(EQ, pos)
    const hasValue = eq >= 0 && eq < end
    const name = text.slice(pos, hasValue ? eq : end)
    const key = plain ? name : decodeComponent(name, plusIsSpace)
    if (hasValue && key === O && kind !== 'minisite' && into.has(K) && into.has(P)) {
      // o= is the last parameter: the landing page is everything after it, even unencoded `&`.
      // A click's raw landing page in the path form may also have brought its own `?query`.
      const landing = text.slice(eq + 1)
      const joins = tail !== '' && landing !== '' && kind === 'click'
      if (!into.has(O)) into.set(O, decodeComponent(joins ? landing + tail : landing, false))
      return joins
    }
    if (key !== '' && !into.has(key)) into.set(key, !hasValue ? '' : plain ? text.slice(eq + 1, end) : decodeComponent(text.slice(eq + 1, end), plusIsSpace))
    pos = end + 1
  }
  return false
}

/**
 * The kind and parameters of a tracking request, or null when `path` is not a tracking path.
 * `path` is percent-encoded as sent; `query` is the raw query string without `?` ('' when none).
 * Accepted: `/x/k=…&o=`, `/x/?k=…`, `/x?k=…`, `/x.gif?k=…`, and the same with `r` (clicks) and
 * `e` (minisite events). In the path `+` is a plus; in the query it is a space, except in `o=`.
 */
export function parseTrackingUrl(path: string, query: string): TrackingParams | null {
  const route = trackingRoute(path)
  if (route === null) return null
  const params = new Map<string, string>()
  const tail = query === '' ? '' : `${QUESTION}${query}`
  const took = route.rest !== '' && parseInto(params, route.rest, false, route.kind, tail)
  if (!took && query !== '') parseInto(params, query, true, route.kind, '')
  return { kind: route.kind, params }
}

/**
 * The media request id a tag carries (`tr=__REQUESTID__`), or '' when it carries none: empty, the
 * macro left unreplaced (any `__NAME__`), longer than MAX_REQUEST_ID_LENGTH, or holding control
 * characters. Kept as sent otherwise (trimmed): ids are compared exactly.
 */
export function requestIdOf(params: ReadonlyMap<string, string>): string {
  return requestIdText(params.get(TAG_PARAMS.requestId) ?? '')
}

/** A media request id as given (a tag's `tr=`, an import line's `request_id`), or '' when it is none (requestIdOf). */
export function requestIdText(raw: string): string {
  const id = raw.trim()
  if (id === '' || id.length > MAX_REQUEST_ID_LENGTH || /^__[A-Za-z0-9_]*__$/.test(id) || /[\u0000-\u001f\u007f]/.test(id)) return ''
  return id
}

/**
 * The address the cookie check sends a browser back to: the tracking path (and query) as
 * received, relative, with `<marker>=<value>` read as an ordinary parameter and `o=` kept last:
 * after `/x/` (`/r/`, `/e/`) in the path form, else at the start of the query (`/x?`, `/x.gif?`,
 * `/x/?`). Null when `path` is not a tracking path.
 */
export function withMarker(path: string, query: string, marker: string, value: string): string | null {
  const route = trackingRoute(path)
  if (route === null) return null
  const pair = `${marker}${EQ}${value}`
  const prefix = path.length - route.rest.length
  if (route.rest !== '') return `${path.slice(0, prefix)}${pair}${AMP}${route.rest}${query === '' ? '' : `${QUESTION}${query}`}`
  return `${path}${QUESTION}${pair}${query === '' ? '' : `${AMP}${query}`}`
}
