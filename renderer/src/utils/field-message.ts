/**
 * The engine's refusal of one field ("The 'campaign_name' is longer than 255 characters") said
 * short, in the interface's language, for the form that shows it beside the field's label. Only
 * the codecs' common sentences (engine/contract/params.ts, the name already in use) are known; in
 * English, and for any other sentence, the engine's own text is kept, as it names more.
 * Until 2026-11-26 the Chinese forms showed these in English.
 */
import type { Translate } from '../reports/table'

const RULES: readonly [RegExp, string, (m: RegExpExecArray) => Record<string, string>][] = [
  [/^The '\w+' is required\.?$/, 'required', () => ({})],
  [/is longer than (\d+) characters/, 'tooLong', (m) => ({ max: m[1]! })],
  [/must be between (\S+) and (\S+), got (.*?)\.?$/, 'between', (m) => ({ min: m[1]!, max: m[2]!, got: m[3]! })],
  [/must be an integer, got '(.*)'/, 'integer', (m) => ({ got: m[1]! })],
  [/must be a date written YYYY-MM-DD, got '(.*)'/, 'date', (m) => ({ got: m[1]! })],
  [/must be one of (.+), got '(.*)'/, 'oneOf', (m) => ({ list: m[1]!, got: m[2]! })],
  [/must (?:begin with http:\/\/ or https:\/\/|be an absolute http:\/\/ or https:\/\/ URL)/, 'url', () => ({})],
  [/is already used by campaign (\d+)/, 'used', (m) => ({ id: m[1]! })],
  [/contains control characters/, 'control', () => ({})],
]

/** `text` said short in Chinese when `lang` is zh and the sentence is a known one; else `text`. */
export function fieldMessage(text: string, t: Translate, lang: string): string {
  if (lang !== 'zh') return text
  for (const [re, key, named] of RULES) {
    const m = re.exec(text)
    if (m) return t(`common.field.${key}`, named(m))
  }
  return text
}
