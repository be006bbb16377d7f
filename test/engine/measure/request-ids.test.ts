// docs/attribution.md "Media request id": the ids counted, their 24-hour window and their limit
import { describe, expect, it } from 'vitest'
import { REQUEST_WINDOW_MS, RequestIds, requestKey } from '../../../engine/measure/request-ids'
import { KIND } from '../../../engine/measure/types'

const T0 = Date.parse('2025-01-10T04:00:00Z')

describe('RequestIds', () => {
  it('does answer when a key was counted, within the window on either side of a hit', () => {
    const r = new RequestIds()
    r.add('a', T0)
    expect([r.countedAt('a', T0), r.countedAt('a', T0 + REQUEST_WINDOW_MS - 1), r.countedAt('a', T0 - REQUEST_WINDOW_MS + 1)]).toEqual([T0, T0, T0])
    // (an import brings lines out of order: a line a day before the counted one is no repeat)
    expect([r.countedAt('a', T0 + REQUEST_WINDOW_MS), r.countedAt('a', T0 - REQUEST_WINDOW_MS), r.countedAt('b', T0)]).toEqual([undefined, undefined, undefined])
  })

  it('does forget only the oldest past the limit, in the order counted, never for a hit dated far ahead', () => {
    const r = new RequestIds(3)
    for (const [k, at] of [['a', T0], ['b', T0 + 1], ['c', T0 + 2], ['d', T0 + 3]] as const) r.add(k, at)
    expect(r.arrays().keys).toEqual(['b', 'c', 'd'])
    r.add('c', T0 + REQUEST_WINDOW_MS) // counted again a day on: the newest hit, its first time still the oldest
    expect(r.arrays()).toEqual({ keys: ['c', 'd', 'c'], ts: new Float64Array([T0 + 2, T0 + 3, T0 + REQUEST_WINDOW_MS]) })
    // (an import's line dated days ahead: the ids counted before it are still known, but the oldest hit)
    r.add('e', T0 + 5 * REQUEST_WINDOW_MS)
    expect(r.arrays().keys).toEqual(['d', 'c', 'e'])
    // (c's first hit, forgotten, was the one within a window of a time a day before it)
    expect([r.countedAt('c', T0 - REQUEST_WINDOW_MS + 10), r.countedAt('c', T0 + REQUEST_WINDOW_MS + 10), r.countedAt('d', T0 + 10), r.countedAt('e', T0 + 10)]).toEqual([undefined, T0 + REQUEST_WINDOW_MS, T0 + 3, undefined])
    const back = RequestIds.from(r.arrays().keys, r.arrays().ts)
    expect(back.arrays()).toEqual(r.arrays())
  })

  it('does keep every time of an id counted again a window or more apart, and forgets them oldest first', () => {
    const r = new RequestIds(4)
    expect(r.claim('a', T0)).toBeUndefined()
    expect(r.claim('a', T0 + 2 * REQUEST_WINDOW_MS)).toBeUndefined()
    // a line of the first day, imported after both: a repeat of the first hit
    expect(r.claim('a', T0 + 5)).toBe(T0)
    expect(r.claim('a', T0 + 2 * REQUEST_WINDOW_MS - 5)).toBe(T0 + 2 * REQUEST_WINDOW_MS)
    expect(r.size).toBe(2)
    const { keys, ts } = r.arrays()
    expect(keys).toEqual(['a', 'a'])
    expect(RequestIds.from(keys, ts).countedAt('a', T0 + 5)).toBe(T0)
    for (const k of ['b', 'c', 'd']) r.add(k, T0)
    expect(r.arrays()).toEqual({ keys: ['a', 'b', 'c', 'd'], ts: new Float64Array([T0 + 2 * REQUEST_WINDOW_MS, T0, T0, T0]) })
    expect(r.countedAt('a', T0 + 5)).toBeUndefined()
  })

  it('does claim a key once within the window (answering when it was counted), and again after it', () => {
    const r = new RequestIds()
    expect(r.claim('a', T0)).toBeUndefined()
    expect(r.claim('a', T0 + 5)).toBe(T0)
    expect(r.claim('a', T0 - REQUEST_WINDOW_MS + 1)).toBe(T0)
    expect(r.claim('a', T0 + REQUEST_WINDOW_MS)).toBeUndefined()
    expect(r.arrays()).toEqual({ keys: ['a', 'a'], ts: new Float64Array([T0, T0 + REQUEST_WINDOW_MS]) })
  })

  it('does keep kinds, campaigns, spots and keywords apart in its keys', () => {
    const keys = new Set([
      requestKey(KIND.impression, 1, 2, 0, 'x'), requestKey(KIND.click, 1, 2, 0, 'x'), requestKey(KIND.impression, 12, 2, 0, 'x'),
      requestKey(KIND.impression, 1, 22, 0, 'x'), requestKey(KIND.impression, 1, 2, 3, 'x'), requestKey(KIND.impression, 1, 2, 0, 'x|'),
    ])
    expect(keys.size).toBe(6)
  })
})

describe('RequestIds: the ring and the table agree', () => {
  it('does forget the oldest hit when it is the one of the id counted again (the table kept it, the ring did not)', () => {
    const r = new RequestIds(2)
    r.add('a', T0)
    r.add('b', T0 + 1)
    r.add('a', T0 + 2 * REQUEST_WINDOW_MS)
    expect(r.arrays()).toEqual({ keys: ['b', 'a'], ts: new Float64Array([T0 + 1, T0 + 2 * REQUEST_WINDOW_MS]) })
    expect(r.countedAt('a', T0 + 5)).toBeUndefined()
    // cycling ids a window apart never holds more times than the limit
    const c = new RequestIds(3)
    for (let i = 0; i < 30; i++) c.add(['x', 'y', 'z'][i % 3]!, T0 + i * 2 * REQUEST_WINDOW_MS)
    const { keys, ts } = c.arrays()
    expect(keys).toHaveLength(3)
    const back = RequestIds.from(keys, ts)
    for (const [i, k] of keys.entries()) expect(back.countedAt(k, ts[i]!)).toBe(ts[i])
    expect(c.countedAt('x', T0)).toBeUndefined()
  })
})
