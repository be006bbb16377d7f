// renderer/src/campaign/plan.ts and dates.ts: the plan calendar's edits as update_spot requests
import { describe, expect, it } from 'vitest'
import { addDays, dateRange, localDay, monthGrid, monthsBetween, weekday } from '../../../renderer/src/campaign/dates'
import { campaignStatus } from '../../../renderer/src/campaigns/list-query'
import { MAX_DAY_ESTIMATE, estimatesOf, evenSplit, planChanges, planRequests, planSummary, readEstimate, removeDays, setDays, type PlanDay } from '../../../renderer/src/campaign/plan'

const day = (date: string, est_impression = 0, est_click = 0): PlanDay => ({ date, est_impression, est_click })
const stored = [day('2025-01-10', 100, 1), day('2025-01-11', 100, 1), day('2025-01-12', 100, 1)]

describe('planRequests', () => {
  it('answers no request when nothing changed', () => {
    expect(planRequests(stored, [...stored].reverse())).toEqual([])
  })

  it('adds new days with their estimates in one add_slot request', () => {
    const draft = setDays(stored, ['2025-01-14', '2025-01-13'], { est_impression: 50, est_click: 2 })
    expect(planRequests(stored, draft)).toEqual([{ add_slot: '2025-01-13,2025-01-14', est_impression: '50,50', est_click: '2,2' }])
  })

  it('changes existing days with update_slot and both estimate lists', () => {
    const draft = setDays(stored, ['2025-01-11'], { est_impression: 300 })
    expect(planRequests(stored, draft)).toEqual([{ update_slot: '2025-01-11', est_impression: '300', est_click: '1' }])
  })

  it('deletes removed days alone with delete_slot', () => {
    expect(planRequests(stored, removeDays(stored, ['2025-01-12', '2025-01-10']))).toEqual([{ delete_slot: '2025-01-10,2025-01-12' }])
  })

  it('splits adds and updates into two requests (they cannot share one), deletes going with the first', () => {
    let draft = setDays(stored, ['2025-01-13'], { est_impression: 7, est_click: 0 })
    draft = setDays(draft, ['2025-01-10'], { est_click: 9 })
    draft = removeDays(draft, ['2025-01-12'])
    expect(planRequests(stored, draft)).toEqual([
      { add_slot: '2025-01-13', est_impression: '7', est_click: '0', delete_slot: '2025-01-12' },
      { update_slot: '2025-01-10', est_impression: '100', est_click: '9' },
    ])
  })

  it('treats a day removed and added back with other estimates as changed', () => {
    const draft = setDays(removeDays(stored, ['2025-01-10']), ['2025-01-10'], { est_impression: 1 })
    const c = planChanges(stored, draft)
    expect(c).toEqual({ added: [], changed: [day('2025-01-10', 1, 0)], removed: [] })
  })
})

describe('plan helpers', () => {
  it('summarises days, first and last day and totals', () => {
    expect(planSummary([day('2025-02-02', 5, 1), day('2025-02-01', 5, 2)])).toEqual({ days: 2, first: '2025-02-01', last: '2025-02-02', est_impression: 10, est_click: 3 })
    expect(planSummary([])).toEqual({ days: 0, first: null, last: null, est_impression: 0, est_click: 0 })
  })

  it('spreads totals as create_spot_with_plan does', () => {
    expect(evenSplit(100, 3)).toEqual([34, 33, 33])
    expect(evenSplit(2, 4)).toEqual([1, 1, 0, 0])
    expect(evenSplit(5, 0)).toEqual([])
  })

  it('keeps an estimate that is not given when setting days', () => {
    expect(setDays(stored, ['2025-01-10'], { est_click: 4 })[0]).toEqual(day('2025-01-10', 100, 4))
    expect(setDays([], ['2025-01-01'], { est_impression: 0 })).toEqual([day('2025-01-01')])
  })

  it('does not add a day when no impressions are given (a removed day is not re-added with 0)', () => {
    const removed = removeDays(stored, ['2025-01-10'])
    expect(setDays(removed, ['2025-01-10', '2025-01-11'], { est_click: 4 })).toEqual(setDays(removed, ['2025-01-11'], { est_click: 4 }))
    expect(setDays(removed, ['2025-01-10'], {})).toEqual(removed)
    expect(setDays(removed, ['2025-01-10'], { est_impression: 5 }).find((d) => d.date === '2025-01-10')).toEqual(day('2025-01-10', 5, 0))
  })

  it('reads an estimate box as typed: empty, a whole number up to 2^40, or refused with the bound', () => {
    expect(readEstimate('  ')).toEqual({ kind: 'empty' })
    expect(readEstimate(' 12345 ')).toEqual({ kind: 'value', value: 12345 })
    expect(readEstimate(String(MAX_DAY_ESTIMATE))).toEqual({ kind: 'value', value: MAX_DAY_ESTIMATE })
    for (const bad of ['1.5', '-5', 'abc', '1e3', String(MAX_DAY_ESTIMATE + 1), '99999999999999999']) expect(readEstimate(bad), bad).toEqual({ kind: 'invalid', max: MAX_DAY_ESTIMATE })
  })

  it('sets nothing when both boxes are empty or one is refused', () => {
    const e = readEstimate('')
    expect(estimatesOf(e, e)).toBeNull()
    expect(estimatesOf(readEstimate('1.5'), readEstimate('3'))).toBeNull()
    expect(estimatesOf(e, readEstimate('3'))).toEqual({ est_impression: undefined, est_click: 3 })
    expect(estimatesOf(readEstimate('7'), e)).toEqual({ est_impression: 7, est_click: undefined })
  })
})

describe('dates', () => {
  it('does calendar arithmetic across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01')
    expect(dateRange('2025-01-30', '2025-02-02')).toEqual(['2025-01-30', '2025-01-31', '2025-02-01', '2025-02-02'])
    expect(dateRange('2025-01-02', '2025-01-01')).toEqual([])
    expect(monthsBetween('2024-11-20', '2025-02-01')).toEqual(['2024-11', '2024-12', '2025-01', '2025-02'])
  })

  it('lays a month out in weeks starting on Monday', () => {
    expect(weekday('2025-09-01')).toBe(0)
    const grid = monthGrid('2025-02')
    expect(grid[0]).toEqual([null, null, null, null, null, '2025-02-01', '2025-02-02'])
    expect(grid.flat().filter((d) => d !== null)).toHaveLength(28)
    expect(grid.every((w) => w.length === 7)).toBe(true)
  })

  it('writes the local calendar day of a timestamp, today by default', () => {
    expect(localDay(new Date(2025, 0, 5, 23, 59).getTime())).toBe('2025-01-05')
    expect(localDay(new Date(2024, 11, 31, 0, 0).getTime())).toBe('2024-12-31')
    expect(localDay()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it('computes the status the engine computes from the dates and today', () => {
    const c = { start_date: '2025-01-10', end_date: '2025-01-20' }
    expect([campaignStatus(c, '2025-01-09'), campaignStatus(c, '2025-01-10'), campaignStatus(c, '2025-01-20'), campaignStatus(c, '2025-01-21')]).toEqual([1, 2, 2, 3])
  })
})
