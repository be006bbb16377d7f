import { describe, expect, it } from 'vitest'
import { StampSet } from '../../../engine/reports/stamp-set'

/** A seeded stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let x = seed >>> 0
  return () => {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0
    return x / 4_294_967_296
  }
}

describe('StampSet', () => {
  it('answers like a Set<number> over many generations, growth and large keys', () => {
    const r = seeded(7)
    const mine = new StampSet(4)
    const ref = new Set<number>()
    for (let round = 0; round < 400; round++) {
      mine.clear()
      ref.clear()
      const n = Math.floor(r() * (round % 50 === 0 ? 5_000 : 60))
      // small dense keys, the kernels' packed keys, and keys beyond 2^32
      const span = [64, 131_072 * 40, 2 ** 52][round % 3]!
      for (let k = 0; k < n; k++) {
        const key = Math.floor(r() * span)
        expect(mine.has(key)).toBe(ref.has(key))
        expect(mine.add(key)).toBe(!ref.has(key))
        ref.add(key)
        expect(mine.size).toBe(ref.size)
      }
      for (const key of ref) expect(mine.has(key)).toBe(true)
    }
  })

  it('forgets everything on clear', () => {
    const s = new StampSet()
    for (let k = 0; k < 100; k++) s.add(k * 131_072)
    s.clear()
    expect(s.size).toBe(0)
    for (let k = 0; k < 100; k++) expect(s.has(k * 131_072)).toBe(false)
    expect(s.add(0)).toBe(true)
  })
})
