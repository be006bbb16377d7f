/**
 * The problems of an import said in Chinese: a rejected line's reason and an import job's message
 * by their problem keys, where the answer tells them (api/problems.ts: an event import's lines, a
 * panel import's quote problems, a job that failed on a refusal); a panel import's other line
 * reasons (engine/measure/panel/: parse.ts, check.ts, person.ts, import.ts: "the tag 'x' is not a
 * tag of panel p") and a full campaign or minisite (engine/measure/ingest.ts) by their sentences,
 * which have no key yet. Columns keep their names (type, ts, identity, person_id ...), as the
 * import cards list them. Every value is kept, so the Chinese says all the English does; the
 * English stays on hover. A sentence of another form, and any in English, is given as it is.
 */
import type { Translate } from '../reports/table'
import { sayKnown, type SentenceRule } from '../utils/field-message'
import { keyedText } from '../utils/problem-text'

const got = (m: RegExpExecArray) => ({ got: m[1]! })
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
  events: [[], 'server.lineError'],
  panel: [PANEL_LINE_RULES, 'server.panelLineError'],
}

/** A part of an import job's message (engine/measure/ingest.ts fullMessage, import-run.ts). */
const JOB_RULES: readonly SentenceRule[] = [
  [/^campaign (\d+) is full: it holds ([\d,]+) events, the most one campaign can hold \(docs\/measurement\.md\)$/, 'fullCampaign', (m) => ({ id: m[1]!, capacity: m[2]! })],
  [/^minisite (\d+) is full: it holds ([\d,]+) events, the most one minisite can hold \(docs\/measurement\.md\)$/, 'fullMinisite', (m) => ({ id: m[1]!, capacity: m[2]! })],
]

/**
 * A rejected line's reason, of an import of `kind`, in the language `lang`: Chinese for a known
 * sentence, else `error`.
 */
export function lineErrorText(error: string, t: Translate, lang: string, kind: LineKind = 'events'): string {
  if (lang !== 'zh') return error
  const keyed = keyedText(error, t)
  if (keyed !== null) return keyed
  const [rules, prefix] = LINE_SETS[kind]
  return sayKnown(error, rules, prefix, t) ?? error
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
