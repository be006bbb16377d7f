/**
 * Fills in what naive-ui leaves out for assistive technology and the keyboard, in one place for
 * every screen (docs/app.md, "Accessibility"): tab strips get the WAI-ARIA tabs roles and a roving
 * tabindex; form controls get the name of their form item's label (or of an `aria-label` given to
 * the component, which naive-ui leaves on its outer div); selects are comboboxes without the
 * spinner's constant "loading"; dialogs and drawers are named by their title; close buttons speak
 * the interface language. Each function only writes an attribute whose value differs, so running
 * it again is cheap and does not feed the observer (install.ts).
 */
import { fieldName, labelText, rovingIndex } from './rules'

let ids = 0
/** The element's id, given one when it has none. */
function idOf(el: Element): string {
  if (!el.id) el.id = `a11y-${++ids}`
  return el.id
}

function set(el: Element, name: string, value: string | null): void {
  if (value === null) { if (el.hasAttribute(name)) el.removeAttribute(name) } else if (el.getAttribute(name) !== value) el.setAttribute(name, value)
}

/** Tab strips: role=tablist/tab, aria-selected, aria-disabled and one Tab stop per strip. */
export function patchTabs(root: ParentNode): void {
  for (const list of root.querySelectorAll('.n-tabs-wrapper')) {
    set(list, 'role', 'tablist')
    const tabs = [...list.querySelectorAll('.n-tabs-tab')]
    for (const w of list.querySelectorAll('.n-tabs-tab-wrapper, .n-tabs-tab-pad, .n-tabs-scroll-padding, .n-tabs-bar')) set(w, 'role', 'presentation')
    const disabled = tabs.map((tab) => tab.classList.contains('n-tabs-tab--disabled'))
    const stop = rovingIndex(tabs.findIndex((tab) => tab.classList.contains('n-tabs-tab--active')), disabled)
    tabs.forEach((tab, i) => {
      set(tab, 'role', 'tab')
      set(tab, 'aria-selected', tab.classList.contains('n-tabs-tab--active') ? 'true' : 'false')
      set(tab, 'aria-disabled', disabled[i] ? 'true' : null)
      set(tab, 'tabindex', i === stop ? '0' : '-1')
    })
  }
}

const WIDGETS = '.n-input, .n-base-selection'

const OUTER = '.n-select, .n-date-picker, .n-input-number, .n-auto-complete'
/** The component's root element, where naive-ui leaves attributes such as `aria-label`. */
const outerOf = (w: Element): Element => w.closest(OUTER) ?? w

/** The elements of a naive-ui input or select that take focus (or stand for it). */
function targetsOf(widget: Element): Element[] {
  const out: Element[] = []
  if (widget.matches('.n-input[tabindex="0"]')) out.push(widget) // a date picker: the box is focused, the text activated
  if (widget.matches('.n-base-selection')) out.push(...widget.querySelectorAll('.n-base-selection-label, .n-base-selection-tags, input'))
  else out.push(...widget.querySelectorAll('input, textarea'))
  return out
}

/** The focusable parts of a select: a combobox with its popup state; the idle spinner is silent. */
export function patchSelects(root: ParentNode): void {
  for (const sel of root.querySelectorAll('.n-base-selection')) {
    const expanded = sel.classList.contains('n-base-selection--active') ? 'true' : 'false'
    for (const el of sel.querySelectorAll('.n-base-selection-label[tabindex], .n-base-selection-tags[tabindex]')) {
      set(el, 'role', 'combobox')
      set(el, 'aria-haspopup', 'listbox')
      set(el, 'aria-expanded', expanded)
      set(el, 'aria-disabled', sel.classList.contains('n-base-selection--disabled') ? 'true' : null)
    }
    for (const el of sel.querySelectorAll('.n-base-loading[aria-label]')) set(el, 'aria-hidden', 'true')
  }
}

/** Names a control: an `aria-label` of our own, or a reference to the label; never one set by a screen. */
function name(el: Element, label: string | null, labelledBy: string | null): void {
  const owned = el.hasAttribute('data-a11y-name')
  if (!owned && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))) return
  set(el, 'data-a11y-name', '')
  set(el, 'aria-label', label)
  set(el, 'aria-labelledby', labelledBy)
}

/** The hint a widget shows while empty (an input's placeholder, a select's overlay text). */
function placeholderOf(w: Element): string | null {
  return w.querySelector('input, textarea')?.getAttribute('placeholder') || w.querySelector('.n-base-selection-placeholder')?.textContent || null
}

