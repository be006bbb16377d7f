/**
 * The engine's refusal of one field ("The 'campaign_name' is longer than 255 characters") said
 * short, in the interface's language, for the form that shows it beside the field's label. Only
 * the codecs' common sentences (engine/contract/params.ts, the name already in use) are known; in
 * English, and for any other sentence, the engine's own text is kept, as it names more.
 * Until 2026-11-26 the Chinese forms showed these in English.
 * The table matcher (`sayKnown`) is shared by the other readers of engine sentences
 * (utils/form-alert.ts, server/line-errors.ts).
 */
import type { Translate } from '../reports/table'

/** A known engine sentence: its pattern, the message key it is said with, and the key's values from the match. */
export type SentenceRule = readonly [RegExp, string, (m: RegExpExecArray) => Record<string, string>]

const RULES: readonly SentenceRule[] = [
  [/^The '\w+' (?:is required|should not be empty)\.?$/, 'required', () => ({})],
  [/is longer than (\d+) characters/, 'tooLong', (m) => ({ max: m[1]! })],
  [/must be between (\S+) and (\S+), got (.*?)\.?$/, 'between', (m) => ({ min: m[1]!, max: m[2]!, got: m[3]! })],
  [/must be an integer, got '(.*)'/, 'integer', (m) => ({ got: m[1]! })],
  [/must be a date written YYYY-MM-DD, got '(.*)'/, 'date', (m) => ({ got: m[1]! })],
  [/must be one of (.+), got '(.*)'/, 'oneOf', (m) => ({ list: m[1]!, got: m[2]! })],
  [/must (?:begin with http:\/\/ or https:\/\/|be an absolute http:\/\/ or https:\/\/ URL)/, 'url', () => ({})],
  [/is already used by campaign (\d+)/, 'used', (m) => ({ id: m[1]! })],
  [/contains control characters/, 'control', () => ({})],
]

/**
 * `text` said with the first rule whose pattern it matches, as `t('<prefix>.<key>', values)`;
 * null when no rule knows it.
 */
export function sayKnown(text: string, rules: readonly SentenceRule[], prefix: string, t: Translate): string | null {
  for (const [re, key, named] of rules) {
    const m = re.exec(text)
    if (m) return t(`${prefix}.${key}`, named(m))
  }
  return null
}

/** A field's refusal said short with `t`, or null when the sentence is not a known one. */
export const knownFieldMessage = (text: string, t: Translate): string | null => sayKnown(text, RULES, 'common.field', t)

/** `text` said short in Chinese when `lang` is zh and the sentence is a known one; else `text`. */
export function fieldMessage(text: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (knownFieldMessage(text, t) ?? text) : text
}
