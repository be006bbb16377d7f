// Dates are reckoned in the engine's time zone (DESIGN §3): dateIn (engine/time-zone.ts) must agree with Intl everywhere
import { describe, expect, it } from 'vitest'
import { dateIn } from '../../engine/time-zone'

describe('dateIn', () => {
  it('gives the calendar date in the zone, also across DST changes, odd offsets and midnight', () => {
    const zones = ['Asia/Shanghai', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC', 'Pacific/Chatham']
    const start = Date.UTC(2025, 0, 1)
    for (const tz of zones) {
      const f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
      const wrong: string[] = []
      // every 17 minutes and 13 seconds for a year and a month: hits every midnight and DST change
      for (let ms = start; ms < start + 400 * 86_400_000; ms += 17 * 60_000 + 13_000) {
        if (dateIn(tz, ms) !== f.format(ms)) wrong.push(`${new Date(ms).toISOString()}: ${dateIn(tz, ms)} != ${f.format(ms)}`)
      }
      expect(wrong.slice(0, 3), tz).toEqual([])
    }
  })
})
