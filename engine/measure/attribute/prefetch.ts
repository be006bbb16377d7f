/**
 * Requests a browser makes ahead of a page being shown (speculative prefetch and prerender, link
 * previews): no ad is seen, so they are not impressions (MRC general invalid traffic: "non-human
 * pre-fetch and browser pre-rendering"). Rules for users: docs/attribution.md.
 */

/** Header values that mark a speculative request: `prefetch`, `prerender`, `preview` as a word. */
const SPECULATIVE = /(?:^|[\s;,])(?:prefetch|prerender|preview)(?:$|[\s;,=])/i

/**
 * The header that marks a request as speculative, written `Name: value` for the answer's reason,
 * or '' when none does. Read: `Sec-Purpose` (Chromium's speculation rules and Safari),
 * `Purpose` (older Chromium and Safari), `X-Purpose` (Safari's previews), `X-Moz` (Firefox).
 * `headers` has lower-case names.
 */
export function speculativeRequest(headers: Readonly<Record<string, string | undefined>>): string {
  for (const [name, shown] of HEADERS) {
    const value = headers[name]
    if (value !== undefined && SPECULATIVE.test(value)) return `${shown}: ${value.trim()}`
  }
  return ''
}

const HEADERS: readonly (readonly [string, string])[] = [
  ['sec-purpose', 'Sec-Purpose'],
  ['purpose', 'Purpose'],
  ['x-purpose', 'X-Purpose'],
  ['x-moz', 'X-Moz'],
]
