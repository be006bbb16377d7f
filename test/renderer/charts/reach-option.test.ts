// renderer/src/charts/reach-option.ts
import { describe, expect, it } from 'vitest'
import { MAX_CURVES, reachOption, reachTooltip } from '../../../renderer/src/charts/reach-option'
import { WARN_COLOR } from '../../../renderer/src/charts/common'
import type { ReachCurve } from '../../../renderer/src/reports/rows-panel'
import { chartEnv, series, titles, values, xAxes, yAxes } from './helpers'

const curve = (label: string, samples: number[]): ReachCurve => ({
  key: label, label, universe: 1000, grp: 120, imp: 1200, reach: samples.map((_, i) => 500 - i * 40), sample: samples,
})
const big = Array.from({ length: 10 }, () => 900)

describe('reachOption', () => {
  it('draws 1+ to 10+ with GRP and universe in the subtitle for one curve', () => {
    const o = reachOption([curve('Global', big)], chartEnv)
    expect(xAxes(o)[0]!.data).toEqual(['1+', '2+', '3+', '4+', '5+', '6+', '7+', '8+', '9+', '10+'])
    expect(xAxes(o)[0]!.name).toBe('reports.unit.frequency')
    expect(yAxes(o)[0]!.name).toBe('reports.unit.persons')
    expect(titles(o)[0]!.subtext).toBe('reports.chart.reach.one{"grp":"120","universe":"1,000","imp":"1,200"}')
    expect(series(o)[0]).toMatchObject({ type: 'line', name: 'Global' })
    expect(values(series(o)[0])[0]).toBe(500)
  })

  it('marks points on small samples as warning triangles', () => {
    const o = reachOption([curve('T', [900, 400, 299, 10, 0, 0, 0, 0, 0, 0])], chartEnv)
    const data = series(o)[0]!.data as Record<string, unknown>[]
    expect(data[1]).toEqual({ value: 460 })
    expect(data[2]).toMatchObject({ value: 420, symbol: 'emptyTriangle', itemStyle: { color: WARN_COLOR } })
  })

  it('names several curves with their GRP and draws at most eight', () => {
    const many = Array.from({ length: 10 }, (_, i) => curve(`c${i}`, big))
    const o = reachOption(many, chartEnv)
    expect(series(o)).toHaveLength(MAX_CURVES)
    expect(series(o)[0]!.name).toBe('c0 · GRP 120')
    expect(titles(o)[0]!.subtext).toBe('reports.chart.reach.subtitle')
  })

  it('is empty without data', () => {
    expect(series(reachOption([], chartEnv))).toEqual([])
  })
})

describe('reachTooltip', () => {
  it('gives reach, share of the universe and the sample, flagging small samples', () => {
    const tip = reachTooltip([curve('T', [900, 100, 0, 0, 0, 0, 0, 0, 0, 0])], chartEnv)
    expect(tip([{ seriesIndex: 0, dataIndex: 0, marker: '' }])).toBe('1+<br/>T: 500 (50.0%) · reports.measure.sample 900')
    expect(tip([{ seriesIndex: 0, dataIndex: 1, marker: '' }])).toContain('⚠ reports.warn.short')
  })

  it('writes a name as text: a placement named as HTML is not markup (the tooltip is HTML)', () => {
    const tip = reachTooltip([curve('<img src=x onerror=alert(1)> & co', big)], chartEnv)
    expect(tip([{ seriesIndex: 0, dataIndex: 0, marker: '' }])).toBe('1+<br/>&lt;img src=x onerror=alert(1)&gt; &amp; co: 500 (50.0%) · reports.measure.sample 900')
  })
})
