// renderer/src/charts/minisite-option.ts
import { describe, expect, it } from 'vitest'
import { minisiteHoursOption, minisiteOption } from '../../../renderer/src/charts/minisite-option'
import { names } from '../reports/fixtures'
import { chartEnv, grids, series, titles, values, xAxes } from './helpers'

describe('minisiteOption', () => {
  const figures = [
    { event_id: '1', group: '', values: { evt_acc: 10, uev_acc: 9, evt_day: 2, uev_day: 1 } },
    { event_id: '2', group: '4', values: { evt_acc: 4, uev_acc: 4, evt_day: 0, uev_day: 0 } },
  ]

  it('shows accumulated and day figures per event side by side', () => {
    const o = minisiteOption(figures, names, chartEnv, 'Site · 2026-03-05')
    expect(titles(o)[0]).toMatchObject({ text: 'reports.chart.minisite.title', subtext: 'Site · 2026-03-05' })
    expect(grids(o)).toHaveLength(2)
    expect(xAxes(o)[0]!.data).toEqual(['home', 'buy · Women'])
    expect(series(o).map((s) => [s.name, s.xAxisIndex, values(s)])).toEqual([
      ['reports.measure.evt', 0, [10, 4]], ['reports.measure.uev', 0, [9, 4]], ['reports.measure.evt', 1, [2, 0]], ['reports.measure.uev', 1, [1, 0]],
    ])
  })

  it('is empty without events', () => {
    expect(series(minisiteOption([], names, chartEnv, '')).every((s) => values(s).length === 0)).toBe(true)
  })
})

describe('minisiteHoursOption', () => {
  it('draws a line per event over 24 hours', () => {
    const o = minisiteHoursOption([{ event_id: '1', hours: Array.from({ length: 24 }, () => 1), total: 24 }], names, chartEnv, 'today')
    expect(xAxes(o)[0]!.data).toHaveLength(24)
    expect(series(o)).toEqual([expect.objectContaining({ type: 'line', name: 'home' })])
    expect(series(minisiteHoursOption([], names, chartEnv, ''))).toEqual([])
  })
})
