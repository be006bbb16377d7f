/**
 * When the date field's calendar closes (DateField.vue). Pure, with the DOM reduced to what it
 * needs, so it is tested without a browser (test/renderer/components/date-field.test.ts).
 */

/** The calendar popup's root: naive-ui renders it at the end of the page, outside the field. */
export const CALENDAR_SELECTOR = '.n-date-panel'

/** What a focus event's `relatedTarget` offers here (an Element does). */
export interface FocusTarget {
  closest(selector: string): unknown
}

function isTarget(x: unknown): x is FocusTarget {
  return typeof x === 'object' && x !== null && typeof (x as FocusTarget).closest === 'function'
}

/**
 * Whether focus going to `next` (a `focusout` event's `relatedTarget`) leaves the date field, so
 * the calendar is to close: it does unless it goes to another part of the field (`inField`) or
 * into the calendar itself (a click on a day or a month arrow focuses the calendar first). Focus
 * going nowhere (`null`: a click on the page's background, the window left) leaves it too.
 */
export function focusLeavesField(next: unknown, inField: (next: FocusTarget) => boolean): boolean {
  if (!isTarget(next)) return true
  return !inField(next) && next.closest(CALENDAR_SELECTOR) === null
}

/** A real day written `yyyy-MM-dd` (2020-02-30 is not). */
function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const d = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text
}

/**
 * The text typed into the date field when it leaves, if it is not a day the field can take: the
 * calendar drops such text (it goes back to the last day, or empty), so the field says what was
 * refused and why instead ("2020-13-45" does not vanish with only "required" said). `null` when the text is empty or a real `yyyy-MM-dd` day.
 */
export function rejectedDate(text: string): string | null {
  const typed = text.trim()
  return typed === '' || isDay(typed) ? null : typed
}
