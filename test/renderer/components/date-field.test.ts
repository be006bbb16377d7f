// renderer/src/components/date-field.ts: when focus leaving the date field closes its calendar
import { describe, expect, it } from 'vitest'
import { CALENDAR_SELECTOR, focusLeavesField, rejectedDate, type FocusTarget } from '../../../renderer/src/components/date-field'

/** A stand-in for an element: `within` names the containers it is in (the field, the calendar). */
const el = (...within: string[]): FocusTarget & { within: string[] } => ({
  within,
  closest: (selector: string) => (selector === CALENDAR_SELECTOR && within.includes('calendar') ? {} : null),
})
const inField = (next: FocusTarget): boolean => (next as ReturnType<typeof el>).within.includes('field')

describe('focusLeavesField', () => {
  it('closes the calendar when focus goes to another control (Tab, Shift+Tab) or nowhere', () => {
    expect(focusLeavesField(el('next picker'), inField)).toBe(true)
    expect(focusLeavesField(el(), inField)).toBe(true)
    expect(focusLeavesField(null, inField)).toBe(true)
    expect(focusLeavesField(undefined, inField)).toBe(true)
    expect(focusLeavesField({}, inField), 'not an element').toBe(true)
  })

  it('keeps it open when focus moves inside the field (input to its box) or into the calendar (a click on a day)', () => {
    expect(focusLeavesField(el('field'), inField)).toBe(false)
    expect(focusLeavesField(el('calendar'), inField)).toBe(false)
  })
})

describe('rejectedDate', () => {
  it('returns typed text that is not a real yyyy-MM-dd day, so the field can say so', () => {
    expect(rejectedDate('2020-13-45')).toBe('2020-13-45')
    expect(rejectedDate(' 2026-02-30 ')).toBe('2026-02-30')
    expect(rejectedDate('2026/01/02')).toBe('2026/01/02')
    expect(rejectedDate('tomorrow')).toBe('tomorrow')
  })

  it('accepts a real day and an empty field', () => {
    expect(rejectedDate('2024-02-29')).toBeNull()
    expect(rejectedDate('')).toBeNull()
    expect(rejectedDate('   ')).toBeNull()
  })
})
