/**
 * The problems of an import said in Chinese: a rejected line's reason (an event import's,
 * engine/measure/import.ts and import-run.ts; a panel person import's, engine/measure/panel/) and
 * an import job's message by their problem keys, which the answers tell (api/problems.ts); a full
 * campaign or minisite (engine/measure/ingest.ts), which has no key yet, by its sentence. Columns
 * keep their names (type, ts, identity, person_id ...), as the import cards list them. Every value
 * is kept, so the Chinese says all the English does; the English stays on hover. A message of no
 * known problem, and any in English, is given as it is.
 */
import type { Translate } from '../reports/table'
import { sayKnown, type SentenceRule } from '../utils/field-message'
import { keyedText } from '../utils/problem-text'

/** A part of an import job's message (engine/measure/ingest.ts fullMessage, import-run.ts). */
const JOB_RULES: readonly SentenceRule[] = [
  [/^campaign (\d+) is full: it holds ([\d,]+) events, the most one campaign can hold \(docs\/measurement\.md\)$/, 'fullCampaign', (m) => ({ id: m[1]!, capacity: m[2]! })],
  [/^minisite (\d+) is full: it holds ([\d,]+) events, the most one minisite can hold \(docs\/measurement\.md\)$/, 'fullMinisite', (m) => ({ id: m[1]!, capacity: m[2]! })],
]

/** A rejected line's reason (an event or a panel person import) in the language `lang`: Chinese by its problem, else `error`. */
export function lineErrorText(error: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (keyedText(error, t) ?? error) : error
}

/**
 * An import job's message in the language `lang`: each of its parts ("campaign 3 is full: ...;
 * minisite 2 is full: ...") in Chinese when known, else as it is.
 */
export function importMessageText(message: string, t: Translate, lang: string): string {
  if (lang !== 'zh') return message
  const keyed = keyedText(message, t)
  if (keyed !== null) return keyed
  const whole = sayKnown(message, JOB_RULES, 'server.lineError', t)
  if (whole !== null) return whole
  const parts = message.split('; ').map((part) => sayKnown(part, JOB_RULES, 'server.lineError', t))
  return parts.some((p) => p !== null) ? parts.map((p, i) => p ?? message.split('; ')[i]!).join('；') : message
}
