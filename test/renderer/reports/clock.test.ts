// renderer/src/reports/clock.ts: days and hours not come yet, and what is said about a cut-off date
import { describe, expect, it } from 'vitest'
import { actualDates, blankAfter, dateNotice, datePickable, engineNow, lastHourCome } from '../../../renderer/src/reports/clock'

describe('engineNow and lastHourCome', () => {
  it('reads the date and hour in the engine time zone', () => {
    const at = new Date('2026-03-06T02:30:00Z')
    expect(engineNow(at, 'Asia/Shanghai')).toEqual({ date: '2026-03-06', hour: 10 })
    expect(engineNow(at, 'America/New_York')).toEqual({ date: '2026-03-05', hour: 21 })
    expect(engineNow(at, 'Not/AZone')).toEqual({ date: '2026-03-06', hour: 2 })
  })

  it('leaves the hours after the current one of today blank, every hour of a day gone by', () => {
    const now = { date: '2026-03-06', hour: 10 }
    expect(lastHourCome('2026-03-06', now)).toBe(10)
    expect(lastHourCome('2026-03-05', now)).toBe(23)
    expect(blankAfter([5, 0, 0, 0], 1)).toEqual([5, 0, null, null])
  })
})

describe('actualDates', () => {
  it('asks no day after the cut-off, the campaign end or today, and none before the start', () => {
    expect(actualDates('2026-03-01', '2026-03-31', '2026-03-20', '2026-03-03')).toEqual(['2026-03-01', '2026-03-02', '2026-03-03'])
    expect(actualDates('2026-03-01', '2026-03-02', '2026-03-20', '2026-03-10')).toEqual(['2026-03-01', '2026-03-02'])
    expect(actualDates('2026-03-01', '2026-03-31', '2026-02-20', '2026-03-10')).toEqual([])
  })
})

describe('dateNotice and datePickable', () => {
  const b = { start: '2026-03-01', end: '2026-03-10', today: '2026-03-20', progress: '2026-03-18' }

  it('says a date is before the start, not come yet, after the end, or still being counted', () => {
    expect(dateNotice('2026-02-27', b)).toEqual({ key: 'beforeStart', params: { date: '2026-02-27', start: '2026-03-01' } })
    expect(dateNotice('2026-03-25', b)).toEqual({ key: 'notYet', params: { date: '2026-03-25', today: '2026-03-20' } })
    expect(dateNotice('2026-03-15', b)).toEqual({ key: 'afterEnd', params: { date: '2026-03-15', end: '2026-03-10' } })
    expect(dateNotice('2026-03-05', { ...b, progress: '2026-03-04' })).toEqual({ key: 'incomplete', params: { date: '2026-03-04' } })
    expect(dateNotice('2026-03-05', b)).toBeNull()
  })

  it('offers the campaign days up to today (only the start before it begins)', () => {
    expect(datePickable('2026-03-10', b)).toBe(true)
    expect(datePickable('2026-03-11', b)).toBe(false)
    expect(datePickable('2026-02-28', b)).toBe(false)
    expect(datePickable('2026-03-03', { ...b, today: '2026-03-02' })).toBe(false)
    expect(datePickable('2026-03-01', { ...b, today: '2026-02-01' })).toBe(true)
  })
})
