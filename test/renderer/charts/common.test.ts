// renderer/src/charts/common.ts: the frame every report chart shares
import { describe, expect, it } from 'vitest'
import { CONTAINED, chartLabel, compactNumber, formatNumber, frame, zoom } from '../../../renderer/src/charts/common'
import { chartEnv, grids, titles } from './helpers'

describe('frame', () => {
  it('titles the chart, keeps labels and names inside the grid and formats tooltip values', () => {
    const o = frame('Title', 'Sub', chartEnv)
    expect(titles(o)[0]).toMatchObject({ text: 'Title', subtext: 'Sub' })
    expect(grids(o)[0]).toMatchObject(CONTAINED)
    expect((o.tooltip as { valueFormatter: (v: unknown) => string }).valueFormatter(1234567)).toBe('1,234,567')
    expect(o.backgroundColor).toBe('transparent')
  })

  it('leaves room under the plot for a slider', () => {
    expect(grids(frame('a', '', chartEnv, { dataZoom: true }))[0]!.bottom).toBeGreaterThan(grids(frame('a', '', chartEnv))[0]!.bottom as number)
  })
})

describe('numbers and zoom', () => {
  it('formats full and compact numbers per language', () => {
    expect(formatNumber('en')(null)).toBe('–')
    expect(compactNumber('en')(1_200_000)).toBe('1.2M')
    expect(compactNumber('zh-CN')(1_200_000)).toBe('120万')
  })

  it('zooms only when the categories do not fit', () => {
    expect(zoom(10, 15, 'y')).toEqual([])
    const z = zoom(30, 15, 'x')
    expect(z).toHaveLength(2)
    expect(z[0]).toMatchObject({ type: 'inside', xAxisIndex: 0, start: 0, end: 50 })
  })
})

describe('chartLabel', () => {
  it("names the chart by its drawn title and subtitle, else by the view's name", () => {
    expect(chartLabel(frame('每日趋势', '实际：仅 PC', chartEnv), 'trend')).toBe('每日趋势 · 实际：仅 PC')
    expect(chartLabel(frame('地域', '', chartEnv), 'region')).toBe('地域')
    expect(chartLabel({ title: [{ text: 'A' }] }, 'x')).toBe('A')
    expect(chartLabel(null, '受众概览')).toBe('受众概览')
  })
})
