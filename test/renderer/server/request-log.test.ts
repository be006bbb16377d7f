// renderer/src/server/request-log.ts: merging, trimming and filtering the live request log
import { describe, expect, it } from 'vitest'
import { countNewer, entrySource, filterEntries, profileIdsOf, lastSeq, LOG_KEEP, mergeEntries, readFilter, statusMatches, statusTone, type RequestEntry } from '../../../renderer/src/server/request-log'

const entry = (seq: number, over: Partial<RequestEntry> = {}): RequestEntry => ({
  seq, at: `2025-01-10T02:00:${String(seq % 60).padStart(2, '0')}.000Z`, door: 'http', method: 'GET', path: `/cms/v1/campaigns/list`, status: 200, ms: 1, ...over,
})
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => entry(from + i))

describe('mergeEntries', () => {
  it('appends new entries in seq order', () => {
    const merged = mergeEntries([entry(1), entry(2)], [entry(4), entry(3)])
    expect(merged.map((e) => e.seq)).toEqual([1, 2, 3, 4])
  })

  it('drops entries it already holds (a poll that overlaps the last one)', () => {
    const merged = mergeEntries(range(1, 5), range(3, 7))
    expect(merged.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  it('returns the same array when nothing is new', () => {
    const current = range(1, 3)
    expect(mergeEntries(current, [])).toBe(current)
    expect(mergeEntries(current, [entry(2)])).toBe(current)
  })

  it('keeps only the newest entries', () => {
    const merged = mergeEntries(range(1, 400), range(401, 700))
    expect(merged).toHaveLength(LOG_KEEP)
    expect(merged[0]!.seq).toBe(201)
    expect(lastSeq(merged)).toBe(700)
    expect(mergeEntries(range(1, 10), range(11, 12), 5).map((e) => e.seq)).toEqual([8, 9, 10, 11, 12])
  })

  it('starts from an empty log', () => {
    expect(mergeEntries([], range(1, 3)).map((e) => e.seq)).toEqual([1, 2, 3])
    expect(lastSeq([])).toBe(0)
  })
})

describe('countNewer', () => {
  it('counts what a paused log has not shown', () => {
    expect(countNewer(range(1, 10), 7)).toBe(3)
    expect(countNewer(range(1, 10), 10)).toBe(0)
    expect(countNewer([], 0)).toBe(0)
  })
})

describe('filterEntries', () => {
  const log = [
    entry(1, { path: '/oauth/token', method: 'POST', status: 400 }),
    entry(2, { path: '/cms/v1/campaigns/list' }),
    entry(3, { path: '/x/k=1&p=abc', status: 204, door: 'http' }),
    entry(4, { path: '/local/v1/status', status: 500, door: 'ipc' }),
    entry(5, { path: '/r/k=1', status: 302 }),
  ]
  const seqs = (text: string, status: Parameters<typeof filterEntries>[1]['status'] = 'all') => filterEntries(log, { text, status, source: 'all', profile_id: '' }).map((e) => e.seq)

  it('lists newest first', () => {
    expect(seqs('')).toEqual([5, 4, 3, 2, 1])
  })

  it('matches part of the path, case-insensitively', () => {
    expect(seqs('CAMPAIGNS')).toEqual([2])
    expect(seqs('  /local ')).toEqual([4])
  })

  it('matches a method, a status code or a door exactly', () => {
    expect(seqs('post')).toEqual([1])
    expect(seqs('204')).toEqual([3])
    expect(seqs('ipc')).toEqual([4])
  })

  it('filters by status class', () => {
    expect(seqs('', '2xx')).toEqual([3, 2])
    expect(seqs('', '3xx')).toEqual([5])
    expect(seqs('', '4xx')).toEqual([1])
    expect(seqs('', '5xx')).toEqual([4])
    expect(seqs('', 'errors')).toEqual([4, 1])
  })

  it('combines text and status', () => {
    expect(seqs('/cms', 'errors')).toEqual([])
    expect(seqs('token', '4xx')).toEqual([1])
  })
})

describe('statusMatches and statusTone', () => {
  it('classes statuses', () => {
    expect(statusMatches(201, '2xx')).toBe(true)
    expect(statusMatches(301, '2xx')).toBe(false)
    expect(statusMatches(413, 'errors')).toBe(true)
    expect(statusMatches(399, 'errors')).toBe(false)
  })

  it('colours statuses', () => {
    expect([200, 204, 302, 400, 404, 500, 100].map(statusTone)).toEqual(['success', 'success', 'info', 'warning', 'warning', 'error', 'default'])
  })
})

describe('readFilter', () => {
  it('keeps a good remembered filter and repairs a bad one', () => {
    expect(readFilter({ text: 'token', status: '4xx', source: 'offline', profile_id: '2' })).toEqual({ text: 'token', status: '4xx', source: 'offline', profile_id: '2' })
    expect(readFilter({ text: 3, status: '7xx', source: 'moon', profile_id: 4 })).toEqual({ text: '', status: 'all', source: 'all', profile_id: '' })
    expect(readFilter({ text: 'a', status: '2xx' })).toEqual({ text: 'a', status: '2xx', source: 'all', profile_id: '' })
  })
})

describe('source and profile (server modes)', () => {
  const log = [
    entry(1),
    entry(2, { source: 'forward', profile_id: '1' }),
    entry(3, { source: 'offline', profile_id: '2' }),
    entry(4, { source: 'forward', profile_id: '2' }),
  ]
  const seqs = (source: Parameters<typeof filterEntries>[1]['source'], profileId = '', text = '') =>
    filterEntries(log, { text, status: 'all', source, profile_id: profileId }).map((e) => e.seq)

  it('calls an entry without a source local', () => {
    expect(log.map(entrySource)).toEqual(['local', 'forward', 'offline', 'forward'])
  })

  it('filters by source; remote is forward or offline', () => {
    expect(seqs('all')).toEqual([4, 3, 2, 1])
    expect(seqs('local')).toEqual([1])
    expect(seqs('forward')).toEqual([4, 2])
    expect(seqs('offline')).toEqual([3])
    expect(seqs('remote')).toEqual([4, 3, 2])
  })

  it('filters by profile and matches the source as text', () => {
    expect(seqs('all', '2')).toEqual([4, 3])
    expect(seqs('forward', '2')).toEqual([4])
    expect(seqs('all', '', 'offline')).toEqual([3])
  })

  it('lists the profiles the entries name', () => {
    expect(profileIdsOf(log)).toEqual(['1', '2'])
    expect(profileIdsOf([entry(1)])).toEqual([])
  })
})
