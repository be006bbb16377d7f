// renderer/src/components/field-text.ts: text a number box drops, and a length count instead of a cut
import { describe, expect, it } from 'vitest'
import { lengthCount, rejectedNumber } from '../../../renderer/src/components/field-text'

describe('rejectedNumber', () => {
  it('returns the text a number box would drop without a word', () => {
    expect(rejectedNumber('abc')).toBe('abc')
    expect(rejectedNumber(' 1.2.3 ')).toBe('1.2.3')
  })

  it('takes numbers (with separators) and an empty box', () => {
    expect(rejectedNumber('1.5')).toBeNull()
    expect(rejectedNumber('10,000')).toBeNull()
    expect(rejectedNumber('-2')).toBeNull()
    expect(rejectedNumber('')).toBeNull()
  })
})

describe('lengthCount', () => {
  it('counts characters as the engine does (code points), also past the limit', () => {
    expect(lengthCount('', 255)).toBe('0 / 255')
    expect(lengthCount('海飞丝', 100)).toBe('3 / 100')
    expect(lengthCount('😀😀', 100)).toBe('2 / 100')
    expect(lengthCount('x'.repeat(300), 255)).toBe('300 / 255')
  })
})
