// renderer/src/reports/snapshot-source.ts: report snapshots as the source of the reports screen
import { describe, expect, it, vi } from 'vitest'
import type { Caller } from '../../../renderer/src/reports/load'
import { findSnapshot, laterServed, normalParams, NoSnapshotError, readSource, seriesOptions, snapshotCaller, snapshotReportOf, sourceValue, type Snapshot } from '../../../renderer/src/reports/snapshot-source'

const snap = (id: number, over: Partial<Snapshot> = {}): Snapshot => ({
  snapshot_id: String(id), profile_id: '1', report: 'basic_show', campaign_id: '12', date: '2025-01-20', params: '',
  fetched_at: `2025-01-21T0${id % 10}:00:00.000Z`, version: 'v1', progress_date: '2025-01-19', items: 3, previous_id: '', changed: false, ...over,
})

describe('snapshotReportOf and normalParams', () => {
  it('names the snapshot reports only', () => {
    expect(snapshotReportOf('reports.basic_show')).toBe('basic_show')
    expect(snapshotReportOf('reports.audience_show_overview')).toBe('audience_show_overview')
    expect(snapshotReportOf('reports.basic_show_minisite')).toBeNull()
    expect(snapshotReportOf('campaigns.show')).toBeNull()
  })

  it('leaves out campaign id, date, empty values and defaults, and sorts', () => {
    expect(normalParams('basic_show', { campaign_id: '12', date: '2025-01-20', platform: 'pm', by_position: 'spot', metrics: 'acc', filtration_type: 'net', with_null: false, spot_id: '' }))
      .toBe('by_position=spot&platform=pm')
    expect(normalParams('basic_show', { metrics: 'all', with_null: true, platform: 'pc' })).toBe('metrics=all&with_null=1')
  })
})

describe('findSnapshot', () => {
  const series = [
    snap(1, { params: 'by_position=spot&platform=pm' }),
    snap(3, { params: 'by_position=spot&platform=pm' }),
    snap(2, { params: 'platform=pm' }),
    snap(4, { params: 'by_position=spot&platform=pm', date: '2025-01-21' }),
    snap(5, { report: 'reach_show', params: 'by_position=spot&platform=pm' }),
  ]

  it('takes the newest of the same report, date and parameters', () => {
    expect(findSnapshot(series, 'basic_show', '2025-01-20', { platform: 'pm', by_position: 'spot', metrics: 'acc' })?.snapshot_id).toBe('3')
    expect(findSnapshot(series, 'basic_show', '2025-01-20', { platform: 'pm' })?.snapshot_id).toBe('2')
    expect(findSnapshot(series, 'basic_show', '2025-01-21', { platform: 'pm', by_position: 'spot' })?.snapshot_id).toBe('4')
    expect(findSnapshot(series, 'reach_show', '2025-01-20', { platform: 'pm', by_position: 'spot' })?.snapshot_id).toBe('5')
  })

  it('finds nothing for another date or other parameters', () => {
    expect(findSnapshot(series, 'basic_show', '2025-01-22', { platform: 'pm' })).toBeNull()
    expect(findSnapshot(series, 'basic_show', '2025-01-20', { platform: 'mb' })).toBeNull()
    expect(findSnapshot(series, 'realtime_show', '2025-01-20', { platform: 'pm' })).toBeNull()
  })
})

describe('seriesOptions and the source value', () => {
  it('groups by campaign id, the screen own id first', () => {
    const options = seriesOptions('1', [snap(1, { campaign_id: '9' }), snap(2, { campaign_id: '12' }), snap(3, { campaign_id: '9' }), snap(4, { campaign_id: '7' })], '12')
    expect(options.map((o) => [o.campaign_id, o.count, o.sameId])).toEqual([['12', 1, true], ['7', 1, false], ['9', 2, false]])
    expect(options[2]!.newest).toBe('2025-01-21T03:00:00.000Z')
  })

  it('writes and reads the picker value', () => {
    expect(sourceValue({ kind: 'local' })).toBe('local')
    expect(readSource(sourceValue({ kind: 'snapshot', profile_id: '2', campaign_id: '12' }))).toEqual({ kind: 'snapshot', profile_id: '2', campaign_id: '12' })
    expect(readSource('nonsense')).toEqual({ kind: 'local' })
    expect(readSource(undefined)).toEqual({ kind: 'local' })
  })
})

describe('snapshotCaller', () => {
  const series = [snap(1, { params: 'platform=pm' })]
  const base = vi.fn(async () => ({ base: true })) as unknown as Caller
  const served: Snapshot[] = []
  const call = snapshotCaller(base, {
    series, body: async (s) => ({ from: s.snapshot_id }), served: (s) => served.push(s), missing: (r, d) => `no ${r} ${d}`,
  })

  it('answers a report from its snapshot and says which', async () => {
    await expect(call('reports.basic_show', { campaign_id: '5', date: '2025-01-20', platform: 'pm' })).resolves.toEqual({ from: '1' })
    expect(served.map((s) => s.snapshot_id)).toEqual(['1'])
  })

  it('refuses a report without a snapshot, with the message', async () => {
    await expect(call('reports.basic_show', { date: '2025-01-23', platform: 'pm' })).rejects.toThrow('no basic_show 2025-01-23')
    await expect(call('reports.basic_show_minisite', { date: '2025-01-20' })).rejects.toBeInstanceOf(NoSnapshotError)
  })

  it("answers a range of days from each day's metrics=day snapshot, and refuses it naming the first day without one", async () => {
    const days = snapshotCaller(base, {
      series: [snap(7, { date: '2025-01-20', params: 'metrics=day&platform=pm' }), snap(8, { date: '2025-01-21', params: 'metrics=day&platform=pm' })],
      body: async (s) => ({ from: s.snapshot_id }), missing: (r, d) => `no ${r} ${d}`,
    })
    await expect(days('reports.basic_days', { campaign_id: '5', start_date: '2025-01-20', end_date: '2025-01-21', platform: 'pm' })).resolves.toEqual({ reports: [{ from: '7' }, { from: '8' }] })
    await expect(days('reports.basic_days', { campaign_id: '5', start_date: '2025-01-20', end_date: '2025-01-22', platform: 'pm' })).rejects.toThrow('no basic_show 2025-01-22')
  })

  it('sends other endpoints to the API', async () => {
    await expect(call('campaigns.show', { campaign_id: '5' })).resolves.toEqual({ base: true })
  })
})

describe('laterServed', () => {
  it('names the latest date answered, then the latest fetch', () => {
    const a = snap(1, { date: '2025-01-20' })
    const b = snap(2, { date: '2025-01-21' })
    const c = snap(3, { date: '2025-01-21' })
    expect(laterServed(null, a)).toBe(a)
    expect(laterServed(a, b)).toBe(b)
    expect(laterServed(b, a)).toBe(b)
    expect(laterServed(b, c)).toBe(c)
  })
})