/** Controls inside a labelled form item are named by that label. */
export function patchFormItems(root: ParentNode): void {
  for (const item of root.querySelectorAll('.n-form-item')) {
    const label = item.querySelector(':scope > .n-form-item-label')
    const blank = item.querySelector(':scope > .n-form-item-blank')
    if (!label || !blank) continue
    const text = labelText(label.textContent ?? '')
    if (!text) continue
    const widgets = [...blank.querySelectorAll(WIDGETS)].filter((w) => !w.parentElement?.closest(WIDGETS) && w.closest('.n-form-item') === item && !outerOf(w).hasAttribute('aria-label'))
    const named = label.querySelector('.n-form-item-label__text') ?? label
    widgets.forEach((w, i) => {
      const own = fieldName(text, placeholderOf(w), i, widgets.length)
      for (const el of targetsOf(w)) name(el, own, own ? null : idOf(named))
    })
  }
}

/** An `aria-label` given to a naive-ui input, select or date picker lands on its outer div: copy it to the focusable parts. */
export function patchLabelledWidgets(root: ParentNode): void {
  for (const outer of root.querySelectorAll(`${OUTER.split(', ').map((c) => `${c}[aria-label]`).join(', ')}, .n-input[aria-label]`)) {
    const label = outer.getAttribute('aria-label')
    const widgets = outer.matches(WIDGETS) ? [outer] : [...outer.querySelectorAll(WIDGETS)]
    for (const w of widgets) for (const el of targetsOf(w)) if (el !== outer) name(el, label, null)
  }
}

const TITLES = ':scope > .n-dialog__title, :scope > .n-card-header .n-card-header__main, .n-drawer-header__main'

/** Words the patches add, in the interface language. */
export interface A11yWords {
  close: string
  increase: string
  decrease: string
}

/** The steppers of number boxes. */
export function patchSteppers(root: ParentNode, words: A11yWords): void {
  for (const box of root.querySelectorAll('.n-input-number')) {
    const buttons = [...box.querySelectorAll('.n-input__prefix .n-button, .n-input__suffix .n-button')]
    if (buttons.length !== 2) continue // naive-ui draws minus then add (left of or beside the box)
    set(buttons[0]!, 'aria-label', words.decrease)
    set(buttons[1]!, 'aria-label', words.increase)
  }
}

/** Dialogs, cards shown as modals and drawers are named by their title; close buttons in the interface language. */
export function patchDialogs(root: ParentNode, closeLabel: string): void {
  for (const dialog of root.querySelectorAll('.n-dialog.n-modal, .n-card.n-modal, [role=dialog]')) {
    set(dialog, 'role', 'dialog')
    const body = dialog.matches('.n-dialog') ? dialog.querySelector(':scope > .n-dialog__content') : null
    if (body && !dialog.hasAttribute('aria-describedby')) set(dialog, 'aria-describedby', idOf(body))
    if (dialog.hasAttribute('aria-label') || (dialog.hasAttribute('aria-labelledby') && !dialog.hasAttribute('data-a11y-name'))) continue
    const title = dialog.querySelector(TITLES)
    if (!title?.textContent?.trim()) continue
    set(dialog, 'data-a11y-name', '')
    set(dialog, 'aria-labelledby', idOf(title))
  }
  for (const close of root.querySelectorAll('.n-base-close')) if (!close.hasAttribute('data-a11y-keep')) set(close, 'aria-label', closeLabel)
}

/** Sortable column headers take focus (Enter or Space sorts: install.ts) and say their order. */
export function patchSortHeaders(root: ParentNode): void {
  for (const th of root.querySelectorAll('th.n-data-table-th--sortable')) {
    set(th, 'tabindex', '0')
    const sorter = th.querySelector('.n-data-table-sorter')
    set(th, 'aria-sort', sorter?.classList.contains('n-data-table-sorter--asc') ? 'ascending' : sorter?.classList.contains('n-data-table-sorter--desc') ? 'descending' : 'none')
  }
}

/**
 * naive-ui marks a card's whole header a heading, around the title's own heading, so the outer
 * heading's name took in the controls beside the title (the sign-in card's "Sign in Language
 * English", the plan dialog's buttons): only the title stays a heading.
 */
export function patchCardHeadings(root: ParentNode): void {
  for (const header of root.querySelectorAll('.n-card-header[role=heading]')) {
    if (header.querySelector(':scope > .n-card-header__main[role=heading]')) set(header, 'role', 'none')
  }
}

/** Every patch, over the whole page. */
export function patchAll(root: ParentNode, words: A11yWords): void {
  patchTabs(root)
  patchCardHeadings(root)
  patchSortHeaders(root)
  patchSelects(root)
  patchLabelledWidgets(root)
  patchFormItems(root)
  patchSteppers(root, words)
  patchDialogs(root, words.close)
}
