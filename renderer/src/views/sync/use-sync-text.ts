/**
 * The engine's sentences on the Sync page in the interface's language (sync/messages.ts), and the
 * engine's own words for the hover text where they were said otherwise (alerts, table cells).
 */
import { h } from 'vue'
import { useI18n } from 'vue-i18n'
import { syncText } from '../../sync/messages'

export function useSyncText() {
  const { t, locale } = useI18n()
  /** The engine's sentence `text` as the page shows it. */
  const say = (text: string): string => syncText(text, t, locale.value)
  /** The engine's sentence when the page says it otherwise (hover text), else undefined. */
  const engineText = (text: string): string | undefined => (say(text) === text ? undefined : text)
  /** A table cell of the engine's sentence `text`: said, with the engine's words on hover. */
  const cell = (text: string) => h('span', { title: engineText(text) }, say(text))
  return { say, engineText, cell }
}
