/**
 * Runs the accessibility patches (patch.ts) over the page whenever it changes, at most every 50 ms,
 * and gives tab strips and sortable headers their keys: arrows, Home and End move to a tab and open it (automatic
 * activation), Enter and Space open the focused one. Installed once by App.vue.
 */
import { patchAll, type A11yWords } from './patch'
import { tabKeyTarget } from './rules'

/** Enter or Space on a focused sortable header sorts by it, as a click does. */
function onHeaderKey(e: KeyboardEvent): boolean {
  const th = e.target instanceof HTMLElement && e.target.matches('th.n-data-table-th--sortable') ? e.target : null
  if (!th || (e.key !== 'Enter' && e.key !== ' ')) return false
  e.preventDefault()
  th.click()
  return true
}

function onTabKey(e: KeyboardEvent): void {
  if (onHeaderKey(e)) return
  const tab = e.target instanceof HTMLElement ? e.target.closest<HTMLElement>('[role=tab].n-tabs-tab') : null
  const list = tab?.closest('[role=tablist]')
  if (!tab || !list || e.altKey || e.ctrlKey || e.metaKey) return
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault()
    tab.click()
    return
  }
  const tabs = [...list.querySelectorAll<HTMLElement>('[role=tab].n-tabs-tab')]
  const next = tabKeyTarget(e.key, tabs.indexOf(tab), tabs.map((t) => t.getAttribute('aria-disabled') === 'true'))
  const target = next === null ? undefined : tabs[next]
  if (!target) return
  e.preventDefault()
  for (const t of tabs) t.setAttribute('tabindex', t === target ? '0' : '-1')
  target.focus()
  target.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  target.click()
}

/** Patches `root` now and after every change below it; returns the function that stops it. */
export function installA11y(root: HTMLElement, words: () => A11yWords): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  const run = (): void => {
    timer = null
    patchAll(root, words())
  }
  const observer = new MutationObserver(() => { timer ??= setTimeout(run, 50) })
  observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['class', 'placeholder', 'aria-label'] })
  root.addEventListener('keydown', onTabKey)
  const onFocus = (e: FocusEvent): void => {
    if (e.target instanceof HTMLElement && e.target.matches('[role=tab].n-tabs-tab')) e.target.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  }
  root.addEventListener('focusin', onFocus)
  run()
  return () => {
    observer.disconnect()
    root.removeEventListener('keydown', onTabKey)
    root.removeEventListener('focusin', onFocus)
    if (timer) clearTimeout(timer)
  }
}
