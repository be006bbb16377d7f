// vendor-notes §7.1: reading tracking URLs (docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { decodeComponent, parseTrackingUrl } from '../../../../engine/measure/attribute/tracking-url'
import type { TrackingKind } from '../../../../engine/measure/attribute/types'

/** Splits a URL (path and query, no host) the way the HTTP door hands it over. */
function split(url: string): [string, string] {
  const q = url.indexOf('?')
  return q < 0 ? [url, ''] : [url.slice(0, q), url.slice(q + 1)]
}

function parse(url: string): { kind: TrackingKind; params: Record<string, string> } | null {
  const [path, query] = split(url)
  const parsed = parseTrackingUrl(path, query)
  return parsed === null ? null : { kind: parsed.kind, params: Object.fromEntries(parsed.params) }
}

describe('parseTrackingUrl: URL forms', () => {
  const cases: [string, string, TrackingKind, Record<string, string>][] = [
    ['reads params written in an impression path', '/x/k=215&p=123&dx=__IPDX__&rt=2&ns=__IP__&o=', 'impression', { k: '215', p: '123', dx: '__IPDX__', rt: '2', ns: '__IP__', o: '' }],
    ['reads the `?` option form', '/x/?k=215&p=e&o=', 'impression', { k: '215', p: 'e', o: '' }],
    ['reads a path without a slash and a query', '/x?k=1&p=e&o=', 'impression', { k: '1', p: 'e', o: '' }],
    ['reads the old .gif impression form', '/x.gif?k=123&p=456&o=', 'impression', { k: '123', p: '456', o: '' }],
    ['reads the old .gif click form with a raw landing page', '/r.gif?k=123&p=456&o=http://www.facebook.com', 'click', { k: '123', p: '456', o: 'http://www.facebook.com' }],
    ['decodes a keyword click landing page', '/r/k=215&p=123&af=22050057&dx=__IPDX__&vo=34449fe&vr=2&o=https%3A%2F%2Fwww.baidu.com', 'click', { k: '215', p: '123', af: '22050057', dx: '__IPDX__', vo: '34449fe', vr: '2', o: 'https://www.baidu.com' }],
    ['reads a click in the `?` form', '/r/?k=1&p=e&o=https%3A%2F%2Fa.com%2F%3Fx%3D1%26y%3D2', 'click', { k: '1', p: 'e', o: 'https://a.com/?x=1&y=2' }],
    ['reads a minisite event in the path form', '/e/m=12&ev=3&k=215', 'minisite', { m: '12', ev: '3', k: '215' }],
    ['reads a minisite event in the .gif form', '/e.gif?m=12&ev=3', 'minisite', { m: '12', ev: '3' }],
  ]
  it.each(cases)('%s', (_name, url, kind, params) => {
    expect(parse(url)).toEqual({ kind, params })
  })
})

describe('parseTrackingUrl: o= is the last parameter', () => {
  const cases: [string, string, Record<string, string>][] = [
    ['takes unencoded & into a raw landing page (query form)', '/r.gif?k=1&p=e&o=http://a.com/?x=1&y=2', { k: '1', p: 'e', o: 'http://a.com/?x=1&y=2' }],
    ['joins the query that a raw landing page split off (path form)', '/r/k=1&p=e&o=http://a.com/p?x=1&y=2', { k: '1', p: 'e', o: 'http://a.com/p?x=1&y=2' }],
    ['keeps + in a landing page', '/r.gif?k=1&p=e&o=http://a.com/?q=a+b', { k: '1', p: 'e', o: 'http://a.com/?q=a+b' }],
    ['treats an o= before k and p as an ordinary parameter', '/r.gif?o=http://a.com&k=1&p=2', { o: 'http://a.com', k: '1', p: '2' }],
    ['reads a query after an empty impression o= as parameters', '/x/k=1&p=e&o=?r=123', { k: '1', p: 'e', o: '', r: '123' }],
    ['reads a query after an empty click o= as parameters', '/r/k=1&p=e&o=?r=1', { k: '1', p: 'e', o: '', r: '1' }],
    ['does not apply the rule to minisite events', '/e/m=1&ev=2&k=1&p=e&o=a&b=c', { m: '1', ev: '2', k: '1', p: 'e', o: 'a', b: 'c' }],
  ]
  it.each(cases)('%s', (_name, url, params) => {
    expect(parse(url)?.params).toEqual(params)
  })
})

