// renderer/src/reports/trend-today.ts: today's point of the daily trend from realtime, marked partial
import { describe, expect, it } from 'vitest'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { trendPoints, trendTable, type TrendPoint } from '../../../renderer/src/reports/rows-census'
import { flagPartial, todayRequest, withToday } from '../../../renderer/src/reports/trend-today'

const scope = { start: '2026-03-01', end: '2026-03-31', cutoff: '2026-03-09', today: '2026-03-10' }
const base = { campaign_id: '7', by_position: 'campaign', by_audience: 'overall', by_region: 'level0', platform: 'pm', filtration_type: 'net' }
const GLOBAL = '000000000000000000000000'
const item = (spot: string, imp: number, clk: number, region = GLOBAL): ReportItem => ({ attributes: { spot_id: spot, region_id: region, audience: 'overall' }, metrics: { imp_day: imp, clk_day: clk } }) as unknown as ReportItem

describe('todayRequest', () => {
  it("asks realtime's day figures of today for the trend's position and platform", () => {
    expect(todayRequest({ ...base, by_position: 'spot', spot_id: ['3', '4'] }, scope)).toEqual({ campaign_id: '7', date: '2026-03-10', metrics: 'day', by_position: 'spot', platform: 'pm', spot_id: '3,4' })
  })

  it('shows no today when the trend stops earlier, today is outside the campaign, or realtime has no such rows', () => {
    expect(todayRequest(base, { ...scope, cutoff: '2026-03-05' })).toBeNull()
    expect(todayRequest(base, { ...scope, end: '2026-03-09' })).toBeNull()
    expect(todayRequest(base, { ...scope, start: '2026-03-11' })).toBeNull()
    expect(todayRequest({ ...base, by_position: 'keyword' }, scope)).toBeNull()
    expect(todayRequest({ ...base, by_audience: 'stable' }, scope)).toBeNull()
    expect(todayRequest({ ...base, by_region: 'level1' }, scope)).toBeNull()
    expect(todayRequest({ ...base, region_id: ['1'] }, scope)).toBeNull()
  })
})

describe('withToday', () => {
  const points: TrendPoint[] = trendPoints(['2026-03-09', '2026-03-10'], new Map([['2026-03-10', { imp: 100, clk: 2 }]]), new Map([['2026-03-09', [item('1', 50, 1)]]]), { byRegion: 'level0', regionChosen: false })

  it("puts today's impressions and clicks so far (the spots added up, global rows only) in today's point, partial, uniques left out", () => {
    const out = withToday(points, '2026-03-10', [item('1', 30, 1), item('2', 12, 0), item('2', 99, 9, '100000000000000000000000')])
    expect(out[1]).toEqual({ date: '2026-03-10', plan_imp: 100, plan_clk: 2, imp_day: 42, clk_day: 1, uim_day: null, ucl_day: null, partial: true })
    expect(out[0]!.partial).toBeUndefined()
  })

  it('leaves the points as they are without an answer, and flags the partial row of the table with the reason', () => {
    expect(withToday(points, '2026-03-10', null)).toEqual(points)
    const out = withToday(points, '2026-03-10', [item('1', 30, 1)])
    const table = flagPartial(trendTable(out, (k) => k), out, 'partial')
    expect(table.rows.map((r) => r.warn ?? null)).toEqual([null, { imp_day: 'partial', clk_day: 'partial' }])
    expect(table.rows[1]!.cells).not.toHaveProperty('partial')
  })
})
