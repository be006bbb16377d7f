// spec §1: ID and ID1,ID2,... parameters; vendor-notes §7.3 for spot_id_str
import { describe, expect, it } from 'vitest'
import { toBase62, fromBase62 } from '../../../../engine/contract/base62'
import { p, sortedIds } from '../../../../engine/contract/params'
import { prng } from '../../../helpers/prng'
import { expectRefused } from './helpers'

describe('p.id', () => {
  const c = p.id().required()
  it.each([['1', '1'], ['42', '42'], [' 7 ', '7'], ['007', '7'], ['123456789012345678', '123456789012345678']])('reads %s as %s', (raw, want) => {
    expect(c.decode(raw, 'campaign_id')).toBe(want)
  })
  it.each(['0', '-1', 'abc', '1.0', '1e3', '12a', '1234567890123456789'])('refuses %s', (raw) => expectRefused(c, raw, 'campaign_id'))
  it('refuses a missing or empty required id with "is required"', () => {
    expectRefused(c, undefined, 'campaign_id', undefined, /required/)
    expectRefused(c, '', 'campaign_id', undefined, /required/)
  })
})

describe('p.idList', () => {
  const c = p.idList().optional()
  it('reads a comma list, trims and drops duplicates', () => {
    expect(c.decode('3, 1,3', 'x')).toEqual(['3', '1'])
  })
  it('treats an empty value as absent', () => {
    expect(c.decode('', 'x')).toBeUndefined()
  })
  it('reads long plain lists each id once in the order given, and sorts their numbers', () => {
    const random = prng(5)
    for (const [count, top] of [[500, 10_000], [999, 2 ** 31 + 9], [700, 1e15 - 1], [300, 40]] as const) {
      const asked = Array.from({ length: count }, () => String(1 + Math.floor(random() * top)))
      const once = asked.filter((id, k) => asked.indexOf(id) === k)
      const got = c.decode(asked.join(','), 'campaign_id')!
      expect(got).toEqual(once)
      expect([...sortedIds(got)]).toEqual(once.map(Number).sort((a, b) => a - b))
    }
    for (const [count, base, step] of [[500, 1, 20], [500, 2 ** 31 - 3000, 7], [400, 5e14, 3], [600, 1, 1e6]] as const) {
      const distinct = Array.from({ length: count }, (_, k) => base + k * step + Math.floor(random() * step))
      const shuffled = distinct.map((n) => [random(), n] as const).sort((a, b) => a[0] - b[0]).map(([, n]) => String(n))
      const got = c.decode(shuffled.join(','), 'spot_id')!
      expect(got).toEqual(shuffled)
      expect([...sortedIds(got)]).toEqual(distinct)
    }
    expect([...sortedIds(['2147483648', '3', '2147483647'])]).toEqual([3, 2147483647, 2147483648])
  })
  it.each(['1,,2', '1,a', ',1', '1,'])('refuses %s', (raw) => expectRefused(c, raw, 'spot_id'))
  it('refuses more than 1000 ids', () => {
    expectRefused(c, Array.from({ length: 1001 }, (_, i) => i + 1).join(','), 'spot_id', undefined, /1000/)
  })
})

describe('p.key and p.keyList', () => {
  it('reads identifiers with letters, digits, _ . -', () => {
    expect(p.key().required().decode('china-pc-2026', 'panel_id')).toBe('china-pc-2026')
    expect(p.keyList().optional().decode('a.b,c_d', 'x')).toEqual(['a.b', 'c_d'])
  })
  it.each(['a b', '-x', 'a/b', "a'b", 'x'.repeat(65)])('refuses %s', (raw) => expectRefused(p.key().required(), raw, 'panel_id'))
})

describe('base62 spot_id_str', () => {
  it.each([[0, '0'], [40, 'e'], [61, 'z'], [62, '10'], [3844, '100'], [12345, '3D7']])('encodes %i as %s (vendor-notes §7.3)', (n, s) => {
    expect(toBase62(n)).toBe(s)
    expect(fromBase62(s)).toBe(String(n))
  })
  it('round-trips large ids', () => {
    // (62 ** 8 - 1 is the largest of eight digits, 62 ** 8 the smallest of nine)
    for (const n of [1, 999, 2 ** 40, 62 ** 8 - 1, 62 ** 8, Number.MAX_SAFE_INTEGER]) expect(fromBase62(toBase62(n))).toBe(String(n))
  })
  it('decodes through the codec and refuses non-base-62 text', () => {
    const c = p.spotIdStr().required()
    expect(c.decode('e', 'spot_id_str')).toBe('40')
    for (const bad of ['4+bCF0', '4 bCF0', 'é', '0', '', 'a-b']) expectRefused(c, bad, 'spot_id_str')
  })
})
