import { describe, expect, it } from 'vitest'
import { Lru } from '../../../../engine/measure/attribute/lru'

describe('Lru', () => {
  it('drops entries not used for a generation and keeps recently read ones', () => {
    const lru = new Lru<string, number>(4)
    lru.set('a', 1)
    lru.set('b', 2)
    lru.set('c', 3)
    expect(lru.get('a')).toBe(1)
    lru.set('d', 4)
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.get('d')]).toEqual([1, undefined, 3, 4])
  })

  it('never holds more than its capacity', () => {
    const lru = new Lru<number, number>(10)
    for (let i = 0; i < 1000; i++) {
      lru.set(i, i)
      lru.get(i >> 1)
      expect(lru.size).toBeLessThanOrEqual(10)
    }
  })

  it('replaces a value, also one held in the old generation', () => {
    const lru = new Lru<string, number>(4)
    lru.set('a', 1)
    lru.set('a', 2)
    expect([lru.get('a'), lru.size]).toEqual([2, 1])
    lru.set('b', 0)
    lru.set('c', 0)
    lru.set('a', 3)
    expect(lru.get('a')).toBe(3)
    lru.set('d', 0)
    lru.set('e', 0)
    expect(lru.get('a')).toBe(3)
  })

  it('computes a missing value once through `through`', () => {
    const lru = new Lru<string, number>(4)
    let calls = 0
    const make = (k: string): number => ++calls + k.length
    expect(lru.through('ab', make)).toBe(3)
    expect(lru.through('ab', make)).toBe(3)
    expect(calls).toBe(1)
  })

  it('stays fast when one key is read over and over in a full cache', () => {
    const lru = new Lru<string, number>(5000)
    for (let i = 0; i < 20000; i++) lru.set(`k${i}`, i)
    const start = performance.now()
    for (let i = 0; i < 100_000; i++) lru.get('k19999')
    expect(performance.now() - start).toBeLessThan(200)
  })

  it('refuses a capacity below one', () => {
    expect(() => new Lru(0)).toThrow(/capacity/)
  })
})
