/**
 * Decisions behind the accessibility layer (a11y/patch.ts), kept pure so they are tested without
 * a browser (test/renderer/a11y/rules.test.ts).
 */

/**
 * The tab a key moves to in a tab strip (WAI-ARIA tabs pattern): ArrowRight/ArrowDown next,
 * ArrowLeft/ArrowUp previous (both wrap around), Home first, End last, skipping disabled tabs.
 * `null` for any other key, or when no other tab can take it.
 */
export function tabKeyTarget(key: string, current: number, disabled: readonly boolean[]): number | null {
  const n = disabled.length
  if (n === 0) return null
  const enabled = (i: number): boolean => !disabled[i]
  const scan = (from: number, step: 1 | -1): number | null => {
    for (let k = 0, i = from; k < n; k++, i = (i + step + n) % n) if (enabled(i)) return i
    return null
  }
  let found: number | null
  switch (key) {
    case 'ArrowRight': case 'ArrowDown': found = scan((current + 1) % n, 1); break
    case 'ArrowLeft': case 'ArrowUp': found = scan((current - 1 + n) % n, -1); break
    case 'Home': found = scan(0, 1); break
    case 'End': found = scan(n - 1, -1); break
    default: return null
  }
  return found === current ? null : found
}

/** Roving tabindex: the selected tab (else the first enabled one) is the strip's one Tab stop. */
export function rovingIndex(selected: number, disabled: readonly boolean[]): number {
  if (selected >= 0 && !disabled[selected]) return selected
  const first = disabled.findIndex((d) => !d)
  return first < 0 ? 0 : first
}

/**
 * The accessible name of a control inside a labelled form item. One control: the label itself
 * (`null`: use aria-labelledby, so the name follows the label when the language changes). Several
 * controls under one label (a product's three parts): "label: placeholder", else "label n".
 */
export function fieldName(label: string, placeholder: string | null, index: number, count: number): string | null {
  if (count <= 1) return null
  const part = placeholder?.trim()
  return part ? `${label.trim()}: ${part}` : `${label.trim()} ${index + 1}`
}

/** The visible text of a form item's label, without the required mark. */
export function labelText(text: string): string {
  return text.replace(/[\s\u00a0]*\*[\s\u00a0]*$/, '').trim()
}

/**
 * The accessible name of a row's button: the action and the row it acts on ("Edit Banner 1"),
 * since every row repeats the same buttons. The visible text stays the action alone.
 */
export function rowActionName(action: string, row: string): string {
  const name = row.trim()
  return name ? `${action} ${name}` : action
}
