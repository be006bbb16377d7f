// renderer/src/charts/region-option.ts
import { describe, expect, it } from 'vitest'
import { WARN_COLOR } from '../../../renderer/src/charts/common'
import { regionOption } from '../../../renderer/src/charts/region-option'
import type { RegionRank } from '../../../renderer/src/reports/rows-census'
import { BEIJING, SHANGHAI, names } from '../reports/fixtures'
import { chartEnv, series, titles, values, xAxes, yAxes, zooms } from './helpers'

const rank = (region_id: string, imp: number, group = ''): RegionRank => ({ region_id, group, universe: 1, values: { imp_acc: imp } })

describe('regionOption', () => {
  it('ranks regions top down as horizontal bars with names, units and value labels', () => {
    const o = regionOption([rank(SHANGHAI, 30), rank(BEIJING, 20)], 'imp_acc', names, chartEnv, 'Provinces')
    expect(titles(o)[0]).toMatchObject({ text: 'reports.chart.region.title{"measure":"reports.measure.imp"}', subtext: 'Provinces' })
    expect(yAxes(o)[0]).toMatchObject({ type: 'category', inverse: true, data: ['Shanghai', 'Beijing'] })
    expect((yAxes(o)[0]!.axisLabel as { overflow: string }).overflow).toBe('truncate')
    expect(xAxes(o)[0]!.name).toBe('reports.unit.imp')
    expect(values(series(o)[0])).toEqual([30, 20])
    expect((series(o)[0]!.label as { show: boolean }).show).toBe(true)
  })

  it('draws a bar per target in the order of the first', () => {
    const o = regionOption([rank(SHANGHAI, 30, '4'), rank(BEIJING, 20, '4'), rank(BEIJING, 5, '9')], 'imp_acc', names, chartEnv, '')
    expect(series(o).map((s) => [s.name, values(s)])).toEqual([['Women', [30, 20]], ['9', [null, 5]]])
  })

  it("fades a target's unique figure resting on fewer than 300 panel persons, and only a unique one", () => {
    const based = (region_id: string, uim: number, base: number): RegionRank => ({ region_id, group: '4', universe: 1, values: { uim_acc: uim, imp_acc: uim * 3 }, base: { uim: base, ucl: base } })
    const ranks = [based(SHANGHAI, 900, 299), based(BEIJING, 800, 300)]
    const data = series(regionOption(ranks, 'uim_acc', names, chartEnv, ''))[0]!.data as unknown[]
    expect(data).toEqual([{ value: 900, itemStyle: { color: WARN_COLOR, opacity: 0.45 } }, 800])
    expect(series(regionOption(ranks, 'imp_acc', names, chartEnv, ''))[0]!.data).toEqual([2700, 2400])
  })

  it('scrolls long rankings and is empty without data', () => {
    const many = Array.from({ length: 40 }, (_, i) => rank(`r${i}`, 100 - i))
    expect(zooms(regionOption(many, 'imp_acc', names, chartEnv, ''))[1]).toMatchObject({ type: 'slider', yAxisIndex: 0 })
    const empty = regionOption([], 'imp_acc', names, chartEnv, '')
    expect(series(empty)).toEqual([])
    expect(yAxes(empty)[0]!.data).toEqual([])
  })
})
