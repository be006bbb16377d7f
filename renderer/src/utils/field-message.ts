/**
 * The engine's refusal of one field ("The 'campaign_name' is longer than 255 characters") said
 * short, in the interface's language, for the form that shows it beside the field's label: by its
 * problem key (utils/problem-text.ts), without the field's name. In English, and for a refusal of
 * no known problem, the engine's own text is kept.
 */
import { problemOf } from '../api/problems'
import type { Translate } from '../reports/table'
import type { LabelOf } from './form-alert'
import { paramOf, problemText } from './problem-text'

/**
 * `text` said in Chinese when `lang` is zh and it is a parameter's refusal of a known problem (a
 * value's problem short); else `text`. A sentence that names parameters (its own field, or
 * another: "end_date is earlier than start_date") names them by `label`, the screen's labels,
 * and by the wire name where it has none.
 */
export function fieldMessage(text: string, t: Translate, lang: string, label: LabelOf = () => undefined): string {
  const p = lang === 'zh' ? problemOf(text) : null
  return p && paramOf(p) !== null ? problemText(p, t, { nameOf: (param) => label(param) ?? param }) : text
}
