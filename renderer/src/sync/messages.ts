/**
 * The engine's messages on the Sync page said in Chinese: the refusals of the sync endpoints
 * (profiles, modes, outbox, snapshots) and any other refusal by their problem keys
 * (utils/problem-text.ts), naming the profile form's fields as the form labels them; and the
 * sentences a pull or a push stores (sync/remote-messages.ts: a failed call to the remote, why a
 * pull or push stopped and what it skipped, what a push did with an operation, why the stored
 * secrets cannot be read), which have no problem key and are still read by their sentence. Every
 * value is kept (ids, HTTP statuses, paths, names, the remote's own words); the views keep the
 * engine's English on hover. A sentence of another form, and any in English, is given as it is.
 */
import type { Translate } from '../reports/table'
import { sayKnown } from '../utils/field-message'
import { formAlert } from '../utils/form-alert'
import { keyedText } from '../utils/problem-text'
import { ITEM_RULES, REMOTE_RULES } from './remote-messages'


const RULES = [...REMOTE_RULES, ...ITEM_RULES]

/** The profile form's fields, as the form labels them (sync.form). */
const FORM_LABEL: Readonly<Record<string, string>> = {
  name: 'name', base_url: 'baseUrl', auth_url: 'authUrl', username: 'username', client_id: 'clientId', password: 'password', client_secret: 'clientSecret',
}

const label = (t: Translate) => (param: string) => (FORM_LABEL[param] ? t(`sync.form.${FORM_LABEL[param]}`) : undefined)

/** A rule's values in the interface's words: record kinds, lists, modes, groups, fields, and a reason or a cause (sentences). */
function localize(named: Record<string, unknown>, t: Translate): Record<string, unknown> {
  const word = (v: unknown, key: string) => (typeof v === 'string' ? t(`${key}.${v}`) : v)
  const out: Record<string, unknown> = { ...named, kind: word(named.kind, 'sync.outbox.kind'), list: word(named.list, 'sync.kind'), what: word(named.what, 'syncEngine.what'), mode: word(named.mode, 'sync.modes.mode') }
  if (typeof named.groups === 'string') out.groups = named.groups.split(', ').map((g) => t(`sync.modes.group.${g}`)).join(t('syncEngine.sep'))
  if (typeof named.field === 'string') out.field = label(t)(named.field) ?? named.field
  if (typeof named.ref === 'string') out.ref = t(`sync.outbox.choose.kind.${named.ref}`)
  if (typeof named.reason === 'string') out.reason = said(named.reason, t) ?? named.reason
  // (a cause stands in brackets inside the sentence: said without its full stop)
  if (typeof named.cause === 'string') out.cause = said(named.cause, t)?.replace(/。$/, '') ?? named.cause
  return out
}

const OUTCOME: Readonly<Record<string, string>> = {
  created: 'created', updated: 'updated', reconciled: 'reconciled', failed: 'failed', 'in conflict': 'conflict', 'waiting for a choice': 'choose', blocked: 'blocked',
  'cut off (the next push finds out whether it arrived)': 'not_sent',
}
const OUTCOMES = Object.keys(OUTCOME).map((o) => o.replace(/[()]/g, '\\$&')).join('|')
/** engine/sync/push-jobs.ts: why a push stopped, what it did ("1 created, 2 failed."), and what to do. */
const PUSH_STOPPED = new RegExp(`^(.+?) (Nothing to send|\\d+ (?:${OUTCOMES})(?:, \\d+ (?:${OUTCOMES}))*)\\. What was not sent stays in the outbox; push again to go on\\.$`, 's')

function pushStopped(text: string, t: Translate): string | null {
  const m = PUSH_STOPPED.exec(text)
  if (!m) return null
  const parts = m[2] === 'Nothing to send' ? [t('syncEngine.nothingToSend')] : m[2]!.split(', ').map((p) => {
    const [, n, outcome] = /^(\d+) (.*)$/s.exec(p)!
    return t(`syncEngine.outcome.${OUTCOME[outcome!]}`, { n })
  })
  return t('syncEngine.pushStopped', { reason: said(m[1]!, t) ?? m[1]!, summary: parts.join(t('syncEngine.sep')) })
}

/** engine/sync/pull-jobs.ts: why a pull stopped (if it did), then what it skipped, one sentence each. */
function pullNotes(text: string, t: Translate): string | null {
  const parts = text.split(/ (?=(?:campaign \d+|[a-z]+ list) skipped: )/)
  if (parts.length < 2) return null
  const each = parts.map((p) => said(p, t))
  if (each.every((p) => p === null)) return null
  return each.map((p, i) => p ?? parts[i]!).reduce((first, next) => t('syncEngine.joined', { first, next }))
}

/** `text` in Chinese, or null when no rule knows it. */
function said(text: string, t: Translate): string | null {
  const keyed = keyedText(text, t, { nameOf: (param) => label(t)(param) ?? param, detail: (detail) => said(detail, t) ?? detail })
  if (keyed !== null) return keyed
  const composed = pushStopped(text, t) ?? pullNotes(text, t)
  if (composed !== null) return composed
  const known = sayKnown(text, RULES, 'syncEngine', (key, named) => t(key, named && localize(named, t)))
  if (known !== null) return known
  const field = formAlert(text, t, 'zh', label(t))
  return field === text ? null : field
}

/** An engine sentence of the Sync page in the language `lang`: Chinese where it is a known one, else `text`. */
export function syncText(text: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (said(text, t) ?? text) : text
}
