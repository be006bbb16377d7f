// renderer/src/campaign/dates.ts: moving between days of the plan calendar with the keyboard
import { describe, expect, it } from 'vitest'
import { calendarKeyTarget } from '../../../renderer/src/campaign/dates'

describe('calendarKeyTarget', () => {
  it('moves by a day or a week with the arrows, across months', () => {
    expect(calendarKeyTarget('2026-11-30', 'ArrowRight')).toBe('2026-12-01')
    expect(calendarKeyTarget('2026-12-01', 'ArrowLeft')).toBe('2026-11-30')
    expect(calendarKeyTarget('2026-11-26', 'ArrowDown')).toBe('2026-12-03')
    expect(calendarKeyTarget('2026-11-26', 'ArrowUp')).toBe('2026-11-19')
  })

  it("goes to the week's Monday and Sunday with Home and End (2026-11-26 is a Thursday)", () => {
    expect(calendarKeyTarget('2026-11-26', 'Home')).toBe('2026-11-23')
    expect(calendarKeyTarget('2026-11-26', 'End')).toBe('2026-11-29')
  })

  it("moves by a month with PageUp and PageDown, to the month's last day when it is shorter", () => {
    expect(calendarKeyTarget('2026-11-26', 'PageDown')).toBe('2026-12-26')
    expect(calendarKeyTarget('2026-01-31', 'PageDown')).toBe('2026-02-28')
    expect(calendarKeyTarget('2026-03-31', 'PageUp')).toBe('2026-02-28')
    expect(calendarKeyTarget('2026-01-15', 'PageUp')).toBe('2025-12-15')
  })

  it('ignores other keys', () => {
    expect(calendarKeyTarget('2026-11-26', 'Enter')).toBeNull()
  })
})
