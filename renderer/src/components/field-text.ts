/**
 * What a field says about text it would otherwise change without a word: a number box drops
 * text that is not a number, and a length limit (`maxlength`) cuts pasted text. Pure; tested in
 * test/renderer/components/field-text.test.ts.
 */

/**
 * Text typed into a number box that naive-ui's number input drops (it goes back to its last number):
 * the typed text when it is not empty and not a number (thousands separators allowed), else null.
 */
export function rejectedNumber(text: string): string | null {
  const typed = text.trim()
  if (typed === '') return null
  return Number.isFinite(Number(typed.replace(/[,\s]/g, ''))) ? null : typed
}

/**
 * A text box's count, "12 / 255", in characters as the engine counts them (code points). Shown
 * instead of a `maxlength` that cut pasted text: a longer text stays, and the form's length rule
 * says what is wrong.
 */
export function lengthCount(value: string, max: number): string {
  return `${[...value].length} / ${max}`
}
