// docs/tracking.md: every tag list_spots produces, with its macros filled, reads back (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { CODE_TYPE_NAMES, type CodeType } from '../../../../engine/contract/vocabulary'
import { resolveIdentity } from '../../../../engine/measure/attribute/identity'
import { detectPlatform } from '../../../../engine/measure/attribute/platform'
import { chooseIp } from '../../../../engine/measure/attribute/region'
import { parseTrackingUrl } from '../../../../engine/measure/attribute/tracking-url'
import { PLATFORM } from '../../../../engine/measure/types'
import { tagShape, trackingTags } from '../../../../engine/tracking/tags'

const PUBLIC_URL = 'http://127.0.0.1:8366'
const campaign = { campaign_id: 215, campaign_name: 'Spring 春' }
const spot = { spot_id_str: '89WTd', publisher_name: 'DOUYIN LE', placement_type: 'display', landing_page: 'http://www.facebook.com/p?x=1&y=2#top' }
const keyword = { keyword_id: 22050057, keyword_name: '牛奶', landing_page: 'https://www.baidu.com/s?wd=牛奶' }

const IDFA = 'ABCDEF01-2345-6789-ABCD-EF0123456789'
/** What the media put in place of each macro; any other macro gets OTHER. */
const FILLED: Record<string, string> = { __IP__: '202.96.134.133', __IDFA__: IDFA, __OS__: '1', __OAID__: '__OAID__' }
const OTHER = 'v 1&2=3/牛'

/** The tag as a media would request it: macros replaced by encoded values, host removed. */
function filled(url: string): [string, string] {
  const withValues = url.replace(/__[A-Z0-9]+__/g, (m) => encodeURIComponent(FILLED[m] ?? OTHER))
  const rest = withValues.replace(/^https?:\/\/[^/]+/, '')
  const q = rest.indexOf('?')
  return q < 0 ? [rest, ''] : [rest.slice(0, q), rest.slice(q + 1)]
}

/** The landing page a click tag carries: what follows its `&o=`, decoded. */
const landingIn = (url: string): string => decodeURIComponent(url.slice(url.indexOf('&o=') + 3))

const optionSets: CodeType[][] = [[], ...CODE_TYPE_NAMES.map((n) => [n]), CODE_TYPE_NAMES.filter((n) => n !== 'utm_auto')]

describe('tags from engine/tracking/tags.ts', () => {
  for (const options of optionSets) {
    for (const kw of [undefined, keyword]) {
      const label = `${options.join(',') || 'no options'}${kw ? ', keyword' : ''}`
      const tags = trackingTags(tagShape(PUBLIC_URL, options), campaign, spot, kw)

      it(`reads k, p, af and o from the impression tag (${label})`, () => {
        const parsed = parseTrackingUrl(...filled(tags.impression_url))
        expect(parsed?.kind).toBe('impression')
        const p = parsed?.params ?? new Map<string, string>()
        expect([p.get('k'), p.get('p'), p.get('af'), p.get('o')]).toEqual(['215', '89WTd', kw ? '22050057' : undefined, ''])
        expect([p.get('ns'), p.get('v'), p.get('rt')]).toEqual(['202.96.134.133', OTHER, '2'])
        expect(chooseIp(p, '10.0.0.1')).toBe('202.96.134.133')
      })

      it(`reads k, p, af and the landing page from the click tag (${label})`, () => {
        const parsed = parseTrackingUrl(...filled(tags.click_url))
        expect(parsed?.kind).toBe('click')
        const p = parsed?.params ?? new Map<string, string>()
        expect([p.get('k'), p.get('p'), p.get('af'), p.get('o')]).toEqual(['215', '89WTd', kw ? '22050057' : undefined, landingIn(tags.click_url)])
      })

      it(`gives the identity and platform the macros say (${label})`, () => {
        const p = parseTrackingUrl(...filled(tags.impression_url))?.params ?? new Map<string, string>()
        const mma = options.includes('mma')
        expect(resolveIdentity(p, undefined, '202.96.134.133', 'okhttp/4.9.0', { key: new Uint8Array(32) }).identity).toMatch(mma ? `idfa:${IDFA.toLowerCase()}` : /^ipua:[0-9a-f]{32}$/)
        expect(detectPlatform(p, 'okhttp/4.9.0').platform).toBe(mma ? PLATFORM.mb : PLATFORM.pc)
      })
    }
  }
})
