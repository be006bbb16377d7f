// spec §1, §4: dates, flags, integers, enumerations, text, URLs and PATTERN search text
import { describe, expect, it } from 'vitest'
import { E } from '../../../../engine/contract/errors'
import { p } from '../../../../engine/contract/params'
import { EAR_VALUES, PROGRAM_PURCHASING, REPORT_METRICS, SLOT_TYPES } from '../../../../engine/contract/vocabulary'
import { expectRefused } from './helpers'

describe('p.date', () => {
  const c = p.date().required()
  it.each(['2025-01-10', '2024-02-29', '2099-12-31'])('reads %s', (d) => expect(c.decode(d, 'd')).toBe(d))
  it.each(['2025-1-10', '2025-02-30', '2023-02-29', '10/01/2025', '2025-13-01', '20250110', '1969-12-31', '2025-01-10T00:00'])('refuses %s', (d) => expectRefused(c, d, 'start_date'))
})

describe('p.dateList', () => {
  const c = p.dateList().optional()
  it('reads dates separated by ,', () => expect(c.decode('2025-01-02, 2025-01-01', 'x')).toEqual(['2025-01-02', '2025-01-01']))
  it.each(['2025-01-01,,2025-01-02', '2025-01-01,2025-01-01', '2025-01-01,x'])('refuses %s', (raw) => expectRefused(c, raw, 'add_slot'))
})

describe('p.flag01 and p.onOff', () => {
  it('reads 0 and 1, defaults when absent', () => {
    const c = p.flag01().default(false)
    expect(c.decode('1', 'x')).toBe(true)
    expect(c.decode('0', 'x')).toBe(false)
    expect(c.decode(undefined, 'x')).toBe(false)
  })
  it.each(['2', 'true', 'yes', '-1', '01'])('refuses %s', (raw) => expectRefused(p.flag01().default(false), raw, 'pmo_info'))
  it('reads on/off and 1/0 for keyword', () => {
    const c = p.onOff().default(false)
    expect(['on', 'ON', '1'].map((s) => c.decode(s, 'k'))).toEqual([true, true, true])
    expect(['off', '0'].map((s) => c.decode(s, 'k'))).toEqual([false, false])
    expectRefused(c, 'maybe', 'keyword')
  })
})

describe('p.int and p.intIn', () => {
  it('reads integers in range and refuses others', () => {
    const c = p.int(1, 80).default(10)
    expect(c.decode('80', 'x')).toBe(80)
    expect(c.decode(undefined, 'x')).toBe(10)
    for (const bad of ['0', '81', '1.5', 'ten', '1e1']) expectRefused(c, bad, 'frequency_limit')
  })
  it('says the range of a whole number too long to read, not "must be an integer"', () => {
    expect(() => p.int(0, 2 ** 40).required().decode('99999999999999999', 'est_impression')).toThrow("The 'est_impression' must be between 0 and 1099511627776, got 99999999999999999.")
    expect(() => p.int(1, 80).required().decode('-12345678901234567', 'x')).toThrow(/must be between 1 and 80/)
  })
  it('reads only listed integers', () => {
    const c = p.intIn([1, 2, 3] as const).optional()
    expect(c.decode('2', 'x')).toBe(2)
    for (const bad of ['0', '4', 'x']) expectRefused(c, bad, 'status')
  })
})

describe('enumerations', () => {
  it('accepts every slot_type and reads a space as + (an unencoded + in a query)', () => {
    const c = p.plusEnum(SLOT_TYPES).optional()
    for (const v of SLOT_TYPES) expect(c.decode(v, 'x')).toBe(v)
    expect(c.decode('display search', 'x')).toBe('display+search')
    expectRefused(c, 'dispaly', 'slot_type')
  })
  it('accepts every report_metrics value', () => {
    for (const v of REPORT_METRICS) expect(p.plusEnum(REPORT_METRICS).optional().decode(v, 'x')).toBe(v)
  })
  it('maps vendor values and English aliases to the canonical value', () => {
    const c = p.mapped(PROGRAM_PURCHASING).optional()
    expect(c.decode('by_channel', 'x')).toBe('按频道采买')
    expect(c.decode('通投', 'x')).toBe('通投')
    expect(p.mapped(EAR_VALUES).default('无').decode('none', 'x')).toBe('无')
    expectRefused(c, 'sometimes', 'program_purchasing_type')
  })
  it('matches oneOf exactly (case-sensitive, as the vendor says)', () => {
    const c = p.oneOf(['display', 'QR-Code'] as const).optional()
    expect(c.decode('QR-Code', 'x')).toBe('QR-Code')
    expectRefused(c, 'qr-code', 'placement_type')
  })
})

describe('p.name and p.text', () => {
  it('trims names and refuses empty ones with the given catalogue error', () => {
    const c = p.name(10, E.invalidCampaignName).required()
    expect(c.decode('  Spring  ', 'campaign_name')).toBe('Spring')
    expectRefused(c, '   ', 'campaign_name', E.invalidCampaignName)
    expectRefused(c, '', 'campaign_name', E.invalidCampaignName)
    expectRefused(c, undefined, 'campaign_name', E.invalidCampaignName)
    expectRefused(c, 'x'.repeat(11), 'campaign_name', E.invalidCampaignName)
  })
  it('counts characters, not UTF-16 units', () => {
    expect(p.name(3).required().decode('😀😀😀', 'x')).toBe('😀😀😀')
  })
  it('keeps an empty text (it clears a field) and refuses control characters', () => {
    expect(p.text(10).optional().decode('', 'x')).toBe('')
    expectRefused(p.text(10).optional(), 'a\u0000b', 'description')
    expect(p.text(10).optional().decode('line\nline', 'x')).toBe('line\nline')
  })
})

describe('URLs', () => {
  it('reads absolute http(s) URLs only', () => {
    expect(p.url().required().decode('https://example.com/a?b=1', 'x')).toBe('https://example.com/a?b=1')
    for (const bad of ['example.com', 'javascript:alert(1)', 'ftp://x.y', '/relative']) expectRefused(p.url().required(), bad, 'landing_page')
  })
  it('refuses control characters inside a URL (a parser would drop or escape them: the page kept would not be the one visited)', () => {
    for (const bad of ['https://example.com/a\nb', 'https://exa\tmple.com/', 'https://example.com/\u0001', 'https://example.com/\u007f']) {
      expect(() => p.url().required().decode(bad, 'landing_page')).toThrow(/'landing_page' contains control characters/)
    }
    expect(p.url().required().decode('  https://example.com/a \n', 'x')).toBe('https://example.com/a')
  })
  it('lets a landing page be empty', () => {
    expect(p.urlOrEmpty().optional().decode('', 'x')).toBe('')
  })
  it('requires other_impr_tracking_tag to begin with http:// or https:// and allows macros', () => {
    const c = p.tag().optional()
    expect(c.decode('https://t.example.com/i?u=__IDFA__', 'x')).toBe('https://t.example.com/i?u=__IDFA__')
    expectRefused(c, 'www.example.com/i', 'other_impr_tracking_tag')
  })
})

describe('p.intArray (linked_tvcaids)', () => {
  it('reads a JSON array or a comma list', () => {
    const c = p.intArray().optional()
    expect(c.decode('[123,456]', 'x')).toEqual([123, 456])
    expect(c.decode('123, 456', 'x')).toEqual([123, 456])
    expect(c.decode('[]', 'x')).toEqual([])
    for (const bad of ['[1,a]', '[1,1]', '{1}', '1;2']) expectRefused(c, bad, 'linked_tvcaids')
  })
})
