// spec §2.3 keyword text form, §4.3 freq_capping, §4.2 code_type; vendor-notes §8
import { describe, expect, it } from 'vitest'
import { p } from '../../../../engine/contract/params'
import { CODE_TYPE_NAMES } from '../../../../engine/contract/vocabulary'
import { expectRefused } from './helpers'

describe('p.keywords', () => {
  const c = p.keywords().optional()
  it('reads name^landing entries joined by >, with empty landing pages', () => {
    expect(c.decode('牛奶^https://www.baidu.com>母乳^', 'keyword')).toEqual([
      { keyword_name: '牛奶', landing_page: 'https://www.baidu.com' },
      { keyword_name: '母乳', landing_page: '' },
    ])
  })
  it('takes a name without ^ as a keyword without landing page, and ignores empty entries', () => {
    expect(c.decode('a>>b^', 'keyword')).toEqual([{ keyword_name: 'a', landing_page: '' }, { keyword_name: 'b', landing_page: '' }])
  })
  it.each(['^https://x.y', 'a^not a url', 'a^x>a^y', '>>'])('refuses %s', (raw) => expectRefused(c, raw, 'keyword'))
})

describe('p.keywordUpdates', () => {
  const c = p.keywordUpdates().optional()
  it('reads keyword_id^name^landing entries', () => {
    expect(c.decode('18372628^牛奶^https://www.baidu.com>5^母乳^', 'update_keyword')).toEqual([
      { keyword_id: '18372628', keyword_name: '牛奶', landing_page: 'https://www.baidu.com' },
      { keyword_id: '5', keyword_name: '母乳', landing_page: '' },
    ])
  })
  it.each(['牛奶^https://x.y', 'x^牛奶^', '1^^', '1^a^>1^b^'])('refuses %s', (raw) => expectRefused(c, raw, 'update_keyword'))
})

describe('p.spotFreqCapping', () => {
  const c = p.spotFreqCapping().optional()
  it.each(['S0+', 'S3+D', 'M5-W', 'S12+M', 'M1-'])('reads %s', (v) => expect(c.decode(v, 'x')).toBe(v))
  it.each(['s0+', 'S+', 'X3+', 'S3', 'S3+Y', 'S3+DD', 'S1000+'])('refuses %s (case-sensitive)', (v) => expectRefused(c, v, 'freq_capping'))
})

describe('p.codeTypes', () => {
  const c = p.codeTypes().optional()
  it('accepts every option of the spec list, case-insensitively', () => {
    expect(c.decode(CODE_TYPE_NAMES.filter((n) => n !== 'utm_auto').join(','), 'x')).toHaveLength(CODE_TYPE_NAMES.length - 1)
    expect(c.decode('HTTPS,MMA', 'x')).toEqual(['https', 'mma'])
  })
  it('refuses unknown options and utm with utm_auto', () => {
    expectRefused(c, 'mma,bogus', 'code_type', undefined, /bogus/)
    expectRefused(c, 'utm,utm_auto', 'code_type')
  })
  it('lists the four partner options', () => {
    expect(CODE_TYPE_NAMES).toEqual(expect.arrayContaining(['yahoo', 'groupm', 'jd', 'douyin']))
  })
})

describe('p.tagExpression', () => {
  const c = p.tagExpression().required()
  it('reads groups joined by & of tags joined by ,', () => {
    expect(c.decode('male,female&18-24Y', 'tag_id')).toEqual([['male', 'female'], ['18-24Y']])
  })
  it.each(['male&', '&male', 'male,,female', 'ma le', ''])('refuses %s', (raw) => expectRefused(c, raw, 'tag_id'))
})

describe('p.vendingModel', () => {
  const c = p.vendingModel().optional()
  it('reads level1-level2 with a known level 1, and empty to clear', () => {
    expect(c.decode('程序化购买-PDB', 'x')).toBe('程序化购买-PDB')
    expect(c.decode('常规购买-包段', 'x')).toBe('常规购买-包段')
    expect(c.decode('', 'x')).toBe('')
  })
  it.each(['PDB', '程序化购买-', '其他-PDB'])('refuses %s', (raw) => expectRefused(c, raw, 'vending_model'))
})
