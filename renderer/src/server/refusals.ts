/**
 * The engine's refusals that the Server page's pop-ups show (the panel import, export and demo
 * generator, the event import, the simulator, the rebuild), said in Chinese by their problem keys
 * (utils/engine-notice.ts), with the page's own names of its fields. A toast has no hover: the
 * Chinese is shown alone. In English, and for a refusal of no known problem, the engine's text is
 * given as it is.
 */
import type { Translate } from '../reports/table'
import { engineNotice } from '../utils/engine-notice'

/** The Server page's names of the parameters its pop-ups can be refused for (message keys). */
const LABELS: Readonly<Record<string, string>> = {
  panel_id: 'server.panels.panel', format: 'server.file.format', mode: 'server.panels.mode', persons: 'server.panels.generatePersons',
  from_date: 'server.sim.from', to_date: 'server.sim.to', seed: 'server.sim.seed', scale: 'server.sim.scale',
}

/**
 * The pop-up's text for the engine's refusal `text` in the language `lang`: Chinese for a refusal
 * of a known problem, else `text`.
 */
export function refusalText(text: string, t: Translate, lang: string): string {
  // (the append refusal names the simulator's checkbox as the card labels it)
  const say: Translate = (key, named) => t(key, key === 'problem.sim.append' ? { ...named, option: t('server.sim.append') } : named)
  return engineNotice(text, say, lang, (param) => (LABELS[param] === undefined ? undefined : t(LABELS[param]!)))
}
