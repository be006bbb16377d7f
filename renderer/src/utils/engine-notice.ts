/**
 * The engine's messages a page shows outside a form (pop-ups, a page or view that could not
 * load), said in Chinese by their problem keys (utils/problem-text.ts), one mechanism for every
 * page: what any call may get (a write refused while its group is answered by a remote profile,
 * an expired token, a full disk, the Server page's imports and simulator), and a parameter's
 * refusal as the forms' alerts say it (utils/form-alert.ts). Every value is kept. In English, and
 * for a refusal of no known problem, the engine's text is given as it is.
 */
import { problemOf } from '../api/problems'
import type { Translate } from '../reports/table'
import { syncText } from '../sync/messages'
import { formAlert, type LabelOf } from './form-alert'
import { paramOf, problemText } from './problem-text'

/**
 * `text` in Chinese when it is a refusal of a known problem other than a parameter's (a
 * forwarded call's failure said as the Sync page says it), else null.
 */
export function knownEngineSentence(text: string, t: Translate): string | null {
  const p = problemOf(text)
  return p && paramOf(p) === null ? problemText(p, t, { detail: (detail) => syncText(detail, t, 'zh') }) : null
}

/**
 * The engine's message `text` in the language `lang`: Chinese where it is a refusal of a known
 * problem, else `text`; `label` names parameters as the page's fields are labelled.
 */
export function engineNotice(text: string, t: Translate, lang: string, label: LabelOf): string {
  if (lang !== 'zh') return text
  return knownEngineSentence(text, t) ?? formAlert(text, t, lang, label)
}
