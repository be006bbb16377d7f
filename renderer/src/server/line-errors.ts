/**
 * The engine's problems of an event import said in Chinese (docs/import.md): a rejected line's
 * reason (engine/measure/import.ts, import-run.ts: "spot 9 is not a spot of campaign 1") and a
 * job's message (a full campaign, a file of too many lines). Columns keep their names (type, ts,
 * identity ...), as the import card lists them. Every value of the sentence is kept, so the Chinese
 * says all the English does; the English stays on hover. A sentence of another form, and any in
 * English, is given as it is. Until 2026-11-26 the Chinese interface showed the English.
 */
import type { Translate } from '../reports/table'
import { sayKnown, type SentenceRule } from '../utils/field-message'

const got = (m: RegExpExecArray) => ({ got: m[1]! })

/** A rejected line's reason (LineError), one rule per sentence the engine writes. */
const LINE_RULES: readonly SentenceRule[] = [
  [/^'ts' is missing$/, 'tsMissing', () => ({})],
  [/^'ts' (\d+) has 10 digits, as Unix seconds have/, 'tsSeconds', got],
  [/^'ts' must be milliseconds since 1970 or an ISO 8601 time, got '(.*)'$/s, 'tsFormat', got],
  [/^'ts' is not a real time: '(.*)'$/s, 'tsReal', got],
  [/^'ts' has an impossible offset: '(.*)'$/s, 'tsOffset', got],
  [/^'ts' must lie between 1970 and 2100, got '(.*)'$/s, 'tsRange', got],
  [/^'identity' must be namespace:value with a namespace of (.+?), got '(.*)'$/s, 'identityForm', (m) => ({ list: m[1]!, got: m[2]! })],
  [/^'identity' holds no usable id: '(.*)'$/s, 'identityEmpty', got],
  [/^has no identity: give 'identity', or 'ip' and 'user_agent'$/, 'noIdentity', () => ({})],
  [/^'type' must be impression, click or event, got '(.*)'$/s, 'type', got],
  [/^'region_id' (.*) is not a region$/s, 'region', got],
  [/^'platform' must be pc or mb, got '(.*)'$/s, 'platform', got],
  [/^'sdk' must be mm, mz or none, got '(.*)'$/s, 'sdk', got],
  [/^'(\w+)' must be a positive integer id, got '(.*)'$/s, 'id', (m) => ({ column: m[1]!, got: m[2]! })],
  [/^has neither 'spot_id' nor a valid 'spot_id_str'$/, 'noSpot', () => ({})],
  [/^spot (\d+) is not a spot of campaign (\d+)$/, 'spotOfCampaign', (m) => ({ spot: m[1]!, campaign: m[2]! })],
  [/^keyword (\d+) is not a keyword of spot (\d+)$/, 'keywordOfSpot', (m) => ({ keyword: m[1]!, spot: m[2]! })],
  [/^minisite (\d+) does not exist$/, 'noMinisite', (m) => ({ minisite: m[1]! })],
  [/^event (\d+) is not an event of minisite (\d+)$/, 'eventOfMinisite', (m) => ({ event: m[1]!, minisite: m[2]! })],
  [/^'spot_id_str' is not a spot id, got '(.*)'$/s, 'spotIdStr', got],
  [/^campaign (\d+) is not linked to minisite (\d+)$/, 'campaignOfMinisite', (m) => ({ campaign: m[1]!, minisite: m[2]! })],
  [/^'(\w+)' needs 'campaign_id' on an event line$/, 'needsCampaign', (m) => ({ column: m[1]! })],
  [/^has (\d+) fields, the header (\d+)$/, 'fieldCount', (m) => ({ n: m[1]!, header: m[2]! })],
  [/^is not a JSON object \((.*)\)$/s, 'json', (m) => ({ detail: m[1]! })],
]

/** A part of an import job's message (engine/measure/ingest.ts fullMessage, import-run.ts). */
const JOB_RULES: readonly SentenceRule[] = [
  [/^campaign (\d+) is full: it holds ([\d,]+) events, the most one campaign can hold \(docs\/measurement\.md\)$/, 'fullCampaign', (m) => ({ id: m[1]!, capacity: m[2]! })],
  [/^minisite (\d+) is full: it holds ([\d,]+) events, the most one minisite can hold \(docs\/measurement\.md\)$/, 'fullMinisite', (m) => ({ id: m[1]!, capacity: m[2]! })],
  [/^The 'body' has more than (\d+) lines; split the file\.?$/, 'tooManyLines', (m) => ({ max: m[1]! })],
]

/** A rejected line's reason in the language `lang`: Chinese for a known sentence, else `error`. */
export function lineErrorText(error: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (sayKnown(error, LINE_RULES, 'server.lineError', t) ?? error) : error
}

/**
 * An import job's message in the language `lang`: each of its parts ("campaign 3 is full: ...;
 * minisite 2 is full: ...") in Chinese when known, else as it is.
 */
export function importMessageText(message: string, t: Translate, lang: string): string {
  if (lang !== 'zh') return message
  const whole = sayKnown(message, JOB_RULES, 'server.lineError', t)
  if (whole !== null) return whole
  const parts = message.split('; ').map((part) => sayKnown(part, JOB_RULES, 'server.lineError', t))
  return parts.some((p) => p !== null) ? parts.map((p, i) => p ?? message.split('; ')[i]!).join('；') : message
}
