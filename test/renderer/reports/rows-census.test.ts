// renderer/src/reports/rows-census.ts and items.ts: trend, hours, region ranking rows
import { describe, expect, it } from 'vitest'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { dateRange } from '../../../renderer/src/campaign/dates'
import { defaultDate, sumMetric, summable } from '../../../renderer/src/reports/items'
import { hourSeries, hoursTable, planByDate, plannedSpots, regionRanking, regionScopeOf, regionTable, trendPoints, trendTable } from '../../../renderer/src/reports/rows-census'
import { BEIJING, GLOBAL, MAINLAND, SHANGHAI, item, names, spot, t } from './fixtures'

const spots = [spot('1', '10', [['2026-03-01', 100, 5], ['2026-03-02', 100, 5]]), spot('2', '11', [['2026-03-02', 50, 2]], [[5, 'shampoo']])]

describe('items helpers', () => {
  it('adds up the global row only on level0 without a chosen region', () => {
    const items = [item({ region_id: GLOBAL }, { imp_day: 10 }), item({ region_id: MAINLAND }, { imp_day: 8 })]
    expect(summable(items, 'level0', false)).toHaveLength(1)
    expect(summable(items, 'level1', false)).toHaveLength(2)
  })

  it('never adds unique counts across rows', () => {
    const two = [item({}, { imp_day: 1, uim_day: 1 }), item({}, { imp_day: 2, uim_day: 2 })]
    expect(sumMetric(two, 'imp_day')).toBe(3)
    expect(sumMetric(two, 'uim_day')).toBeNull()
    expect(sumMetric(two.slice(0, 1), 'uim_day')).toBe(1)
    expect(sumMetric([item({}, { imp_day: null })], 'imp_day')).toBeNull()
  })

  it('lists calendar days and defaults the date to the last computed day inside the campaign', () => {
    expect(dateRange('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'])
    expect(dateRange('2026-03-02', '2026-03-01')).toEqual([])
    expect(defaultDate('2026-03-04', '2026-03-01', '2026-03-31')).toBe('2026-03-04')
    expect(defaultDate('2026-04-04', '2026-03-01', '2026-03-31')).toBe('2026-03-31')
    expect(defaultDate('2026-02-04', '2026-03-01', '2026-03-31')).toBe('2026-03-01')
  })
})

describe('regionScopeOf', () => {
  it('reads the level and whether one region was chosen from the request parameters', () => {
    expect(regionScopeOf({ by_region: 'level0' })).toEqual({ byRegion: 'level0', regionChosen: false })
    expect(regionScopeOf({ by_region: 'level1', region_id: ['110000'] })).toEqual({ byRegion: 'level1', regionChosen: true })
  })
})

describe('trend', () => {
  it('sums the plans of the spots in scope per date', () => {
    expect([...planByDate(spots)]).toEqual([['2026-03-01', { imp: 100, clk: 5 }], ['2026-03-02', { imp: 150, clk: 7 }]])
    expect(plannedSpots(spots, { spot_id: ['2'] }).map((s) => s.spot_id)).toEqual(['2'])
    expect(plannedSpots(spots, { publisher_id: ['10'] }).map((s) => s.spot_id)).toEqual(['1'])
    expect(plannedSpots(spots, { keyword_id: ['5'] }).map((s) => s.spot_id)).toEqual(['2'])
    expect(plannedSpots(spots, {})).toHaveLength(2)
  })

  it('puts the API figures of each date beside the plan, 0 for a day without rows, null past the cut-off', () => {
    const actual = new Map([
      ['2026-03-01', [item({ region_id: GLOBAL }, { imp_day: 90, clk_day: 4, uim_day: 80, ucl_day: 4 }), item({ region_id: MAINLAND }, { imp_day: 70, clk_day: 3, uim_day: 60, ucl_day: 3 })]],
      ['2026-03-02', []],
    ])
    const points = trendPoints(['2026-03-01', '2026-03-02', '2026-03-03'], planByDate(spots), actual, { byRegion: 'level0', regionChosen: false })
    expect(points[0]).toEqual({ date: '2026-03-01', plan_imp: 100, plan_clk: 5, imp_day: 90, clk_day: 4, uim_day: 80, ucl_day: 4 })
    expect(points[1]).toMatchObject({ imp_day: 0, uim_day: 0, plan_imp: 150 })
    expect(points[2]).toMatchObject({ imp_day: null, plan_imp: null })
    const table = trendTable(points, t)
    expect(table.columns.map((c) => c.key)).toEqual(['date', 'plan_imp', 'imp_day', 'plan_clk', 'clk_day', 'uim_day', 'ucl_day'])
    expect(table.rows[0]!.cells.imp_day).toBe(90)
  })
})

