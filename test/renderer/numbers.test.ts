// Numbers in the interface language: one formatter per locale, writing what toLocaleString writes
import { describe, expect, it } from 'vitest'
import { formatNumberIn, numberLocale } from '../../renderer/src/i18n/numbers'

describe('formatNumberIn', () => {
  it('writes a number as toLocaleString does in the locale of each interface language', () => {
    for (const language of ['en', 'zh']) {
      const locale = numberLocale(language)
      for (const n of [0, -0, 7, 1234, 1234567.891, -98765.4321, 1e21, 0.0001]) expect(formatNumberIn(n, locale)).toBe(n.toLocaleString(locale))
    }
    expect(formatNumberIn(1234567, numberLocale('zh'))).toBe('1,234,567')
    expect(numberLocale('zh')).toBe('zh-CN')
    expect(numberLocale('en')).toBe('en')
  })
})
