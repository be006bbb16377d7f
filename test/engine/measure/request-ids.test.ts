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

  it('does forget ids out of the window of the newest, and the oldest past the limit, in the order counted', () => {
    const r = new RequestIds(3)
    for (const [k, at] of [['a', T0], ['b', T0 + 1], ['c', T0 + 2], ['d', T0 + 3]] as const) r.add(k, at)
    expect(r.arrays().keys).toEqual(['b', 'c', 'd'])
    r.add('b', T0 + 4) // counted again: now the newest
    expect(r.arrays().keys).toEqual(['c', 'd', 'b'])
    r.add('e', T0 + 3 + REQUEST_WINDOW_MS)
    expect(r.arrays()).toEqual({ keys: ['b', 'e'], ts: new Float64Array([T0 + 4, T0 + 3 + REQUEST_WINDOW_MS]) })
    const back = RequestIds.from(r.arrays().keys, r.arrays().ts)
    expect(back.arrays()).toEqual(r.arrays())
  })

  it('does claim a key once within the window (answering when it was counted), and again after it', () => {
    const r = new RequestIds()
    expect(r.claim('a', T0)).toBeUndefined()
    expect(r.claim('a', T0 + 5)).toBe(T0)
    expect(r.claim('a', T0 - REQUEST_WINDOW_MS + 1)).toBe(T0)
    expect(r.claim('a', T0 + REQUEST_WINDOW_MS)).toBeUndefined()
    expect(r.arrays()).toEqual({ keys: ['a'], ts: new Float64Array([T0 + REQUEST_WINDOW_MS]) })
  })

  it('does keep kinds, campaigns, spots and keywords apart in its keys', () => {
    const keys = new Set([
      requestKey(KIND.impression, 1, 2, 0, 'x'), requestKey(KIND.click, 1, 2, 0, 'x'), requestKey(KIND.impression, 12, 2, 0, 'x'),
      requestKey(KIND.impression, 1, 22, 0, 'x'), requestKey(KIND.impression, 1, 2, 3, 'x'), requestKey(KIND.impression, 1, 2, 0, 'x|'),
    ])
    expect(keys.size).toBe(6)
  })
})
