// renderer/src/sync/snapshot-request.ts: the snapshot pull form to sync.snapshots_pull parameters
import { createI18n } from 'vue-i18n'
import { describe, expect, it } from 'vitest'
import { messages } from '../../../renderer/src/i18n'
import { breakdownLabels, breakdownsOf, defaultRange, paramsLabel, rangeFor, snapshotCount, snapshotParams, snapshotProblem, type SnapshotForm } from '../../../renderer/src/sync/snapshot-request'

const form = (over: Partial<SnapshotForm> = {}): SnapshotForm => ({ report: 'basic_show', campaign_id: '12', from: '2025-01-01', to: null, options: {}, ...over })

describe('snapshot request', () => {
  it('offers the breakdowns each report takes, with their defaults', () => {
    expect(breakdownsOf('basic_show').map((b) => b.name)).toEqual(['by_position', 'by_audience', 'by_region', 'platform', 'filtration_type', 'metrics'])
    expect(breakdownsOf('audience_show').map((b) => b.name)).toEqual(['by_position', 'metrics'])
    expect(breakdownsOf('basic_show').find((b) => b.name === 'platform')?.fallback).toBe('pc')
  })

  it('puts campaign and date in params, breakdowns that differ from the default, and to_date for a range', () => {
    expect(snapshotParams('3', form({ to: '2025-01-31', options: { by_position: 'spot', platform: 'pc', metrics: 'all', sdk: 'mm' } as SnapshotForm['options'] })))
      .toEqual({ profile_id: '3', report: 'basic_show', params: 'campaign_id=12&date=2025-01-01&by_position=spot&metrics=all', to_date: '2025-01-31' })
    expect(snapshotParams('3', form({ to: '2025-01-01' }))).not.toHaveProperty('to_date')
  })

  it('drops breakdowns the report does not take', () => {
    expect(snapshotParams('3', form({ report: 'audience_show', options: { platform: 'pm', by_position: 'spot' } })).params).toBe('campaign_id=12&date=2025-01-01&by_position=spot')
  })

  it('says what is missing or refused before sending', () => {
    expect(snapshotProblem(form())).toBeNull()
    expect(snapshotProblem(form({ campaign_id: null }))?.key).toBe('campaign')
    expect(snapshotProblem(form({ from: null }))?.key).toBe('date')
    expect(snapshotProblem(form({ to: '2024-12-31' }))?.key).toBe('order')
    expect(snapshotProblem(form({ to: '2025-04-03' }))?.key).toBe('span')
    expect(snapshotProblem(form({ to: '2025-04-02' }))).toBeNull()
  })

  it('counts one snapshot per date', () => {
    expect(snapshotCount(form())).toBe(1)
    expect(snapshotCount(form({ to: '2025-01-31' }))).toBe(31)
    expect(snapshotCount(form({ from: null }))).toBe(0)
  })

  it('shows stored parameters in words', () => {
    expect(paramsLabel('by_position=spot&metrics=all')).toBe('by_position=spot, metrics=all')
    expect(paramsLabel('')).toBe('')
  })
})

describe('defaultRange', () => {
  it('offers the campaign from its start to its end or today, at most 92 dates', () => {
    expect(defaultRange('2025-01-01', '2025-01-31', '2025-03-01')).toEqual({ from: '2025-01-01', to: '2025-01-31' })
    expect(defaultRange('2025-01-01', '2025-01-31', '2025-01-10')).toEqual({ from: '2025-01-01', to: '2025-01-10' })
    expect(defaultRange('2025-01-01', '2025-12-31', '2025-12-31')).toEqual({ from: '2025-10-01', to: '2025-12-31' })
    expect(snapshotProblem(form({ from: '2025-10-01', to: '2025-12-31' }))).toBeNull()
    expect(defaultRange('2025-02-01', '2025-03-01', '2025-01-10')).toBeNull()
    expect(defaultRange('', '2025-03-01', '2025-01-10')).toBeNull()
  })
})

describe('rangeFor', () => {
  const c = { value: '12', start: '2025-01-01', end: '2025-01-31' }
  it('keeps the dates chosen for the campaign before (a later visit of the page)', () => {
    expect(rangeFor(c, { campaign_id: '12', from: '2025-01-05', to: '2025-01-07' }, '2025-03-01')).toEqual({ from: '2025-01-05', to: '2025-01-07' })
    expect(rangeFor(c, { campaign_id: '12', from: '2025-01-05', to: null }, '2025-03-01')).toEqual({ from: '2025-01-05', to: null })
  })
  it("offers another campaign's own dates, and none without a campaign", () => {
    expect(rangeFor(c, { campaign_id: '13', from: '2025-01-05', to: '2025-01-07' }, '2025-03-01')).toEqual({ from: '2025-01-01', to: '2025-01-31' })
    expect(rangeFor(c, { campaign_id: '12', from: null, to: null }, '2025-01-10')).toEqual({ from: '2025-01-01', to: '2025-01-10' })
    expect(rangeFor(undefined, { campaign_id: '12', from: '2025-01-05', to: null }, '2025-03-01')).toBeNull()
  })
})

describe('breakdownLabels', () => {
  const zh = createI18n({ legacy: false, locale: 'zh', messages: { zh: messages.zh } }).global
  const t = (k: string): string => zh.t(k)
  const has = (k: string): boolean => zh.te(k)

  it("names the breakdown pickers and their values as the report screens do, not by the API's names", () => {
    const position = breakdownLabels('by_position', ['campaign', 'publisher', 'spot'], 'campaign', t, has)
    expect(position.label).toBe(messages.zh.reports.picker.position)
    expect(position.names).toEqual({ campaign: '活动 (默认)', publisher: '媒体', spot: '广告位' })
    expect(breakdownLabels('by_region', ['level0', 'level1'], 'level0', t, has).label).toBe('地域级别')
    expect(breakdownLabels('filtration_type', ['net', 'totalnet'], 'net', t, has).names.totalnet).toBe(messages.zh.reports.filtration.totalnet)
    expect(breakdownLabels('by_audience', ['overall'], 'overall', t, has).label).toBe('受众')
  })

  it('keeps the API code of a value the screens do not name', () => {
    const metrics = breakdownLabels('metrics', ['acc_hrs', 'day'], 'acc_hrs', t, has)
    expect(metrics.names).toEqual({ acc_hrs: 'acc_hrs (默认)', day: messages.zh.reports.period.day })
  })
})
