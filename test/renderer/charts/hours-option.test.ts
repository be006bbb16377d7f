// renderer/src/charts/hours-option.ts
import { describe, expect, it } from 'vitest'
import { hoursOption } from '../../../renderer/src/charts/hours-option'
import type { HourSeries } from '../../../renderer/src/reports/rows-census'
import { names } from '../reports/fixtures'
import { chartEnv, series, titles, values, xAxes, yAxes } from './helpers'

const s = (group: string, base: number): HourSeries => ({ group, imp: Array.from({ length: 24 }, (_, h) => base + h), clk: Array.from({ length: 24 }, () => 1), impTotal: null, clkTotal: null })

describe('hoursOption', () => {
  it('puts 24 hours on the axis, impressions as bars and clicks as a line on the right axis', () => {
    const o = hoursOption([s('', 10)], 'hours', names, chartEnv)
    expect(titles(o)[0]).toMatchObject({ text: 'reports.chart.hours.title', subtext: 'reports.chart.hours.subtitle' })
    expect(xAxes(o)[0]!.data).toHaveLength(24)
    expect((xAxes(o)[0]!.data as string[])[7]).toBe('07:00')
    expect(xAxes(o)[0]!.name).toBe('reports.unit.hour')
    expect(yAxes(o)).toHaveLength(2)
    expect(series(o).map((x) => [x.type, x.name, x.yAxisIndex ?? 0])).toEqual([['bar', 'reports.measure.imp', 0], ['line', 'reports.measure.clk', 1]])
    expect(values(series(o)[0])[23]).toBe(33)
  })

  it('names series by target and takes the realtime title with its subtitle', () => {
    const o = hoursOption([s('4', 0), s('9', 0)], 'realtime', names, chartEnv, 'today')
    expect(titles(o)[0]).toMatchObject({ text: 'reports.chart.realtime.title', subtext: 'today' })
    expect(series(o).map((x) => x.name)).toEqual(['reports.measure.imp · Women', 'reports.measure.clk · Women', 'reports.measure.imp · 9', 'reports.measure.clk · 9'])
  })

  it('names projected (target) figures as projected in the axis and series names', () => {
    const o = hoursOption([s('4', 0)], 'hours', names, chartEnv, undefined, 'projected')
    expect(yAxes(o).map((a) => a.name)).toEqual(['reports.qualified.projected{"what":"reports.unit.impressions"}', 'reports.qualified.projected{"what":"reports.unit.clicks"}'])
    expect(series(o)[0]!.name).toBe('reports.qualified.projected{"what":"reports.measure.imp"} · Women')
  })

  it('has no series without data', () => {
    expect(series(hoursOption([], 'hours', names, chartEnv))).toEqual([])
  })
})
