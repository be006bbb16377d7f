// docs/attribution.md §2 "The cookie check": first contacts held 10 s, counted on expiry or at close
import { describe, expect, it } from 'vitest'
import { CookieChecks, REMEMBER_MS, WAIT_MS, type Timer } from '../../../engine/measure/cookie-check'
import { KIND, type Hit } from '../../../engine/measure/types'

const hitAt = (ts: number, identity = 'ipua:1'): Hit => ({ kind: KIND.impression, ts, campaign: 1, spot: 1, keyword: 0, identity, platform: 0, sdk: 0, region: 0, ivt: 0 })

function setUp(maxPending?: number) {
  let now = 1_000_000
  const counted: Hit[][] = []
  const timers = { started: 0, stopped: 0, tick: (): void => undefined }
  const timer: Timer = (fn) => {
    timers.started++
    timers.tick = fn
    return () => void timers.stopped++
  }
  const checks = new CookieChecks({ now: () => now, count: async (hits) => void counted.push(hits), timer, ...(maxPending ? { maxPending } : {}) })
  return { checks, counted, timers, advance: (ms: number) => (now += ms), now: () => now }
}

describe('CookieChecks', () => {
  it('drops a held hit when its browser comes back, and knows no other marker', () => {
    const { checks, counted } = setUp()
    expect(checks.hold('a', hitAt(1))).toBe(true)
    expect(checks.hold('a', hitAt(2))).toBe(false)
    expect(checks.resolve('a')).toBe('pending')
    expect(checks.resolve('a')).toBe('unknown')
    expect(checks.resolve('b')).toBe('unknown')
    expect(checks.size).toBe(0)
    expect(counted).toEqual([])
  })

  it('counts the hits whose 10 s are over, in the order held, once, and remembers their markers for 10 minutes', async () => {
    const { checks, counted, advance } = setUp()
    const first = hitAt(1, 'ipua:first')
    checks.hold('a', first)
    advance(4_000)
    checks.hold('b', hitAt(2, 'ipua:second'))
    advance(WAIT_MS - 4_000 - 1)
    expect(checks.due()).toBeNull()
    advance(1)
    await checks.due()
    expect(counted).toEqual([[first]])
    expect(checks.resolve('a')).toBe('expired')
    advance(4_000)
    await checks.due()
    expect(counted.map((c) => c.map((h) => h.identity))).toEqual([['ipua:first'], ['ipua:second']])
    expect(checks.due()).toBeNull()
    advance(REMEMBER_MS)
    checks.due()
    expect(checks.resolve('a')).toBe('unknown')
  })

  it('refuses to hold more than its bound (the caller counts such a hit at once)', () => {
    const { checks } = setUp(3)
    expect([1, 2, 3, 4].map((i) => checks.hold(`v${i}`, hitAt(i)))).toEqual([true, true, true, false])
    checks.resolve('v1')
    expect(checks.hold('v5', hitAt(5))).toBe(true)
  })

  it('runs its timer only while it holds hits; the timer counts what is due', async () => {
    const { checks, counted, timers, advance } = setUp()
    expect(timers.started).toBe(0)
    checks.hold('a', hitAt(1))
    checks.hold('b', hitAt(2))
    expect(timers.started).toBe(1)
    advance(WAIT_MS)
    timers.tick()
    await checks.due()
    expect(counted.flat().length).toBe(2)
    expect(timers.stopped).toBe(1)
  })

  it('counts every held hit at close, and tells a count that failed', async () => {
    const failures: unknown[] = []
    const checks = new CookieChecks({ now: () => 0, count: async () => Promise.reject(new Error('log closed')), failed: (e) => failures.push(e), timer: () => () => undefined })
    checks.hold('a', hitAt(1))
    await checks.close()
    expect(failures).toHaveLength(1)
    const { checks: c2, counted } = setUp()
    c2.hold('a', hitAt(1))
    c2.hold('b', hitAt(2))
    await c2.close()
    expect(counted.flat().map((h) => h.ts)).toEqual([1, 2])
    expect(c2.size).toBe(0)
  })
})
