// engine/auth/throttle.ts: slowing repeated failed logins, also when they come in parallel
import { describe, expect, it } from 'vitest'
import { LoginThrottle } from '../../../engine/auth/throttle'

const KEYS = ['u:admin', 'a:127.0.0.1']

describe('LoginThrottle', () => {
  it('waits from the third failure on, doubling up to 8 s, and a success clears it', () => {
    const t = new LoginThrottle()
    const waits: number[] = []
    for (let i = 0; i < 9; i++) {
      waits.push(t.begin(KEYS, 0))
      t.end(KEYS)
      t.fail(KEYS, 0)
    }
    expect(waits).toEqual([0, 0, 0, 250, 500, 1000, 2000, 4000, 8000])
    t.succeed(KEYS)
    expect(t.begin(KEYS, 0)).toBe(0)
  })

  it('makes attempts sent in parallel after a failure wait longer each; without a failure none waits', () => {
    const t = new LoginThrottle()
    expect(Array.from({ length: 5 }, () => t.begin(KEYS, 0))).toEqual([0, 0, 0, 0, 0])
    for (let i = 0; i < 5; i++) t.end(KEYS)
    t.fail(KEYS, 0)
    t.fail(KEYS, 0)
    // two failures: the next one alone would wait nothing, twenty at once escalate
    const parallel = Array.from({ length: 20 }, () => t.begin(KEYS, 0))
    expect(parallel.slice(0, 4)).toEqual([0, 250, 500, 1000])
    expect(parallel.at(-1)).toBe(8000)
    for (let i = 0; i < 20; i++) t.end(KEYS)
    expect(t.begin(KEYS, 0)).toBe(0)
  })

  it('forgets the keys failed longest ago past its limit, not all of them', () => {
    const t = new LoginThrottle()
    for (let i = 0; i < 4; i++) t.fail(['u:admin'], 0)
    for (let i = 0; i < 5_000; i++) t.fail([`u:name${i}`], 0)
    t.fail(['u:admin'], 0) // failed again: among the newest now
    for (let i = 5_000; i < 10_500; i++) t.fail([`u:name${i}`], 0)
    expect(t.begin(['u:admin'], 0)).toBe(1000) // 5 failures: kept
    expect(t.begin(['u:name0'], 0)).toBe(0) // forgotten
  })
})