describe('parseTrackingUrl: decoding', () => {
  const cases: [string, string, Record<string, string>][] = [
    ['turns + into a space in the query', '/x.gif?k=1&p=e&v=a+b&o=', { k: '1', p: 'e', v: 'a b', o: '' }],
    ['keeps + in the path', '/x/k=1&p=e&v=a+b&o=', { k: '1', p: 'e', v: 'a+b', o: '' }],
    ['decodes UTF-8 escapes', '/x/k=1&p=e&v=%E7%89%9B%E5%A5%B6&o=', { k: '1', p: 'e', v: '牛奶', o: '' }],
    ['keeps an encoded & inside a value', '/x/k=1&p=e&v=a%26b%3Dc&o=', { k: '1', p: 'e', v: 'a&b=c', o: '' }],
    ['keeps a truncated escape as sent', '/x/k=1&p=e&v=%E4%B8&o=', { k: '1', p: 'e', v: '%E4%B8', o: '' }],
    ['keeps an invalid escape as sent', '/x.gif?k=1&p=e&v=%zz+1&o=', { k: '1', p: 'e', v: '%zz+1', o: '' }],
    ['decodes an encoded name', '/x/k=1&p=e&%6Es=1.2.3.4&o=', { k: '1', p: 'e', ns: '1.2.3.4', o: '' }],
    ['keeps the first of two equal names', '/x/k=1&p=e&k=2&o=', { k: '1', p: 'e', o: '' }],
    ['gives a name without = an empty value and skips empty parts', '/x/k=1&&p=e&flag&=x&o=', { k: '1', p: 'e', flag: '', o: '' }],
    // names close to the known ones (shared strings) are read as sent
    ['reads names near the known ones as sent', '/x.gif?k=1&p=e&m+5=a&m%35b=b&m5bx=c&m11ab=d&M5=e&m\u00e9=f&o=', { k: '1', p: 'e', 'm 5': 'a', m5b: 'b', m5bx: 'c', m11ab: 'd', M5: 'e', 'm\u00e9': 'f', o: '' }],
    ['keeps + in a name in the path', '/x/k=1&p=e&m+5=a&o=', { k: '1', p: 'e', 'm+5': 'a', o: '' }],
  ]
  it.each(cases)('%s', (_name, url, params) => {
    expect(parse(url)?.params).toEqual(params)
  })

  it('reads the query when the path has no o=, without overriding path values', () => {
    expect(parseTrackingUrl('/x/k=1&p=e', 'p=z&ts=9')?.params).toEqual(new Map([['k', '1'], ['p', 'e'], ['ts', '9']]))
  })

  it('decodeComponent returns the raw text when an escape is malformed', () => {
    expect(decodeComponent('a+%', true)).toBe('a+%')
    expect(decodeComponent('a+b', true)).toBe('a b')
    expect(decodeComponent('a+b', false)).toBe('a+b')
  })
})

describe('parseTrackingUrl: not a tracking path', () => {
  it.each(['', '/', 'x/k=1', '/y/k=1', '/xy', '/x.png', '/x.gif/k=1', '/cms/v1/campaigns/list', '/r.gifx', '/xx/k=1', '/X/k=1'])('returns null for %j', (path) => {
    expect(parseTrackingUrl(path, 'k=1&p=e')).toBeNull()
  })
})

describe('parseTrackingUrl: robustness', () => {
  it('never throws on random input', () => {
    const alphabet = ['%', '%2', '%E4', '%zz', '&', '=', '?', '+', '/', 'x', 'r', 'e', '.gif', 'k', 'p', 'o', '1', '牛', '\u0000', '\uD800']
    let seed = 42
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const text = (): string => Array.from({ length: next(30) }, () => alphabet[next(alphabet.length)]).join('')
    for (let i = 0; i < 1500; i++) {
      const path = ['/x/', '/r/', '/e/', '/x.gif', ''][next(5)] + text()
      expect(() => parseTrackingUrl(path, text())).not.toThrow()
    }
  })
})
