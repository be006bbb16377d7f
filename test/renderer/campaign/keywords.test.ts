// renderer/src/campaign/keywords.ts: the keyword text form, both ways, and keyword edits
import { describe, expect, it } from 'vitest'
import { p } from '../../../engine/contract/params'
import { keywordChanges, keywordProblems, keywordText, keywordUpdateText, parseKeywordText, rowsFromListKeywords } from '../../../renderer/src/campaign/keywords'

describe('keywordText', () => {
  it('joins name^landing_page entries with >, an empty page kept as name^', () => {
    const text = keywordText([{ keyword_name: '牛奶', landing_page: 'https://www.baidu.com' }, { keyword_name: ' 母乳 ', landing_page: '' }])
    expect(text).toBe('牛奶^https://www.baidu.com>母乳^')
    expect(p.keywords().required().decode(text, 'keyword')).toEqual([
      { keyword_name: '牛奶', landing_page: 'https://www.baidu.com' },
      { keyword_name: '母乳', landing_page: '' },
    ])
  })

  it('percent-encodes > in a landing page so that it cannot split entries', () => {
    const text = keywordText([{ keyword_name: 'a', landing_page: 'https://x.com/?q=1>2' }])
    expect(text).toBe('a^https://x.com/?q=1%3E2')
    expect(p.keywords().required().decode(text, 'keyword')).toHaveLength(1)
  })

  it('writes update_keyword as keyword_id^name^landing_page, only for rows with an id', () => {
    const text = keywordUpdateText([{ keyword_id: 18372628, keyword_name: '牛奶', landing_page: 'https://www.baidu.com' }, { keyword_name: 'new', landing_page: '' }])
    expect(text).toBe('18372628^牛奶^https://www.baidu.com')
    expect(p.keywordUpdates().required().decode(text, 'update_keyword')).toEqual([{ keyword_id: '18372628', keyword_name: '牛奶', landing_page: 'https://www.baidu.com' }])
  })
})

describe('parseKeywordText', () => {
  it('reads entries split by > or new lines, with or without a landing page', () => {
    expect(parseKeywordText('牛奶^https://www.baidu.com>母乳^\nmilk\n\n')).toEqual({
      rows: [
        { keyword_name: '牛奶', landing_page: 'https://www.baidu.com' },
        { keyword_name: '母乳', landing_page: '' },
        { keyword_name: 'milk', landing_page: '' },
      ],
      bad: [],
    })
  })

  it('reads the update form and reports entries without a numeric id', () => {
    expect(parseKeywordText('4018469^test^https://www.baidu.com/>x^y^', true)).toEqual({
      rows: [{ keyword_id: 4018469, keyword_name: 'test', landing_page: 'https://www.baidu.com/' }],
      bad: ['x^y^'],
    })
  })

  it('round-trips what keywordText writes', () => {
    const rows = [{ keyword_name: 'a', landing_page: 'https://a.com/x^y' }, { keyword_name: 'b', landing_page: '' }]
    expect(parseKeywordText(keywordText(rows)).rows).toEqual(rows)
  })
})

describe('keywordProblems', () => {
  it('flags empty names, separators in names, long names, bad pages and repeats', () => {
    expect(keywordProblems([
      { keyword_name: ' ', landing_page: '' },
      { keyword_name: 'a>b', landing_page: '' },
      { keyword_name: 'x'.repeat(101), landing_page: '' },
      { keyword_name: 'ok', landing_page: 'ftp://x' },
      { keyword_name: 'milk', landing_page: 'https://a.com' },
      { keyword_name: 'milk ', landing_page: '' },
    ])).toEqual(['empty', 'separator', 'tooLong', 'url', null, 'duplicate'])
  })
})

describe('keywordChanges', () => {
  const original = rowsFromListKeywords([
    { deletedTime: '', isDeleted: '', keyword: 'milk', keywordId: 7, landingPage: '', spid: 1, tracking_tags: [] },
    { deletedTime: '', isDeleted: '', keyword: 'tea', keywordId: 8, landingPage: 'https://t.com', spid: 1, tracking_tags: [] },
  ])

  it('sends nothing when nothing changed', () => {
    expect(keywordChanges(original, original.map((k) => ({ ...k })))).toEqual({})
  })

  it('adds new rows and updates changed ones by id', () => {
    const draft = [{ ...original[0]!, landing_page: 'https://m.com' }, original[1]!, { keyword_name: 'coffee', landing_page: '' }]
    expect(keywordChanges(original, draft)).toEqual({ add_keyword: 'coffee^', update_keyword: '7^milk^https://m.com' })
  })
})
