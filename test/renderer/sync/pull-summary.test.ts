// renderer/src/sync/pull-summary.ts: progress and the per-kind summary of a pull
import { describe, expect, it } from 'vitest'
import { jobDuration } from '../../../renderer/src/server/jobs'
import type { PushStatus } from '../../../renderer/src/sync/outbox'
import { isPullRunning, pullPercent, runTone, summaryLine, summaryRows, totalsOf, type PullStatus } from '../../../renderer/src/sync/pull-summary'

const status = (over: Partial<PullStatus> = {}): PullStatus => ({
  pull_id: '1', profile_id: '1', state: 'running', phase: 'campaigns', resumed: false, campaigns_total: 8, campaigns_done: 3,
  requests: 10, logins: 1, retries: 0, counts: [], problem: '', message: '', started_at: '2025-01-20T10:00:00.000Z', finished_at: '', ...over,
})
const c = (kind: PullStatus['counts'][number]['kind'], added: number, changed: number, removed: number, unchanged: number) => ({ kind, added, changed, removed, unchanged })

describe('pull progress', () => {
  it('counts campaigns done of total, 100 once done', () => {
    expect(pullPercent(status())).toBe(37)
    expect(pullPercent(status({ phase: 'reference', campaigns_total: 0, campaigns_done: 0 }))).toBe(0)
    expect(pullPercent(status({ state: 'done', phase: 'done' }))).toBe(100)
    expect(isPullRunning(status())).toBe(true)
    expect(isPullRunning(null)).toBe(false)
  })

  it('colours by state', () => {
    expect(['done', 'failed', 'cancelled', 'interrupted', 'running', 'idle'].map((s) => runTone(status({ state: s as PullStatus['state'] }))))
      .toEqual(['success', 'error', 'warning', 'warning', 'info', 'default'])
    expect(runTone({ state: 'failed', ops_total: 4, ops_done: 1 } as PushStatus)).toBe('error')
  })

  it('measures the time taken, or so far', () => {
    expect(jobDuration(status({ finished_at: '2025-01-20T10:01:30.000Z' }), 0)).toBe(90_000)
    expect(jobDuration(status(), Date.parse('2025-01-20T10:00:05.000Z'))).toBe(5000)
    expect(jobDuration(status({ started_at: '' }), 1e12)).toBe(0)
  })
})

describe('pull summary', () => {
  const counts = [c('spot', 2, 1, 0, 40), c('campaign', 1, 0, 1, 9), c('region', 0, 0, 0, 0), c('advertiser', 0, 0, 0, 5)]

  it('has a row per kind with records, in the engine order, then the total', () => {
    const rows = summaryRows(counts)
    expect(rows.map((r) => r.kind)).toEqual(['campaign', 'spot', 'advertiser', 'total'])
    expect(rows.at(-1)).toEqual({ kind: 'total', added: 3, changed: 1, removed: 1, unchanged: 54 })
    expect(summaryRows([])).toEqual([])
  })

  it('says in one line whether anything changed', () => {
    expect(summaryLine([])).toEqual({ key: 'none', params: { added: 0, changed: 0, removed: 0, unchanged: 0 } })
    expect(summaryLine([c('spot', 0, 0, 0, 7)]).key).toBe('same')
    // a pull that did not finish read part of the remote: not "nothing changed at the remote"
    for (const state of ['cancelled', 'failed', 'interrupted', 'running']) expect(summaryLine([c('spot', 0, 0, 0, 7)], state).key, state).toBe('sameSoFar')
    expect(summaryLine(counts, 'cancelled').key).toBe('changes')
    expect(summaryLine(counts)).toEqual({ key: 'changes', params: totalsOf(counts) })
  })
})
