// renderer/src/reports/params.ts: pickers -> the requests each view sends
import { describe, expect, it } from 'vitest'
import { buildView, dependentReason, pickerApplies, topChoices, toWire } from '../../../renderer/src/reports/params'
import { defaultPickers, type Pickers } from '../../../renderer/src/reports/pickers'
import { env } from './fixtures'

const pick = (over: Partial<Pickers> = {}): Pickers => ({ ...defaultPickers(), ...over })

describe('buildView', () => {
  it('asks the trend for day figures on the cut-off date with the picked dimensions', () => {
    const [r] = buildView(pick({ platform: 'pm', filtration_type: 'totalnet' }), 'trend', env)
    expect(r).toMatchObject({ id: 'reports.basic_show', problem: null, notes: [] })
    expect(r!.params).toEqual({ by_position: 'campaign', by_audience: 'overall', by_region: 'level0', platform: 'pm', filtration_type: 'totalnet', metrics: 'day', date: '2026-03-05', campaign_id: '7' })
  })

  it('sends position ids only where the API accepts them', () => {
    const p = pick({ publisher_id: ['10'], spot_id: ['1', '2'], keyword_id: ['5'] })
    expect(buildView({ ...p, by_position: 'campaign' }, 'hours', env)[0]!.params).not.toHaveProperty('publisher_id')
    const pub = buildView({ ...p, by_position: 'publisher' }, 'hours', env)[0]!.params
    expect(pub.publisher_id).toEqual(['10'])
    expect(pub).not.toHaveProperty('spot_id')
    const kw = buildView({ ...p, by_position: 'keyword' }, 'hours', env)[0]!.params
    expect([kw.publisher_id, kw.spot_id, kw.keyword_id]).toEqual([['10'], ['1', '2'], ['5']])
  })

  it('reports the API refusal of a target audience on the day trend and keeps the target for hours', () => {
    const p = pick({ by_audience: 'target', target_id: '4' })
    expect(buildView(p, 'trend', env)[0]!.problem).toMatch(/'metrics'/)
    const hours = buildView(p, 'hours', env)[0]!
    expect(hours.problem).toBeNull()
    expect(hours.params.target_id).toEqual(['4'])
  })

  it('falls back to the default position with a note where the report has no keyword rows', () => {
    const [r] = buildView(pick({ by_position: 'keyword', keyword_id: ['5'] }), 'reach', env)
    expect(r!.params.by_position).toBe('campaign')
    expect(r!.params).not.toHaveProperty('keyword_id')
    expect(r!.notes).toEqual([{ key: 'notOffered', params: { name: 'by_position', value: 'keyword', used: 'campaign' } }])
  })

  it('sends sdk only on the mobile platform with metrics the rule allows', () => {
    expect(buildView(pick({ sdk: 'mm', platform: 'mb' }), 'trend', env)[0]!.params).not.toHaveProperty('sdk')
    expect(buildView(pick({ sdk: 'mm', platform: 'pc', metrics: 'acc' }), 'region', env)[0]!.params).not.toHaveProperty('sdk')
    expect(buildView(pick({ sdk: 'mm', platform: 'mb', metrics: 'acc' }), 'region', env)[0]!.params.sdk).toBe('mm')
  })

  it('ranks regions on its own level and period, never a single region', () => {
    const r = buildView(pick({ rank_level: 'level2', metrics: 'avg_day', by_region: 'level1', region_id: 'x' }), 'region', env)[0]!
    expect(r.params).toMatchObject({ by_region: 'level2', metrics: 'avg_day' })
    expect(r.params).not.toHaveProperty('region_id')
  })

  it('uses the engine today for realtime and the cut-off date otherwise', () => {
    expect(buildView(pick(), 'realtime', env)[0]!.params).toMatchObject({ date: '2026-03-06', metrics: 'all', campaign_id: '7' })
    expect(buildView(pick(), 'reach', env)[0]!.params).toMatchObject({ date: '2026-03-05', metrics: 'all' })
  })

  it('asks both audience reports for the panel and tag types', () => {
    const [overview, show] = buildView(pick({ panel_id: 'p1', type_id: ['age'], by_position: 'spot', spot_id: ['2'] }), 'audience', env)
    expect(overview!.params).toMatchObject({ panel_id: ['p1'], by_position: 'spot', spot_id: ['2'], metrics: 'all' })
    expect(overview!.params).not.toHaveProperty('type_id')
    expect(show!.params).toMatchObject({ panel_id: ['p1'], type_id: ['age'] })
  })

  it('scopes minisite reports to this campaign', () => {
    const [basic, realtime] = buildView(pick({ by_region: 'level1' }), 'minisite', env)
    expect(basic!.params).toMatchObject({ minisite_id: '3', by_position: 'campaign', campaign_id: ['7'], by_region: 'level1', metrics: 'all', date: '2026-03-05' })
    expect(realtime!.params).toMatchObject({ minisite_id: '3', by_position: 'campaign', campaign_id: ['7'], metrics: 'all', date: '2026-03-06' })
    expect(realtime!.params).not.toHaveProperty('by_region')
    expect(buildView(pick({ by_position: 'keyword' }), 'minisite', env)[0]!.notes[0]).toMatchObject({ params: { used: 'campaign' } })
  })
})

describe('topChoices and dependentReason', () => {
  it('disables the target audience on the trend with the API reason', () => {
    const c = topChoices(pick(), 'trend', 'by_audience', env)
    expect(c.find((x) => x.value === 'target')).toMatchObject({ disabled: true })
    expect(topChoices(pick(), 'hours', 'by_audience', env).every((x) => !x.disabled)).toBe(true)
  })

  it('offers only the positions of the view report', () => {
    expect(topChoices(pick(), 'realtime', 'by_position', env).map((c) => c.value)).toEqual(['campaign', 'publisher', 'spot'])
  })

  it('says why the spot picker is off for a campaign position, and nothing for a spot position', () => {
    expect(dependentReason(pick(), 'trend', 'spot_id', env)).toMatch(/'spot_id'/)
    expect(dependentReason(pick({ by_position: 'spot' }), 'trend', 'spot_id', env)).toBeNull()
    expect(dependentReason(pick(), 'hours', 'target_id', env)).toMatch(/by_audience=target/)
    expect(dependentReason(pick({ platform: 'mb' }), 'hours', 'sdk', env)).toMatch(/'sdk'/)
  })
})

describe('pickerApplies', () => {
  it('shows each view only the pickers its reports take', () => {
    expect(pickerApplies('trend', 'keyword_id')).toBe(true)
    expect(pickerApplies('reach', 'keyword_id')).toBe(false)
    expect(pickerApplies('realtime', 'by_audience')).toBe(false)
    expect(pickerApplies('realtime', 'platform')).toBe(true)
    expect(pickerApplies('region', 'by_region')).toBe(false)
    expect(pickerApplies('reach', 'sdk')).toBe(false)
    expect(pickerApplies('audience', 'filtration_type')).toBe(false)
    expect(pickerApplies('minisite', 'target_id')).toBe(true)
  })
})

describe('toWire', () => {
  it('joins lists with commas and drops missing values', () => {
    expect(toWire({ spot_id: ['1', '2'], date: '2026-03-05', x: undefined, n: 3 })).toEqual({ spot_id: '1,2', date: '2026-03-05', n: 3 })
  })
})
