/**
 * The engine's refusal of a save as a whole, said in Chinese for the alert above a form (the
 * campaign form, the spot editor, the keyword, target, plan and minisite dialogs): by its problem
 * key (utils/problem-text.ts), a parameter's problem naming its field as the screen labels it. In
 * English, and for a refusal of no known problem, the engine's text is given as it is.
 */
import type { Translate } from '../reports/table'
import { keyedText } from './problem-text'

/** The screen's label of a wire parameter, or undefined where the screen has none. */
export type LabelOf = (param: string) => string | undefined

/** Parameters the screens name without a field of their own (common.alert.param). */
const OWN_NAMES: ReadonlySet<string> = new Set(['campaign_id', 'spot_id', 'spot_id_str', 'keyword_id', 'minisite_id', 'target_name', 'minisite_name'])

/** How the alert names a parameter: the screen's label, the screens' word for it, or the wire name. */
function nameOf(param: string, t: Translate, label: LabelOf): string {
  return label(param) ?? (OWN_NAMES.has(param) ? t(`common.alert.param.${param}`) : param)
}

/**
 * The alert's text for the engine's message `text` in the language `lang`; `label` names the
 * form's fields as the screen does.
 */
export function formAlert(text: string, t: Translate, lang: string, label: LabelOf): string {
  if (lang !== 'zh') return text
  return keyedText(text, t, { nameOf: (param) => nameOf(param, t, label) }) ?? text
}
