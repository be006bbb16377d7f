// renderer/src/sync/age.ts: how old fetched data is, in words
import { describe, expect, it } from 'vitest'
import { ageLabel, isStale } from '../../../renderer/src/sync/age'

const now = Date.parse('2025-01-20T12:00:00.000Z')
const ago = (ms: number) => new Date(now - ms).toISOString()

describe('ageLabel', () => {
  it('says just now, minutes, hours up to two days, then days', () => {
    expect(ageLabel(ago(30_000), now)).toEqual({ key: 'justNow', n: 0 })
    expect(ageLabel(ago(5 * 60_000 + 10), now)).toEqual({ key: 'minutes', n: 5 })
    expect(ageLabel(ago(3 * 3_600_000), now)).toEqual({ key: 'hours', n: 3 })
    expect(ageLabel(ago(47 * 3_600_000), now)).toEqual({ key: 'hours', n: 47 })
    expect(ageLabel(ago(50 * 3_600_000), now)).toEqual({ key: 'days', n: 2 })
  })

  it('treats a time in the future (clocks differ) as just now, and a missing one as unknown', () => {
    expect(ageLabel(ago(-60_000), now).key).toBe('justNow')
    expect(ageLabel('', now).key).toBe('unknown')
    expect(ageLabel('not a time', now).key).toBe('unknown')
  })

  it('flags data older than a week', () => {
    expect(isStale(ago(8 * 86_400_000), now)).toBe(true)
    expect(isStale(ago(86_400_000), now)).toBe(false)
    expect(isStale('', now)).toBe(false)
  })
})
