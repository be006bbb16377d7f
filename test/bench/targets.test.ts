// The bench's verdicts (bench/targets.ts): each target a ratio to a baseline of the same run,
// PASS/MISS from the ratio alone. The figures of a run on another build machine give the ratios
// worked out here by hand.
import { describe, expect, it } from 'vitest'
import { formatRatio, judge, ratioOf, summaryLine, target, TARGETS, verdictLine } from '../../bench/targets'

describe('the bench targets', () => {
  it('are one per measure, each with its baseline', () => {
    const goals = Object.fromEntries(TARGETS.map((t) => [t.id, `${t.op} ${t.goal}`]))
    expect(goals).toEqual({
      import: '>= 1', basic: '>= 50', reach: '>= 50', audience: '>= 50', hits: '>= 0.7', modules: '<= 0.3', open: '<= 1.5', serverRss: '<= 600',
      listVsBare: '>= 0.5', listNewQuery: '>= 0.3', firstReport: '<= 3', tabCold: '<= 1000', tabWarm: '<= 300', searchImport: '<= 250',
    })
    const absolute = TARGETS.filter((t) => t.form === 'absolute').map((t) => t.id)
    expect(absolute).toEqual(['modules', 'serverRss', 'firstReport', 'tabCold', 'tabWarm', 'searchImport'])
    expect(target('serverRss').baseline).toContain('memory does not scale')
    expect(() => target('nothing' as never)).toThrow("no bench target 'nothing'")
  })

  it("gives a run of the figures the targets were set against its ratios and verdicts", () => {
    // import 38.0 s against DuckDB's 16.4 s: DuckDB is 2.32 times as fast, the engine 0.43 of it
    const imp = judge('import', 38_000, 16_400, 'engine 38.0 s; DuckDB 16.4 s')
    expect(imp.ratio).toBeCloseTo(16.4 / 38, 10)
    expect(formatRatio(imp.ratio!)).toBe('0.43')
    expect(imp.pass).toBe(false)
    // basic/show p50 2,100 ms on DuckDB against 50 ms on the engine: 42x, short of 50x
    expect(judge('basic', 50, 2_100, '').ratio).toBeCloseTo(42, 10)
    expect(judge('basic', 50, 2_100, '').pass).toBe(false)
    // hits: the engine's req/s per core over the bare server's; 0.54 misses 0.7
    expect(judge('hits', 0.54 * 12_637, 12_637, '').pass).toBe(false)
    // server RSS 809 MiB, absolute: the baseline is ignored
    const rss = judge('serverRss', 809, 1, '')
    expect([rss.ratio, rss.baseline, rss.pass]).toEqual([809, null, false])
    // a new query at 180 req/s against the cached answer at 11,600: 0.016, short of 0.3
    expect(judge('listNewQuery', 180, 11_600, '').ratio).toBeCloseTo(180 / 11_600, 12)
    // modules loaded in 1.5 s: an absolute miss; opening 3.1 s against a cat of 1.9 s: 1.63x, a miss
    expect(judge('modules', 1.5, undefined, '').pass).toBe(false)
    expect(judge('open', 3_100, 1_900, '').ratio).toBeCloseTo(3.1 / 1.9, 10)
    expect(judge('open', 3_100, 1_900, '').pass).toBe(false)
  })

  it('passes on the goal itself and on the right side of it', () => {
    expect(judge('import', 10_000, 10_000, '').pass).toBe(true)
    expect(judge('import', 9_000, 10_000, '').pass).toBe(true)
    expect(judge('open', 1_500, 1_000, '').pass).toBe(true)
    expect(judge('open', 1_501, 1_000, '').pass).toBe(false)
    expect(judge('serverRss', 600, undefined, '').pass).toBe(true)
    expect(judge('modules', 0.29, undefined, '').pass).toBe(true)
    expect(judge('hits', 7, 10, '').pass).toBe(true)
  })

  it('judges nothing when a figure is missing, zero or not a number', () => {
    for (const [e, b] of [[undefined, 10], [10, undefined], [0, 10], [10, 0], [Number.NaN, 10], [10, Number.POSITIVE_INFINITY], [null, 10]] as const) {
      const v = judge('basic', e, b, '')
      expect([v.ratio, v.pass], `${String(e)} / ${String(b)}`).toEqual([null, null])
    }
    expect(ratioOf(target('serverRss'), 700, undefined)).toBe(700)
  })

  it('prints the verdict, then the ratio with its baseline and target, then the absolute figures', () => {
    const line = verdictLine(judge('import', 15_100, 7_900, 'engine 15.1 s (662,252 events/s); DuckDB 7.9 s'))
    expect(line).toMatch(/^ {2}MISS {2}batch import of the events file +0\.52x as fast as DuckDB reading and attributing the same file \(target >= 1\.00x\); engine 15\.1 s \(662,252 events\/s\); DuckDB 7\.9 s$/)
    expect(line.indexOf('0.52x')).toBeLessThan(line.indexOf('15.1 s'))
    expect(verdictLine(judge('basic', 40, 2_084, ''))).toContain('PASS  basic/show spot x city, all metrics, cold')
    expect(verdictLine(judge('basic', 40, 2_084, ''))).toContain(' 52x as fast as DuckDB computing it in SQL (p50 vs p50) (target >= 50x)')
    expect(verdictLine(judge('serverRss', 1_079, undefined, ''))).toContain("1,079 MiB (absolute: memory does not scale with the machine's speed) (target <= 600 MiB)")
    expect(verdictLine(judge('listNewQuery', 180, 11_600, '', 'campaigns/list'))).toContain('MISS  CMS list, a new query (500 random ids): campaigns/list')
    expect(verdictLine(judge('reach', undefined, 137, ''))).toContain('n/a   reach/show, cold')
    expect(verdictLine(judge('reach', undefined, 137, ''))).toContain('not measured')
  })

  it('sums up the verdicts: how many met, which missed by what, how many not measured', () => {
    const vs = [judge('basic', 40, 2_084, ''), judge('hits', 53, 100, ''), judge('reach', undefined, 1, ''), judge('serverRss', 1_079, undefined, '')]
    expect(summaryLine(vs)).toBe('  1 of 3 targets met; missed: tracking hits over HTTP, per server core 0.53; server peak RSS 1,079 MiB; 1 not measured')
    expect(summaryLine([judge('basic', 40, 2_084, '')])).toBe('  1 of 1 targets met')
  })
})
