// The pure parts of the bench's rows of what the user feels (bench/felt-logic.ts): the answers
// that name today, latency quantiles worked out by hand, search terms that never repeat, the
// pieces a large file is sent in, and the verdicts.
import { describe, expect, it } from 'vitest'
import { asOn, dayAfter, feltVerdicts, latency, pieces, PROGRESS_PATH, quantile, searchTerms, STATUS_PATH, type TabTime } from '../../bench/felt-logic'

describe('the day the Reports screen is shown on', () => {
  it('says that day in local/v1/status and the day before in basic/progress, and leaves other answers alone', () => {
    const status = { name: 'AdMonitor Desk', today: '2026-11-29', time_zone: 'Asia/Shanghai' }
    expect(asOn(STATUS_PATH, status, '2099-03-31')).toEqual({ ...status, today: '2099-03-31' })
    expect(asOn(PROGRESS_PATH, { date: '2026-11-28', campaign_id: 1 }, '2099-03-01')).toEqual({ date: '2099-02-28', campaign_id: 1 })
    const report = { items: [{ metrics: { imp_acc: 7 } }], date: '2099-03-30' }
    expect(asOn('/admonitor/v1/reports/basic/show', report, '2099-03-31')).toBe(report)
    expect(asOn(STATUS_PATH, null, '2099-03-31')).toBeNull()
  })

  it('is the day after the end, across a month and a leap day', () => {
    expect(dayAfter('2099-03-30')).toBe('2099-03-31')
    expect(dayAfter('2099-03-31')).toBe('2099-04-01')
    expect(dayAfter('2096-02-28')).toBe('2096-02-29')
  })
})

describe('latency figures', () => {
  it('takes the nearest rank: of 1..20 ms the p50 is 10, the p95 19, the max 20', () => {
    const xs = Array.from({ length: 20 }, (_, i) => 20 - i)
    expect(latency(xs)).toEqual({ n: 20, p50: 10, p95: 19, max: 20 })
    expect(quantile([250], 0.95)).toBe(250)
    expect(quantile([5, 1, 900], 0.95)).toBe(900)
    expect(latency([]).n).toBe(0)
    expect(Number.isNaN(latency([]).p95)).toBe(true)
  })
})

describe('search terms', () => {
  it('are 1,990 numbers, none repeated, in an order fixed by the seed', () => {
    const a = searchTerms(20991)
    expect(a).toHaveLength(1990)
    expect(new Set(a).size).toBe(1990)
    expect([...a].sort((x, y) => Number(x) - Number(y))).toEqual(Array.from({ length: 1990 }, (_, i) => String(i + 10)))
    expect(searchTerms(20991)).toEqual(a)
    expect(searchTerms(7)).not.toEqual(a)
  })
})

describe('the pieces of a large file', () => {
  const text = 'aaaa\nbbb\ncc\nd\neeeeeee\n'
  const newlineBefore = (pos: number, from: number) => {
    const i = text.lastIndexOf('\n', pos)
    return i >= from ? i + 1 : -1
  }

  it('end after a newline, hold at most max bytes, and cover the file once', () => {
    const got = pieces(text.length, 10, newlineBefore)
    expect(got).toEqual([[0, 9], [9, 14], [14, 22]])
    expect(got.map(([a, b]) => text.slice(a, b)).join('')).toBe(text)
    expect(got.every(([a, b]) => b - a <= 10 && text[b - 1] === '\n')).toBe(true)
  })

  it('is the whole file when it fits, and refuses a line longer than a piece', () => {
    expect(pieces(text.length, 64, newlineBefore)).toEqual([[0, 22]])
    expect(() => pieces(text.length, 6, newlineBefore)).toThrow('a line longer than 6 bytes at byte 14')
  })
})

describe('the verdicts of what the user feels', () => {
  const tab = (view: string, ms: number, state: TabTime['state'] = 'data'): TabTime => ({ view, ms, state, requests: [{ path: '/admonitor/v1/reports/basic/show', ms: ms - 50, waitMs: ms - 80, bytes: 2_000 }] })

  it('judges the first report in seconds, each tab cold and warm, and the search p95 during the import', () => {
    const v = feltVerdicts({
      firstReportMs: 3_940, cold: [tab('trend', 792), tab('region', 1_626)], warm: [tab('trend', 216), tab('audience', 833)],
      search: { idle: { n: 100, p50: 4, p95: 32, max: 100 }, importing: { n: 332, p50: 20, p95: 272, max: 807 } },
    })
    expect(v.map((x) => [x.id, x.row ?? '', x.ratio, x.pass])).toEqual([
      ['firstReport', '', 3.94, false],
      ['tabCold', 'trend', 792, true], ['tabCold', 'region', 1_626, false],
      ['tabWarm', 'trend', 216, true], ['tabWarm', 'audience', 833, false],
      ['searchImport', '', 272, false],
    ])
    expect(v.at(-1)!.info).toContain('idle p95 32 ms (8.5x)')
  })

  it('says a tab that never showed its figures, and a search row not run, are not measured', () => {
    const v = feltVerdicts({ firstReportMs: null, cold: [tab('reach', 60_000, 'timeout')], warm: [], search: null })
    expect(v.map((x) => [x.id, x.ratio, x.pass])).toEqual([['firstReport', null, null], ['tabCold', null, null], ['searchImport', null, null]])
  })
})
