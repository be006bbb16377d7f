/**
 * The engine's messages on the Sync page said in Chinese: the refusals of the sync endpoints
 * (profiles, modes, outbox, snapshots) and what a pull or a push stores (a failed call to the
 * remote, why a pull or a push stopped and what it skipped, what a push did with an operation,
 * "Test connection"'s answer) by their problem keys (utils/problem-text.ts; the answers tell them,
 * api/problems.ts), naming the profile form's fields as the form labels them. Every value is kept
 * (ids, HTTP statuses, paths, names, the remote's own words); the views keep the engine's English
 * on hover. A message of no key (one stored before the engine kept its problem, or a fault's own
 * words) is given as it is.
 */
import type { Translate } from '../reports/table'
import { formAlert } from '../utils/form-alert'
import { keyedText } from '../utils/problem-text'

/** The profile form's fields, as the form labels them (sync.form). */
const FORM_LABEL: Readonly<Record<string, string>> = {
  name: 'name', base_url: 'baseUrl', auth_url: 'authUrl', username: 'username', client_id: 'clientId', password: 'password', client_secret: 'clientSecret',
}

const label = (t: Translate) => (param: string) => (FORM_LABEL[param] ? t(`sync.form.${FORM_LABEL[param]}`) : undefined)

/** `text` in Chinese, or null when its problem is not known. */
function said(text: string, t: Translate): string | null {
  const keyed = keyedText(text, t, { nameOf: (param) => label(t)(param) ?? param, detail: (detail) => said(detail, t) ?? detail })
  if (keyed !== null) return keyed
  const field = formAlert(text, t, 'zh', label(t))
  return field === text ? null : field
}

/** An engine sentence of the Sync page in the language `lang`: Chinese where its problem is known, else `text`. */
export function syncText(text: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (said(text, t) ?? text) : text
}
