// Identity text -> id: the open-addressing table gives what a Map would, through growth,
// hash collisions and replaced ids
import { describe, expect, it } from 'vitest'
import { hashText } from '../../../engine/measure/text-hash'
import { TextIndex } from '../../../engine/measure/text-index'
import { IdentityTexts } from '../../../engine/measure/identity-texts'
import { prng } from '../../helpers/prng'

describe('TextIndex', () => {
  it('answers every text as a Map does, through many doublings, and nothing for unknown texts', () => {
    const random = prng(5)
    const texts = IdentityTexts.of([''])
    const index = new TextIndex(texts)
    const map = new Map<string, number>()
    for (let id = 1; id <= 20_000; id++) {
      const text = random() < 0.1 ? `amid:${'春'.repeat(id % 7)}${id}` : `idfa:${Math.floor(random() * 1e12).toString(16)}-${id}`
      texts.push(text)
      index.set(id, hashText(text))
      map.set(text, id)
    }
    expect(index.size).toBe(map.size)
    for (const [text, id] of map) expect(index.get(text)).toBe(id)
    for (let i = 0; i < 1000; i++) expect(index.get(`idfa:unknown-${i}`)).toBeUndefined()
    expect(index.get('')).toBeUndefined()
  })

  it('tells texts with the same hash apart, and replaces the id of a text set again', () => {
    // FNV-1a collides for these two (found by search); both land in the same probe chain
    const [a, b] = findCollision()
    expect(hashText(a)).toBe(hashText(b))
    const texts = IdentityTexts.of(['', a, b, a])
    const index = new TextIndex(texts)
    index.set(1)
    index.set(2)
    expect([index.get(a), index.get(b)]).toEqual([1, 2])
    index.set(3)
    expect([index.get(a), index.get(b), index.size]).toEqual([3, 2, 2])
  })
})

/** Two different short texts with one 32-bit FNV-1a hash (a birthday search). */
function findCollision(): [string, string] {
  const seen = new Map<number, string>()
  for (let i = 0; ; i++) {
    const t = `k${i.toString(36)}`
    const h = hashText(t)
    const other = seen.get(h)
    if (other !== undefined) return [other, t]
    seen.set(h, t)
  }
}
