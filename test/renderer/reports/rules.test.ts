// renderer/src/reports/rules.ts: the pickers' validity is the engine's own report-rules, not a copy
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../engine/contract/errors'
import { checkBasicShow } from '../../../engine/contract/report-rules'
import { allowedValues, choicesOf, decoded, defaultOf, dependentProblem, problemOf, takes } from '../../../renderer/src/reports/rules'

describe('allowedValues', () => {
  it('reads each report enumeration from the endpoint table', () => {
    expect(allowedValues('reports.basic_show', 'by_position')).toEqual(['campaign', 'publisher', 'spot', 'keyword'])
    expect(allowedValues('reports.reach_show', 'by_position')).toEqual(['campaign', 'publisher', 'spot'])
    expect(allowedValues('reports.basic_show_minisite', 'by_region')).toEqual(['level0', 'level1', 'level2', 'level3'])
    expect(allowedValues('reports.basic_show', 'metrics')).toEqual(['acc', 'day', 'avg_day', 'acc_hrs', 'all'])
    expect(allowedValues('reports.basic_show', 'campaign_id')).toEqual([])
  })

  it('knows the defaults and which parameters an endpoint takes', () => {
    expect(defaultOf('reports.reach_show', 'metrics')).toBe('all')
    expect(defaultOf('reports.basic_show', 'platform')).toBe('pc')
    expect(takes('reports.basic_show', 'keyword_id')).toBe(true)
    expect(takes('reports.realtime_show', 'by_audience')).toBe(false)
    expect(decoded('reports.basic_show', { by_position: 'spot' })).toMatchObject({ by_position: 'spot', by_audience: 'overall', with_null: false })
    // (sdk has no default: given, even as all, it must be valid where it is sent)
    expect(decoded('reports.basic_show', { by_position: 'spot' }).sdk).toBeUndefined()
  })
})

describe('problemOf', () => {
  it('gives the engine message naming the parameter for a refused combination', () => {
    expect(problemOf('reports.basic_show', { metrics: 'day', by_audience: 'target' })).toMatch(/'metrics'/)
    expect(problemOf('reports.basic_show', { spot_id: ['1'] })).toMatch(/'spot_id' is valid only when by_position is spot or keyword/)
    expect(problemOf('reports.basic_show', { sdk: 'mm', platform: 'pc' })).toMatch(/'sdk'/)
    expect(problemOf('reports.realtime_show', { by_position: 'publisher', spot_id: ['1'] })).toMatch(/'spot_id'/)
    expect(problemOf('reports.basic_show_minisite', { campaign_id: ['7'] })).toMatch(/'campaign_id'/)
    expect(problemOf('reports.audience_show', { publisher_id: ['1'] })).toMatch(/'publisher_id'/)
  })

  it('accepts valid combinations', () => {
    expect(problemOf('reports.basic_show', { by_position: 'keyword', keyword_id: ['5'], spot_id: ['2'], publisher_id: ['11'] })).toBeNull()
    expect(problemOf('reports.basic_show', { platform: 'mb', metrics: 'acc', by_position: 'publisher', sdk: 'mz' })).toBeNull()
    expect(problemOf('reports.reach_show', { by_audience: 'target', target_id: ['4'] })).toBeNull()
  })

  it('agrees with checkBasicShow over every combination of the enumerations', () => {
    const values = (n: string) => allowedValues('reports.basic_show', n)
    let checked = 0
    for (const by_position of values('by_position')) for (const by_audience of values('by_audience')) for (const metrics of values('metrics'))
      for (const platform of values('platform')) for (const sdk of values('sdk')) for (const ids of [{}, { spot_id: ['1'] }, { target_id: ['1'] }]) {
        const p = { by_position, by_audience, metrics, platform, sdk, ...ids }
        let engine: string | null = null
        try { checkBasicShow(decoded('reports.basic_show', p)) } catch (e) { engine = (e as ApiError).message }
        expect(problemOf('reports.basic_show', p)).toBe(engine)
        checked++
      }
    expect(checked).toBe(4 * 3 * 5 * 3 * 3 * 3)
  })
})

describe('choicesOf', () => {
  it('disables the target audience with the API reason when day figures are asked', () => {
    const c = choicesOf('reports.basic_show', 'by_audience', { metrics: 'day' })
    expect(c.map((x) => [x.value, x.disabled])).toEqual([['overall', false], ['stable', false], ['target', true]])
    expect(c[2]!.reason).toMatch(/'day' is not valid when by_audience=target/)
  })

  it('disables day metrics for a target audience', () => {
    const c = choicesOf('reports.basic_show', 'metrics', { by_audience: 'target' })
    expect(c.filter((x) => x.disabled).map((x) => x.value)).toEqual(['day'])
  })
})

describe('dependentProblem', () => {
  it('says why an id list cannot be sent, and nothing when it can or is not a parameter', () => {
    expect(dependentProblem('reports.reach_show', 'spot_id', { by_position: 'publisher' })).toMatch(/by_position=spot/)
    expect(dependentProblem('reports.reach_show', 'spot_id', { by_position: 'spot' })).toBeNull()
    expect(dependentProblem('reports.realtime_show', 'target_id', {})).toBeNull()
    expect(dependentProblem('reports.basic_show', 'sdk', { platform: 'mb', metrics: 'day' }, 'mm')).toMatch(/'sdk'/)
  })
})
