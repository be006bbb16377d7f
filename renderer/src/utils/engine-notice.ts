/**
 * The engine's messages a page shows outside a form (pop-ups, a page or view that could not
 * load), said in Chinese, one mechanism for every page: a refusal of a known problem by its key
 * (utils/problem-text.ts: what any call may get, such as a write refused while its group is
 * answered by a remote profile, an expired token, a full disk), then a page's own sentences (the
 * rules it passes: the Server page's routes, the report routes), then a parameter's refusal as the
 * forms' alerts say it (utils/form-alert.ts). Every value is kept. In English, and for a sentence
 * of another form, the engine's text is given as it is.
 */
import { problemOf } from '../api/problems'
import type { Translate } from '../reports/table'
import { syncText } from '../sync/messages'
import { sayKnown, type SentenceRule } from './field-message'
import { formAlert, type LabelOf } from './form-alert'
import { paramOf, problemText } from './problem-text'

/** A page's own sentences: its rules, their message keys' prefix and how it says their values. */
export interface PageSentences {
  rules: readonly SentenceRule[]
  prefix: string
  say?: (key: string, named: Record<string, unknown>) => string
}

/**
 * `text` in Chinese when it is a refusal of a known problem other than a parameter's (a
 * forwarded call's failure said as the Sync page says it) or a sentence of `own`, else null.
 */
export function knownEngineSentence(text: string, t: Translate, own?: PageSentences): string | null {
  const p = problemOf(text)
  if (p && paramOf(p) === null) return problemText(p, t, { detail: (detail) => syncText(detail, t, 'zh') })
  return own ? sayKnown(text, own.rules, own.prefix, (key, named) => (own.say ? own.say(key, named ?? {}) : t(key, named))) : null
}

/**
 * The engine's message `text` in the language `lang`: Chinese where it is a known sentence, else
 * `text`; `label` names parameters as the page's fields are labelled, `own` are the page's sentences.
 */
export function engineNotice(text: string, t: Translate, lang: string, label: LabelOf, own?: PageSentences): string {
  if (lang !== 'zh') return text
  return knownEngineSentence(text, t, own) ?? formAlert(text, t, lang, label)
}
