// The identity texts as UTF-8 bytes in one buffer: every text comes back as the string it was,
// compares and hashes as the string does, and travels as a checkpoint keeps texts (UTF-16
// lengths and UTF-8 bytes, as Buffer and String compute them)
import { describe, expect, it } from 'vitest'
import { IdentityTexts } from '../../../engine/measure/identity-texts'
import { hashText } from '../../../engine/measure/text-hash'
import { prng } from '../../helpers/prng'

/** Texts of every UTF-8 sequence length, with pairs of one UTF-16 length whose bytes differ or agree. */
function mixed(seed: number, n: number): string[] {
  const random = prng(seed)
  const pieces = ['a', 'Z', '0', ':', '-', '\u0000', 'é', 'Ã', '©', '牛', '奶', '😀', '\u{10ffff}', '\u00ff']
  const out = ['', 'amid:é', 'amid:Ã©', 'idfa:😀', 'idfa:牛奶']
  while (out.length < n) out.push(Array.from({ length: Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]!).join(''))
  return out
}

describe('IdentityTexts', () => {
  it('gives back each text, tells it equal to itself only, and hashes it as hashText does', () => {
    for (const texts of [mixed(3, 400), ['', ...Array.from({ length: 400 }, (_, i) => `idfa:${i.toString(36)}`)]]) {
      const store = IdentityTexts.of(texts)
      expect(store.size).toBe(texts.length)
      expect(store.all()).toEqual(texts)
      for (let i = 0; i < texts.length; i++) {
        expect(store.hashOf(i)).toBe(hashText(texts[i]!))
        for (const j of [i, (i * 7 + 1) % texts.length, (i + 1) % texts.length]) {
          expect(store.equals(i, texts[j]!), `${i} vs ${j}`).toBe(texts[i] === texts[j])
          expect(store.same(i, j)).toBe(texts[i] === texts[j])
        }
      }
    }
  })

  it('keeps texts as a checkpoint does (UTF-16 lengths, UTF-8 bytes) and reads them back so, room for more after them', () => {
    const texts = [...Array.from({ length: 300 }, (_, i) => (i === 0 ? '' : `imei:${i}`)), ...mixed(9, 300).slice(1)]
    const store = IdentityTexts.of(texts)
    for (const n of [1, 300, texts.length]) {
      const { lengths, blob } = store.units(n)
      expect(Array.from(lengths)).toEqual(texts.slice(0, n).map((t) => t.length))
      expect(Buffer.from(blob).equals(Buffer.from(texts.slice(0, n).join(''), 'utf8'))).toBe(true)
      const room = new Uint8Array(blob.length + 64)
      room.set(blob)
      const back = IdentityTexts.fromUnits(lengths, room, blob.length)
      expect(back.all()).toEqual(texts.slice(0, n))
      back.push('amid:next 牛')
      back.push('idfa:next')
      expect(back.all()).toEqual([...texts.slice(0, n), 'amid:next 牛', 'idfa:next'])
    }
  })

  it('refuses lengths that do not fit the bytes', () => {
    const { lengths, blob } = IdentityTexts.of(['', 'idfa:牛奶', 'amid:x']).units(3)
    const [short, long] = [Uint32Array.from(lengths), Uint32Array.from(lengths)]
    short[2] = 5
    long[2] = 7
    expect(() => IdentityTexts.fromUnits(short, blob, blob.length)).toThrow(/differ/)
    expect(() => IdentityTexts.fromUnits(long, blob, blob.length)).toThrow(/differ/)
  })
})
