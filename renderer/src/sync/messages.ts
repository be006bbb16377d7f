/**
 * The engine's sentences on the Sync page said in Chinese (sync/remote-messages.ts lists those of
 * pulls and pushes): a failed call to the remote, why a pull or push stopped and what it skipped,
 * what a push did with an operation, and the refusals of the sync endpoints (profiles, modes,
 * outbox, snapshots; engine/sync/*.ts, engine/routes/sync.ts), and why the stored secrets cannot be
 * read (the key file's mode or size, an OS error kept as it is; engine/sync/secrets.ts), which a
 * pull's status and "Test connection" carry. A field's refusal by a codec is
 * said as the forms say it (utils/form-alert.ts). Every value of a sentence is kept (ids, HTTP
 * statuses, paths, names, the remote's own words); the views keep the engine's English on hover.
 * A sentence of another form, and any in English, is given as it is.
 */
import type { Translate } from '../reports/table'
import { sayKnown, type SentenceRule } from '../utils/field-message'
import { formAlert } from '../utils/form-alert'
import { keyedText } from '../utils/problem-text'
import { ITEM_RULES, REMOTE_RULES } from './remote-messages'

const KIND = '(campaign|spot|target)'
const none = () => ({})
const id = (m: RegExpExecArray) => ({ id: m[1]! })
const kindId = (m: RegExpExecArray) => ({ kind: m[1]!, id: m[2]! })
const name = (m: RegExpExecArray) => ({ name: m[1]! })

/** The refusals of the sync endpoints (badParam: "The '<param>' <problem>."). */
const API_RULES: readonly SentenceRule[] = [
  [/^The 'profile_id' names no remote profile \((.*)\)\.$/, 'noProfile', id],
  [/^The '(base_url|auth_url)' must not carry a user name or password; use the profile fields\.$/, 'urlCredentials', (m) => ({ field: m[1]! })],
  [/^The '(base_url|auth_url)' must not carry a query or a fragment, got '(.*)'; write the service's address only\.$/, 'urlQuery', (m) => ({ field: m[1]!, got: m[2]! })],
  [/^The 'name' is already the name of profile (.*)\.$/s, 'nameTaken', name],
  [/^The 'op_id' names no outbox operation \((.*)\)\.$/, 'noOp', id],
  [new RegExp(`^The '(?:local_id|remote_id)' has no pulled copy of remote ${KIND} (\\S*) for this profile: pull first, so that changes at the remote can be told apart\\.$`), 'notPulled', kindId],
  [new RegExp(`^The 'local_id' was pushed already as remote ${KIND} (\\S+): queue an update instead\\.$`), 'pushedAlready', kindId],
  [/^The 'local_id' has not been pushed to this profile yet: queue a create\.$/, 'notPushed', none],
  [/^The 'local_id' is being sent \(operation (\d+), outcome unknown\): push again before queuing it anew\.$/, 'sendingQueue', id],
  [/^The 'op_id' is being sent \(outcome unknown\): push again before editing it\.$/, 'sendingOpEdit', none],
  [/^The 'op_id' is being sent \(outcome unknown\): push again first\.$/, 'sendingOp', none],
  [new RegExp(`^The 'local_id' names no local ${KIND} \\((.*)\\)\\.$`), 'noLocal', kindId],
  [/^The 'params' member '(.*)' is not a parameter of (\S+)\.$/, 'notParam', (m) => ({ name: m[1]!, path: m[2]! })],
  [/^The 'params' lacks (.*) \(required by (\S+)\)\.$/, 'lacks', (m) => ({ names: m[1]!, path: m[2]! })],
  [/^The 'params' holds no change to send\.$/, 'noChange', none],
  [new RegExp(`^The 'local_id' differs in no field from the pulled copy of remote ${KIND} (\\S+): nothing to send\\.$`), 'noDiff', kindId],
  [/^The 'params' holds a brand without its advertiser \(advertiser_name or advertiser_id\): a brand is found within its advertiser\.$/, 'brandAlone', none],
  [/^The 'params' holds (\w+)=(.*), which names no pulled (advertiser|agency|brand)(?: of the advertiser)?\.$/s, 'notPulledRef', (m) => ({ param: m[1]!, value: m[2]!, ref: m[3]! })],
  [/^The 'params' member '(.*)' is not a reference waiting for a choice \((.*)\)\.$/, 'notWaiting', (m) => ({ name: m[1]!, waiting: m[2]! })],
  [/^The 'op_id' waits for no choice \(state (\w+)\)\.$/, 'noChoice', (m) => ({ state: m[1]! })],
  [/^The 'params' is required to choose \(advertiser_id=REMOTE_ID&\.\.\.\)\.$/, 'needChoice', none],
  [/^The 'op' cannot be update for a target: the service has no target update \(publish_target creates\)\.$/, 'noTargetUpdate', none],
  [/^The 'params' (.+) need add_slot \(the plan days\)\.$/, 'needSlot', (m) => ({ names: m[1]! })],
  [/^The 'params' is required without local_id\.$/, 'needParams', none],
  [/^The 'params' is required to edit\.$/, 'needParamsEdit', none],
  [/^The 'remote_id' is required for an update without local_id\.$/, 'needRemoteId', none],
  [/^The 'campaign_id' is required for a (spot|target) create without local_id \(the remote campaign\)\.$/, 'needCampaign', (m) => ({ kind: m[1]! })],
  [/^The 'campaign_id' names no pulled campaign of profile (\d+) \((.*)\)\.$/, 'noPulledCampaign', (m) => ({ profile: m[1]!, id: m[2]! })],
  [/^The 'params' would be refused by (\S+): (.*)\.$/s, 'refusedBy', (m) => ({ path: m[1]!, reason: `${m[2]!}.` })],
  [/^The 'params' must hold campaign_id, a remote campaign id\.$/, 'needCampaignId', none],
  [/^The 'params' must hold date, written YYYY-MM-DD\.$/, 'needDate', none],
  [/^The 'params' must not hold (\w+)\.$/, 'mustNotHold', name],
  [/^The 'params' names (\w+) twice\.$/, 'twice', name],
  [/^The '(\w+)' is not a parameter of (\S+)\.$/, 'notParam', (m) => ({ name: m[1]!, path: m[2]! })],
  [/^The 'to_date' must not be before the date in params \((\S+)\)\.$/, 'toDateBefore', (m) => ({ date: m[1]! })],
  [/^The 'to_date' spans more than (\d+) days\.$/, 'tooManyDays', (m) => ({ max: m[1]! })],
  [/^The 'snapshot_id' names no snapshot \((.*)\)\.$/, 'noSnapshot', id],
]

const RULES = [...REMOTE_RULES, ...ITEM_RULES, ...API_RULES]

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
