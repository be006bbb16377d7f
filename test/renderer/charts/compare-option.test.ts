// renderer/src/charts/compare-option.ts: local measurement's series added to a snapshot's chart
import { describe, expect, it } from 'vitest'
import { withLocalSeries } from '../../../renderer/src/charts/compare-option'
import type { ECOption } from '../../../renderer/src/charts/common'

const name = (n: string) => `${n} (local)`
const chart = (imp: number[], plan: number[], over: Partial<ECOption> = {}): ECOption => ({
  legend: { type: 'scroll' },
  xAxis: { type: 'category', data: ['d1', 'd2'] },
  yAxis: [{ type: 'value' }, { type: 'value' }],
  series: [
    { type: 'bar', name: 'Impressions', data: imp, stack: 's', markLine: { data: [{ xAxis: 'd2' }] } },
    { type: 'line', name: 'Plan', data: plan, lineStyle: { type: 'dashed', width: 2 } },
    { type: 'line', name: 'Clicks', yAxisIndex: 1, data: [1, 2] },
  ],
  ...over,
})

describe('withLocalSeries', () => {
  it('adds the local series that differ, renamed, dotted or faded, stacked apart, without mark lines', () => {
    const out = withLocalSeries(chart([10, 20], [5, 5]), chart([11, 19], [5, 5]), name)!
    const series = out.series as Record<string, unknown>[]
    expect(series.map((s) => s.name)).toEqual(['Impressions', 'Plan', 'Clicks', 'Impressions (local)'])
    expect(series[3]).toEqual({ type: 'bar', name: 'Impressions (local)', data: [11, 19], stack: 's|local', itemStyle: { opacity: 0.45 } })
    expect(series[0]!.markLine).toBeDefined()
  })

  it('dots a local line and keeps its other style', () => {
    const out = withLocalSeries(chart([1, 2], [5, 5]), chart([1, 2], [6, 6]), name)!
    expect((out.series as Record<string, unknown>[])[3]).toMatchObject({ name: 'Plan (local)', lineStyle: { type: 'dotted', width: 2 } })
  })

  it('appends the new names to an explicit legend list', () => {
    const out = withLocalSeries(chart([1, 2], [5, 5], { legend: { data: ['Impressions', 'Plan', 'Clicks'] } }), chart([3, 4], [5, 5]), name)!
    expect((out.legend as { data: string[] }).data).toEqual(['Impressions', 'Plan', 'Clicks', 'Impressions (local)'])
  })

  it('gives up when the category axes differ, the legend is hidden, a series is not a line or bar, or there are many', () => {
    expect(withLocalSeries(chart([1, 2], [5, 5]), chart([1, 2], [5, 5], { xAxis: { type: 'category', data: ['d2', 'd1'] } }), name)).toBeNull()
    expect(withLocalSeries(chart([1, 2], [5, 5], { legend: { show: false } }), chart([3, 2], [5, 5]), name)).toBeNull()
    expect(withLocalSeries(chart([1, 2], [5, 5], { series: [{ type: 'pie', name: 'x', data: [] }] as unknown as ECOption['series'] }), chart([3, 2], [5, 5]), name)).toBeNull()
    const many = { series: Array.from({ length: 7 }, (_, i) => ({ type: 'bar' as const, name: `s${i}`, data: [i] })) }
    expect(withLocalSeries(chart([1, 2], [5, 5], many), chart([3, 2], [5, 5], many), name)).toBeNull()
    expect(withLocalSeries(null, chart([3, 2], [5, 5]), name)).toBeNull()
    expect(withLocalSeries(chart([3, 2], [5, 5]), null, name)).toBeNull()
  })
})
