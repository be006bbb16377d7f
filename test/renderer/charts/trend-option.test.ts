// renderer/src/charts/trend-option.ts
import { describe, expect, it } from 'vitest'
import { trendOption } from '../../../renderer/src/charts/trend-option'
import type { TrendPoint } from '../../../renderer/src/reports/rows-census'
import { chartEnv, series, titles, values, xAxes, yAxes, zooms } from './helpers'

const point = (date: string, imp: number | null, plan: number | null): TrendPoint => ({ date, plan_imp: plan, plan_clk: plan === null ? null : plan / 100, imp_day: imp, clk_day: imp === null ? null : 1, uim_day: null, ucl_day: null })

describe('trendOption', () => {
  const points = [point('2026-03-01', 90, 100), point('2026-03-02', 110, 100), point('2026-03-03', null, 100)]

  it('draws actual and planned impressions on the left axis and clicks on the right', () => {
    const o = trendOption(points, '2026-03-02', chartEnv)
    expect(titles(o)[0]!.text).toBe('reports.chart.trend.title')
    expect(xAxes(o)[0]!.data).toEqual(['2026-03-01', '2026-03-02', '2026-03-03'])
    expect(yAxes(o).map((a) => a.name)).toEqual(['reports.unit.impressions', 'reports.unit.clicks'])
    expect(series(o).map((s) => [s.type, s.name, s.yAxisIndex ?? 0])).toEqual([
      ['bar', 'reports.series.actualImp', 0], ['line', 'reports.series.planImp', 0], ['line', 'reports.series.actualClk', 1], ['line', 'reports.series.planClk', 1],
    ])
    expect(values(series(o)[0])).toEqual([90, 110, null])
    expect(series(o)[1]!.lineStyle).toMatchObject({ type: 'dashed' })
  })

  it('marks the cut-off date and shortens the date labels', () => {
    const o = trendOption(points, '2026-03-02', chartEnv)
    expect((series(o)[0]!.markLine as { data: unknown[] }).data).toEqual([{ xAxis: '2026-03-02' }])
    expect((xAxes(o)[0]!.axisLabel as { formatter: (d: string) => string }).formatter('2026-03-02')).toBe('03-02')
    expect(series(trendOption(points, '2027-01-01', chartEnv))[0]).not.toHaveProperty('markLine')
  })

  it('scrolls long campaigns and draws nothing for no data', () => {
    const long = Array.from({ length: 90 }, (_, i) => point(`2026-01-${i}`, 1, 1))
    expect(zooms(trendOption(long, null, chartEnv))).toHaveLength(2)
    const empty = trendOption([], null, chartEnv)
    expect(xAxes(empty)[0]!.data).toEqual([])
    expect(series(empty).every((s) => values(s).length === 0)).toBe(true)
    expect(zooms(empty)).toEqual([])
  })

  it('says the platform of the actual figures (plans have none) in the subtitle and the actual series', () => {
    const o = trendOption(points, '2026-03-02', chartEnv, { platform: 'PC' })
    expect(titles(o)[0]!.subtext).toBe('reports.chart.trend.subtitle · reports.chart.trend.scope{"platform":"PC"}')
    expect(series(o).map((x) => x.name)).toEqual(['reports.series.actualImp · PC', 'reports.series.planImp', 'reports.series.actualClk · PC', 'reports.series.planClk'])
  })
})
