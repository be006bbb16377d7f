/**
 * The engine's problems of an import said in Chinese: a rejected line's reason, of an event import
 * (docs/import.md; engine/measure/import.ts, import-run.ts: "spot 9 is not a spot of campaign 1")
 * or of a panel person import (docs/panel.md; engine/measure/panel/parse.ts, check.ts, person.ts,
 * import.ts: "the tag 'x' is not a tag of panel p"), and an event import job's message (a full
 * campaign, a file of too many lines). Columns keep their names (type, ts, identity, person_id
 * ...), as the import cards list them. Every value of the sentence is kept, so the Chinese says
 * all the English does; the English stays on hover. A sentence of another form, and any in
 * English, is given as it is.
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

const device = (m: RegExpExecArray) => ({ device: m[1]! })

/**
 * A rejected line's reason in a panel person import (engine/measure/panel/: parse.ts reads the
 * line's shape, check.ts and person.ts its values, import.ts the duplicates across lines).
 */
const PANEL_LINE_RULES: readonly SentenceRule[] = [
  [/^'(\w+)' is missing$/, 'missing', (m) => ({ column: m[1]! })],
  [/^'(\w+)' must be a string, got (.*)$/s, 'string', (m) => ({ column: m[1]!, got: m[2]! })],
  [/^'(\w+)' must be an array of strings$/, 'strings', (m) => ({ column: m[1]! })],
  [/^'devices' must be an array of \{device, platform\} objects$/, 'devices', () => ({})],
  [/^'devices\[(\d+)\]' must be an object \{"device": "\.\.\.", "platform": "pc" or "mb"\}$/, 'deviceObject', (m) => ({ index: m[1]! })],
  [/^malformed JSON \((.*)\)$/s, 'json', (m) => ({ detail: m[1]! })],
  [/^must be a JSON object$/, 'object', () => ({})],
  [/^'weight' must be a number, got the string (.*)$/s, 'weightString', got],
  [/^'weight' must be a number, got (?:'(.*)'|(.*))$/s, 'weight', (m) => ({ got: m[1] ?? m[2]! })],
  [/^'weight' must be a number above 0 and at most (\d+), got (.*)$/s, 'weightRange', (m) => ({ max: m[1]!, got: m[2]! })],
  [/^'person_id' must be 1-64 ASCII letters, digits or _ \. : @ -, got '(.*)'$/s, 'personId', got],
  [/^'home_region' (.*) is not a region id \(see (\S+)\)$/s, 'region', (m) => ({ got: m[1]!, list: m[2]! })],
  [/^has a quoted field without its closing quote$/, 'openQuote', () => ({})],
  [/^has text after a closing quote$/, 'afterQuote', () => ({})],
  [/^has (\d+) fields, the header has (\d+)$/, 'fieldCount', (m) => ({ n: m[1]!, header: m[2]! })],
  [/^the tag '(.*)' is not a tag of panel (\S+)$/s, 'tagOfPanel', (m) => ({ tag: m[1]!, panel: m[2]! })],
  [/^names the tag '(.*)' twice$/s, 'tagTwice', (m) => ({ tag: m[1]! })],
  [/^has two tags of the type (\S+) \('(.*)' and '(.*)'\); a person has at most one tag of each type$/s, 'tagType', (m) => ({ type: m[1]!, first: m[2]!, second: m[3]! })],
  [/^has (\d+) devices; at most (\d+)$/, 'deviceCount', (m) => ({ n: m[1]!, max: m[2]! })],
  [/^the device '(.*)' must be written pc:<device> or mb:<device>$/s, 'devicePrefix', device],
  [/^the device '(.*)' has the platform '(.*)'; write pc or mb$/s, 'platform', (m) => ({ device: m[1]!, platform: m[2]! })],
  [/^names the device '(.*)' twice$/s, 'deviceTwice', device],
  [/^the device '(.*)' is not an amid cookie: its value is 32 hexadecimal digits$/s, 'amid', device],
  [/^the device '(.*)' must be written namespace:value with a namespace of (.+)$/s, 'namespace', (m) => ({ device: m[1]!, list: m[2]! })],
  [/^the device '(.*)' holds no device id \(empty, a placeholder, only zeros, spaces, or over (\d+) characters\)$/s, 'deviceEmpty', (m) => ({ device: m[1]!, max: m[2]! })],
  [/^the device '(.*)' contains '\|', which separates devices in CSV files$/s, 'devicePipe', device],
  [/^the device '(.*)' is a mobile device id; its platform is mb$/s, 'mobile', device],
  [/^the person_id '(.*)' is also on line (\d+)$/s, 'personTwice', (m) => ({ person: m[1]!, line: m[2]! })],
  [/^the device '(.*)' is also on line (\d+); a device belongs to one person$/s, 'deviceLine', (m) => ({ device: m[1]!, line: m[2]! })],
  [/^the device '(.*)' belongs to the person '(.*)' of panel (\S+); a device belongs to one person$/s, 'deviceOwner', (m) => ({ device: m[1]!, person: m[2]!, panel: m[3]! })],
]

/** Which import a rejected line comes from: its reasons are of another set. */
export type LineKind = 'events' | 'panel'

const LINE_SETS: Record<LineKind, readonly [readonly SentenceRule[], string]> = {
  events: [LINE_RULES, 'server.lineError'],
  panel: [PANEL_LINE_RULES, 'server.panelLineError'],
}

/** A part of an import job's message (engine/measure/ingest.ts fullMessage, import-run.ts). */
const JOB_RULES: readonly SentenceRule[] = [
  [/^campaign (\d+) is full: it holds ([\d,]+) events, the most one campaign can hold \(docs\/measurement\.md\)$/, 'fullCampaign', (m) => ({ id: m[1]!, capacity: m[2]! })],
  [/^minisite (\d+) is full: it holds ([\d,]+) events, the most one minisite can hold \(docs\/measurement\.md\)$/, 'fullMinisite', (m) => ({ id: m[1]!, capacity: m[2]! })],
  [/^The 'body' has more than (\d+) lines; split the file\.?$/, 'tooManyLines', (m) => ({ max: m[1]! })],
]

/**
 * A rejected line's reason, of an import of `kind`, in the language `lang`: Chinese for a known
 * sentence, else `error`.
 */
export function lineErrorText(error: string, t: Translate, lang: string, kind: LineKind = 'events'): string {
  if (lang !== 'zh') return error
  const [rules, prefix] = LINE_SETS[kind]
  return sayKnown(error, rules, prefix, t) ?? error
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
