// renderer/src/charts/audience-option.ts
import { describe, expect, it } from 'vitest'
import { audienceOption, MAX_POSITIONS, overviewOption } from '../../../renderer/src/charts/audience-option'
import { WARN_COLOR } from '../../../renderer/src/charts/common'
import { chartEnv, grids, series, titles, values, xAxes, yAxes, zooms } from './helpers'

describe('audienceOption', () => {
  const one = [{ key: 'a', label: '', pct: [55, 45], idx: [110, 90] }]

  it('shows composition (%) and index side by side with a line at 100', () => {
    const o = audienceOption(one, ['Gender · Male', 'Gender · Female'], 'uim', chartEnv)
    expect(grids(o)).toHaveLength(2)
    expect(titles(o).map((x) => x.text)).toEqual(['reports.chart.audience.title', 'reports.chart.audience.pct', 'reports.chart.audience.idx'])
    expect(titles(o)[0]!.subtext).toBe('reports.chart.audience.uim')
    expect(yAxes(o).map((a) => a.data)).toEqual([['Gender · Male', 'Gender · Female'], ['Gender · Male', 'Gender · Female']])
    expect(xAxes(o).map((a) => a.name)).toEqual(['%', 'reports.unit.index'])
    expect(series(o).map((s) => [s.name, s.xAxisIndex, values(s)])).toEqual([['reports.position.campaign', 0, [55, 45]], ['reports.position.campaign', 1, [110, 90]]])
    expect((series(o)[1]!.markLine as { data: unknown[] }).data).toEqual([{ xAxis: 100 }])
  })

  it('caps the positions drawn, scrolls many tags and is empty without data', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ key: `${i}`, label: `s${i}`, pct: [1], idx: [1] }))
    expect(series(audienceOption(many, ['t'], 'ucl', chartEnv))).toHaveLength(2 * MAX_POSITIONS)
    const tags = Array.from({ length: 30 }, (_, i) => `tag${i}`)
    expect(zooms(audienceOption(one, tags, 'uim', chartEnv))[0]).toMatchObject({ yAxisIndex: [0, 1] })
    expect(series(audienceOption([], [], 'uim', chartEnv))).toEqual([])
  })
})

describe('small panel bases', () => {
  const faded = (value: number) => ({ value, itemStyle: { color: WARN_COLOR, opacity: 0.45 } })

  it('fades the composition bars of tags resting on fewer than 300 persons and marks their tooltips', () => {
    const o = audienceOption([{ key: 'a', label: 'Spot', pct: [55, 45], idx: [110, 90], small: [true, false] }], ['Male', 'Female'], 'ucl', chartEnv)
    const [pct, idx] = series(o)
    expect(pct!.data).toEqual([faded(55), 45])
    expect(idx!.data).toEqual([faded(110), 90])
    const format = (s: typeof pct) => (s!.tooltip as { valueFormatter: (v: unknown, i: number) => string }).valueFormatter
    expect([format(pct)(55, 0), format(pct)(45, 1), format(idx)(90, 1)]).toEqual(['55% ⚠ reports.warn.short', '45%', '90'])
  })

  it('fades an overview bar whose sample is small, reached and clicking apart', () => {
    const o = overviewOption([{ label: 'Campaign', uim: 62698694, ucl: 869891, uimSample: 1112, uclSample: 15 }], chartEnv)
    expect(series(o).map((s) => s.data)).toEqual([[62698694], [faded(869891)]])
  })
})

describe('overviewOption', () => {
  it('puts persons reached and persons who clicked on one labelled scale, values on the bars', () => {
    const o = overviewOption([{ label: 'Campaign', uim: 62698694, ucl: 869891, uimSample: 1112, uclSample: 15 }], chartEnv)
    expect(grids(o)).toHaveLength(1)
    expect(xAxes(o)).toHaveLength(1)
    expect((xAxes(o)[0]!.axisLabel as { show?: boolean }).show).not.toBe(false)
    expect((xAxes(o)[0]!.axisLabel as { formatter: (v: number) => string }).formatter(62698694)).toBe('62.7M')
    expect(series(o).map((s) => [s.name, s.xAxisIndex ?? 0, values(s)])).toEqual([['reports.measure.uim', 0, [62698694]], ['reports.measure.ucl', 0, [869891]]])
    const label = series(o)[0]!.label as { formatter: (p: { value: unknown }) => string }
    expect(label.formatter({ value: 62698694 })).toBe('62,698,694')
    expect(series(overviewOption([], chartEnv)).every((s) => values(s).length === 0)).toBe(true)
  })
})
