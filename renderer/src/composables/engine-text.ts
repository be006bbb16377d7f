/**
 * The engine's sentences as a screen shows them: `say` puts one in the interface's language
 * (utils/form-alert.ts, sync/messages.ts), and where it said it otherwise, the engine's own words
 * are the hover text (alerts, table cells).
 */
import { h } from 'vue'

export function engineTextOf(say: (text: string) => string) {
  /** The engine's sentence when the screen says it otherwise (hover text), else undefined. */
  const engineText = (text: string): string | undefined => (say(text) === text ? undefined : text)
  /** A table cell of the engine's sentence `text`: said, with the engine's words on hover. */
  const cell = (text: string) => h('span', { title: engineText(text) }, say(text))
  return { say, engineText, cell }
}
