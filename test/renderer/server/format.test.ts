// renderer/src/server/format.ts and simulator.ts: numbers, times, the simulator form
import { describe, expect, it } from 'vitest'
import { countFormat, formatClock, formatCount, formatDateTime, formatDuration } from '../../../renderer/src/server/format'
import { defaultRange, simParams, simProblem, type SimForm } from '../../../renderer/src/server/simulator'

describe('format', () => {
  it('formats counts in the interface language', () => {
    expect(formatCount(1234567, 'en')).toBe('1,234,567')
    expect(formatCount(1234567, 'zh')).toBe('1,234,567')
  })

  it('makes the count format once per language', () => {
    expect(countFormat('en')).toBe(countFormat('en'))
    expect(countFormat('zh')).toBe(countFormat('zh'))
    expect(countFormat('en')).not.toBe(countFormat('zh'))
  })

  it('formats times in a time zone', () => {
    expect(formatDateTime('2025-01-10T02:03:04.567Z', 'Asia/Shanghai')).toBe('2025-01-10 10:03:04')
    expect(formatDateTime('2025-01-10T23:59:59.000Z', 'UTC')).toBe('2025-01-10 23:59:59')
    expect(formatDateTime('', 'UTC')).toBe('')
    expect(formatDateTime('not a time', 'UTC')).toBe('')
    expect(formatClock('2025-01-10T02:03:04.067Z', 'Asia/Shanghai')).toBe('10:03:04.067')
  })

  it('formats durations', () => {
    expect(formatDuration(850)).toBe('850 ms')
    expect(formatDuration(12_400)).toBe('12.4 s')
    expect(formatDuration(185_000)).toBe('3 min 05 s')
  })

  it('writes the units of a duration in the interface language', () => {
    expect(formatDuration(850, 'zh')).toBe('850 毫秒')
    expect(formatDuration(12_400, 'zh')).toBe('12.4 秒')
    expect(formatDuration(185_000, 'zh')).toBe('3 分 05 秒')
    expect(formatDuration(850, 'en')).toBe('850 ms')
  })
})

describe('simulator form', () => {
  const c = { campaign_id: '1', start_date: '2025-01-01', end_date: '2025-01-31' }
  const form = (over: Partial<SimForm> = {}): SimForm => ({ campaign_id: '1', from_date: '2025-01-01', to_date: '2025-01-10', seed: 1, scale: 1, max_hits: null, append: false, ...over })

  it('defaults to the campaign start up to the earlier of today and the end', () => {
    expect(defaultRange(c, '2025-01-10')).toEqual({ from_date: '2025-01-01', to_date: '2025-01-10' })
    expect(defaultRange(c, '2025-03-01')).toEqual({ from_date: '2025-01-01', to_date: '2025-01-31' })
  })

  it('finds what keeps the form from being sent', () => {
    expect(simProblem(form(), c)).toBeNull()
    expect(simProblem(form({ campaign_id: null }), c)).toBe('needCampaign')
    expect(simProblem(form(), undefined)).toBe('needCampaign')
    expect(simProblem(form({ from_date: '2025-01-11' }), c)).toBe('badRange')
    expect(simProblem(form({ from_date: '2025-02-01', to_date: '2025-02-05' }), c)).toBe('outsideCampaign')
    expect(simProblem(form({ from_date: null, to_date: null }), c)).toBeNull()
  })

  it('asks for a job to follow (wait=0) and leaves unset fields out', () => {
    expect(simParams(form())).toEqual({ campaign_id: '1', from_date: '2025-01-01', to_date: '2025-01-10', seed: 1, scale: 1, max_hits: undefined, append: undefined, wait: 0 })
    expect(simParams(form({ append: true })).append).toBe(1)
  })
})
