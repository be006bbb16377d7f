// The store under the answer cache and the result sets: one version at a time, least recently
// used out first, a tenth of the bound freed at once, the entry being written never dropped
import { describe, expect, it } from 'vitest'
import { VersionedLru } from '../../engine/versioned-lru'

describe('VersionedLru', () => {
  it('drops the least recently used entries, counting a read as a use, down to nine tenths of the bound', () => {
    const lru = new VersionedLru<string>(100)
    for (const k of ['a', 'b', 'c', 'd']) lru.set(k, 1, k, 25)
    expect(lru.get('a', 1)).toBe('a')
    lru.set('e', 1, 'e', 25)
    // 125 > 100: b and c go (least recent), leaving 75 <= 90
    expect(['a', 'b', 'c', 'd', 'e'].map((k) => lru.get(k, 1) !== undefined)).toEqual([true, false, false, true, true])
  })

  it('never drops the entry just written or grown, and ignores the growth of one no longer kept', () => {
    const lru = new VersionedLru<object>(100)
    const big = {}
    lru.set('small', 1, {}, 10)
    lru.set('big', 1, big, 150)
    expect(lru.get('big', 1)).toBe(big)
    expect(lru.get('small', 1)).toBeUndefined()
    const other = {}
    lru.set('other', 1, other, 10)
    lru.resize('big', {}, 500)
    expect(lru.get('other', 1)).toBe(other)
    lru.resize('other', other, 200)
    expect(lru.get('other', 1)).toBe(other)
    expect(lru.get('big', 1)).toBeUndefined()
  })

  it('forgets every entry at the first read or write of another version', () => {
    const lru = new VersionedLru<string>(100)
    lru.set('a', 1, 'x', 1)
    expect(lru.get('a', 2)).toBeUndefined()
    expect(lru.get('a', 1)).toBeUndefined()
    lru.set('b', 3, 'y', 1)
    lru.set('c', 4, 'z', 1)
    expect(lru.get('b', 4)).toBeUndefined()
    expect(lru.get('c', 4)).toBe('z')
  })
})
