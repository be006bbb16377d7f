// renderer/src/campaign/codes.ts: code_type options and the rows of the codes table and export
import { describe, expect, it } from 'vitest'
import type { ListSpot } from '../../../engine/contract/models'
import { codeColumns, codeRows, codeTypeParam, readCodeTypes, toggleCodeType } from '../../../renderer/src/campaign/codes'
import { toCsv } from '../../../renderer/src/utils/export'

const spot = (over: Partial<ListSpot> = {}): ListSpot => ({
  spot_id: '40', spot_id_str: 'e', publisher_id: '3', publisher_name: 'Twitter', channel_name: 'news', placement_name: 'top banner',
  placement_type: 'display', report_metrics: 'impression+click', GUID: '', CAGUID: '', adposition_type: '', vending_model: '', market: '',
  customize: '', description: '', landing_page: 'http://www.facebook.com',
  tracking_tags: { impression_url: 'http://h/x/k=1&p=e&o=', click_url: 'http://h/r/k=1&p=e&o=http%3A%2F%2Fwww.facebook.com' },
  keyword: [], ...over,
})

describe('code_type options', () => {
  it('keeps utm and utm_auto exclusive', () => {
    expect(toggleCodeType(['mma', 'utm'], 'utm_auto', true)).toEqual(['mma', 'utm_auto'])
    expect(toggleCodeType(['mma', 'utm'], 'mma', false)).toEqual(['utm'])
  })

  it('writes the parameter in the table order, none when empty', () => {
    expect(codeTypeParam(['?', 'https', 'mma'])).toBe('mma,https,?')
    expect(codeTypeParam([])).toBeUndefined()
  })

  it('reads remembered options, dropping unknown names', () => {
    expect(readCodeTypes(['mma', 'nope', 'utm', 'utm_auto', 3])).toEqual(['mma', 'utm_auto'])
    expect(readCodeTypes('mma')).toEqual([])
  })
})

describe('codeRows', () => {
  it('gives a row per spot and per keyword, reading keyword tags from one-key objects', () => {
    const rows = codeRows([spot({
      keyword: [{ deletedTime: '', isDeleted: '', keyword: '牛奶', keywordId: 22050057, landingPage: 'https://www.baidu.com', spid: 40,
        tracking_tags: [{ impression_url: 'http://h/x/k=1&p=e&af=22050057&o=' }, { click_url: 'http://h/r/k=1&p=e&af=22050057&o=x' }] }],
    })])
    expect(rows.map((r) => [r.key, r.keyword, r.impression_url, r.click_url])).toEqual([
      ['s40', '', 'http://h/x/k=1&p=e&o=', 'http://h/r/k=1&p=e&o=http%3A%2F%2Fwww.facebook.com'],
      ['k22050057', '牛奶', 'http://h/x/k=1&p=e&af=22050057&o=', 'http://h/r/k=1&p=e&af=22050057&o=x'],
    ])
  })

  it('exports every column with the given titles', () => {
    const csv = toCsv(codeColumns((k) => k.toUpperCase()), codeRows([spot()]))
    expect(csv.split('\r\n')).toEqual([
      'SPOT_ID,SPOT_ID_STR,PUBLISHER_NAME,CHANNEL_NAME,PLACEMENT_NAME,KEYWORD_ID,KEYWORD,LANDING_PAGE,IMPRESSION_URL,CLICK_URL',
      '40,e,Twitter,news,top banner,,,http://www.facebook.com,http://h/x/k=1&p=e&o=,http://h/r/k=1&p=e&o=http%3A%2F%2Fwww.facebook.com',
    ])
  })
})
