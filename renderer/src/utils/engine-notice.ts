/**
 * The engine's messages a page shows outside a form (pop-ups, a page or view that could not
 * load), said in Chinese, one mechanism for every page. A page's own sentences come first (the
 * rules it passes: the Server page's routes, the report routes), then the sentences any call may
 * get (below), then a parameter's refusal as the forms' alerts say it (utils/form-alert.ts: a
 * campaign, spot, minisite or panel that cannot be found, the codecs' and write routes' refusals).
 * Every value of the sentence is kept. In English, and for a sentence of another form, the
 * engine's text is given as it is. Until 2026-11-26 these were English on the Chinese screens.
 */
import type { Translate } from '../reports/table'
import { syncText } from '../sync/messages'
import { sayKnown, type SentenceRule } from './field-message'
import { formAlert, type LabelOf } from './form-alert'
import { storageReason } from './storage-reason'

/**
 * The sentences any call may get: a write refused while its endpoint group is answered by a
 * remote profile, a read with no recorded answer offline, a failed or looping forward
 * (engine/sync/modes.ts, forward.ts), the engine shutting down or meeting a fault
 * (engine/index.ts, respond.ts), an expired or unknown access token (engine/auth/token-service.ts),
 * recorded events that could not be read at start (engine/measure/service.ts), and an answer that
 * is not JSON (api/client.ts). `group`, `mode` and `detail` are said in the Sync page's words.
 */
const ANY_CALL: readonly SentenceRule[] = [
  [/^The (\w+) group is answered (?:by|from the recordings of) profile (.+) \((forward|offline) mode\): this write would change a local record, not the one the reads show\. Queue it in the Sync outbox for the remote, or set the \w+ group back to local \(POST (\S+)\)\.$/s,
    'writeRefused', (m) => ({ group: m[1]!, profile: m[2]!, mode: m[3]!, path: m[4]! })],
  [/^Offline from profile (.+): no answer of (\S+) with these parameters was recorded\. Record it in the forward mode while online \(or pull a snapshot\), or answer the (\w+) group locally\.$/s,
    'offlineMissing', (m) => ({ profile: m[1]!, path: m[2]!, group: m[3]! })],
  [/^Forwarding to the remote of profile (.+?) failed \(\w+\): (.*)$/s, 'forwardFailed', (m) => ({ profile: m[1]!, detail: m[2]! })],
  [/^The (\w+) group forwards to profile (.+), whose base_url is this engine itself \((\S+)\): forwarding would loop\. Point the profile at the remote, or answer the group locally\.$/s,
    'forwardLoop', (m) => ({ group: m[1]!, profile: m[2]!, url: m[3]! })],
  [/^The engine is shutting down\.$/, 'shuttingDown', () => ({})],
  [/^The server met an unexpected condition; the cause is in its log\.$/, 'serverError', () => ({})],
  [/^The access token expired at (\S+); request a new one from (\S+?)\.$/, 'tokenExpired', (m) => ({ at: m[1]!, path: m[2]! })],
  [/^The access token is unknown or was revoked; request a new one from (\S+?)\.$/, 'tokenUnknown', (m) => ({ path: m[1]! })],
  [/^The recorded events could not be read at start \((.*)\); reports and tracking wait for the engine to be restarted\.$/s, 'eventsUnreadable', (m) => ({ detail: m[1]! })],
  [/^The engine answered (\d+) with a body that is not JSON\.$/, 'notJson', (m) => ({ status: m[1]! })],
  [/^The data directory (.+) cannot take writes: .+ \((E[A-Z]+)\)\. Nothing of this request was made; reads keep working\. Free space there and send it again\.$/s, 'diskFull', (m) => ({ path: m[1]!, cause: m[2]! })],
]

/** A rule's values in the interface's words: the endpoint group and mode as the Sync page names them, a remote's failure as it says it. */
function localize(named: Record<string, unknown>, t: Translate): Record<string, unknown> {
  const out = { ...named }
  if (typeof named.group === 'string') out.group = t(`sync.modes.group.${named.group}`)
  if (typeof named.mode === 'string') out.mode = t(`sync.modes.mode.${named.mode}`)
  if (typeof named.detail === 'string') out.detail = syncText(named.detail, t, 'zh')
  if (typeof named.cause === 'string') out.reason = storageReason(named.cause, t)
  return out
}

/** A page's own sentences: its rules, their message keys' prefix and how it says their values. */
export interface PageSentences {
  rules: readonly SentenceRule[]
  prefix: string
  say?: (key: string, named: Record<string, unknown>) => string
}

/** `text` in Chinese when it is a sentence of `own` or one any call may get, else null. */
export function knownEngineSentence(text: string, t: Translate, own?: PageSentences): string | null {
  const page = own && sayKnown(text, own.rules, own.prefix, (key, named) => (own.say ? own.say(key, named ?? {}) : t(key, named)))
  return page ?? sayKnown(text, ANY_CALL, 'common.engine', (key, named) => t(key, named && localize(named, t)))
}

/**
 * The engine's message `text` in the language `lang`: Chinese where it is a known sentence, else
 * `text`; `label` names parameters as the page's fields are labelled, `own` are the page's sentences.
 */
export function engineNotice(text: string, t: Translate, lang: string, label: LabelOf, own?: PageSentences): string {
  if (lang !== 'zh') return text
  return knownEngineSentence(text, t, own) ?? formAlert(text, t, lang, label)
}