describe('hours', () => {
  it('gives 24 hourly figures per audience group and a day-total row when the report has totals', () => {
    const metrics = (base: number) => Object.fromEntries(Array.from({ length: 24 }, (_, h) => [[`imp_h${String(h).padStart(2, '0')}`, base + h], [`clk_h${String(h).padStart(2, '0')}`, h]]).flat())
    const items = [item({ audience: 'overall', region_id: GLOBAL, spot_id: '1' }, { ...metrics(100), imp_day: 5000, clk_day: 276 }), item({ audience: 'overall', region_id: GLOBAL, spot_id: '2' }, { ...metrics(0), imp_day: 276, clk_day: 276 })]
    const [s] = hourSeries(items, 'h', { byRegion: 'level1', regionChosen: false })
    expect(s!.imp[0]).toBe(100)
    expect(s!.imp[23]).toBe(123 + 23)
    expect(s!.impTotal).toBe(5276)
    const table = hoursTable([s!], 'h', names, t)
    expect(table.rows).toHaveLength(25)
    expect(table.rows[24]!.cells).toMatchObject({ 'imp|': 5276, 'clk|': 552 })
    expect(table.columns.map((c) => c.key)).toEqual(['hour', 'imp|', 'clk|'])
  })

  it('leaves the hours not come yet blank: realtime today answers 0 for them, which is not a figure', () => {
    const zeros = Object.fromEntries(Array.from({ length: 24 }, (_, h) => [[`imp_h${String(h).padStart(2, '0')}`, h <= 10 ? 7 : 0], [`clk_h${String(h).padStart(2, '0')}`, h <= 10 ? 1 : 0]]).flat())
    const [s] = hourSeries([item({ audience: 'overall', region_id: GLOBAL }, zeros)], 'h', { byRegion: 'level1', regionChosen: false }, 10)
    expect(s!.imp.slice(9, 13)).toEqual([7, 7, null, null])
    expect(s!.clk[23]).toBeNull()
    expect(hoursTable([s!], 'h', names, t).rows[11]!.cells['imp|']).toBeNull()
  })

  it('splits target rows by target and names them in the columns', () => {
    const items = [item({ audience: 'target', target_id: '4', region_id: GLOBAL }, { imp_acc_h00: 3 }), item({ audience: 'target', target_id: '9', region_id: GLOBAL }, { imp_acc_h00: 5 })]
    const series = hourSeries(items, 'acc_h', { byRegion: 'level0', regionChosen: false })
    expect(series.map((s) => [s.group, s.imp[0]])).toEqual([['4', 3], ['9', 5]])
    expect(hoursTable(series, 'acc_h', names, t).columns[1]!.title).toContain('Women')
    expect(hoursTable(series, 'acc_h', names, t).rows).toHaveLength(24)
  })
})

describe('region ranking', () => {
  const items = [
    item({ region_id: BEIJING, spot_id: '1', universe: 900 }, { imp_acc: 10, clk_acc: 1, uim_acc: 9, ucl_acc: 1 }),
    item({ region_id: SHANGHAI, spot_id: '1', universe: 800 }, { imp_acc: 30, clk_acc: 2, uim_acc: 20, ucl_acc: 2 }),
    item({ region_id: BEIJING, spot_id: '2', universe: 900 }, { imp_acc: 25, clk_acc: 0, uim_acc: 20, ucl_acc: 0 }),
  ]

  it('adds positions per region and ranks by the chosen figure', () => {
    const ranks = regionRanking(items, 'acc', 'imp_acc')
    expect(ranks.map((r) => [r.region_id, r.values.imp_acc, r.values.uim_acc])).toEqual([[BEIJING, 35, null], [SHANGHAI, 30, 20]])
    const table = regionTable(ranks, 'acc', names, t)
    expect(table.rows[0]!.cells).toMatchObject({ rank: 1, region: 'Beijing', imp_acc: 35, universe: 900 })
    expect(table.columns.some((c) => c.key === 'target')).toBe(false)
  })

  it('ranks each target on its own', () => {
    const target = [item({ audience: 'target', target_id: '4', region_id: BEIJING }, { imp_acc: 1 }), item({ audience: 'target', target_id: '9', region_id: BEIJING }, { imp_acc: 2 })]
    const table = regionTable(regionRanking(target, 'acc', 'imp_acc'), 'acc', names, t)
    expect(table.rows.map((r) => [r.cells.target, r.cells.rank])).toEqual([['9', 1], ['Women', 1]])
  })

  it("flags a target row's unique figures by its base, and no base stands behind several positions added up", () => {
    const based = (attributes: ReportItem['attributes'], metrics: ReportItem['metrics'], base: { uim: number; ucl: number }): ReportItem => ({ ...item(attributes, metrics), base }) as ReportItem
    const target = [
      based({ audience: 'target', target_id: '4', region_id: BEIJING, spot_id: '1' }, { imp_acc: 900, clk_acc: 9, uim_acc: 700, ucl_acc: 8 }, { uim: 420, ucl: 3 }),
      based({ audience: 'target', target_id: '4', region_id: SHANGHAI, spot_id: '1' }, { imp_acc: 500, clk_acc: 5, uim_acc: 400, ucl_acc: 5 }, { uim: 120, ucl: 2 }),
      based({ audience: 'target', target_id: '4', region_id: SHANGHAI, spot_id: '2' }, { imp_acc: 100, clk_acc: 1, uim_acc: 90, ucl_acc: 1 }, { uim: 10, ucl: 1 }),
    ]
    const table = regionTable(regionRanking(target, 'acc', 'imp_acc'), 'acc', names, t)
    expect(table.rows.map((r) => [r.cells.region, Object.keys(r.warn ?? {})])).toEqual([['Beijing', ['ucl_acc']], ['Shanghai', []]])
    expect(table.rows[0]!.warn?.ucl_acc).toBe('reports.warn.cell{"sample":3,"min":300}')
  })
})
