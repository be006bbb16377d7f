/**
 * The engine's refusal of a save as a whole, said in Chinese for the alert above a form (the
 * campaign form, the spot editor, the keyword, target, plan and minisite dialogs). A sentence
 * "The '<param>' <problem>." names its field as the screen labels it, then says the problem:
 * the codecs' common problems as field-message.ts says them beside a field, the write routes'
 * own (engine/routes/campaigns-write.ts, spots-*.ts, targets.ts, minisites.ts, and the plan rules
 * of engine/contract/plan-rules.ts that the spot editor and the bulk import also check) from the
 * table below. Where the Chinese leaves part of the sentence out (the spots of a plan outside the
 * dates), the engine's English follows it as details. In English, and for a sentence of another
 * form, the engine's text is given as it is. Until 2026-11-26 the Chinese alerts were English.
 */
import type { Translate } from '../reports/table'
import { sayKnown, type SentenceRule } from './field-message'
import { keyedText } from './problem-text'

/** The screen's label of a wire parameter, or undefined where the screen has none. */
export type LabelOf = (param: string) => string | undefined

/** Parameters the screens name without a field of their own (common.alert.param). */
const OWN_NAMES: ReadonlySet<string> = new Set(['campaign_id', 'spot_id', 'spot_id_str', 'keyword_id', 'minisite_id', 'target_name', 'minisite_name'])

/**
 * The problems of the write routes, after "The '<param>' "; `name` says a parameter the problem
 * names as the screen does. Every message has the field's name as {field}.
 */
const rules = (name: (param: string) => string): readonly SentenceRule[] => [
  [/^(\S+) cannot be found/, 'notFound', (m) => ({ value: m[1]! })],
  [/^\((\S+)\) is earlier than today \((\S+), ([^)]+)\)/, 'beforeToday', (m) => ({ date: m[1]!, today: m[2]!, zone: m[3]! })],
  [/^and the '(\w+)' would leave plan days outside the campaign's dates (\S+)\.\.(\S+?):/, 'planOutsideBoth', (m) => ({ other: name(m[1]!), start: m[2]!, end: m[3]! })],
  [/^would leave plan days outside the campaign's dates (\S+)\.\.(\S+?):/, 'planOutside', (m) => ({ start: m[1]!, end: m[2]! })],
  [/^(\d+) belongs to advertiser (\d+), not to advertiser_id (\d+)/, 'brandOwner', (m) => ({ value: m[1]!, owner: m[2]!, chosen: m[3]! })],
  [/^changes the advertiser while the campaign's brand (\d+) belongs to advertiser (\d+)/, 'advertiserBrand', (m) => ({ brand: m[1]!, owner: m[2]! })],
  [/^(\d+) names no \w+/, 'namesNothing', (m) => ({ value: m[1]! })],
  [/^requires advertiser_id/, 'needsAdvertiser', () => ({ other: name('advertiser_id') })],
  [/^is required: there is no (\w+) panel to default to/, 'noPanel', (m) => ({ platform: m[1]! })],
  [/^'(.*)' is not in \/cms\/v1\/\w+\/list/, 'notInList', (m) => ({ value: m[1]! })],
  [/^has been existed in this campaign/, 'targetExists', () => ({})],
  [/^'(.*)' is already the name of minisite (\d+)/, 'minisiteName', (m) => ({ value: m[1]!, id: m[2]! })],
  [/^names '(.*)', which the spot already has \(keyword_id (\d+)\)/, 'keywordTwice', (m) => ({ value: m[1]!, id: m[2]! })],
  [/^renames keyword (\d+) to '(.*)', which keyword (\d+) of the spot already has/, 'keywordRenamed', (m) => ({ id: m[1]!, value: m[2]!, owner: m[3]! })],
  [/^names keyword_id (\d+), which is not a keyword of spot (\d+)/, 'keywordNotOfSpot', (m) => ({ id: m[1]!, spot: m[2]! })],
  [/^names the event '(.*)', which the minisite already has/, 'eventExists', (m) => ({ value: m[1]! })],
  [/^names an event twice/, 'eventTwice', () => ({})],
  [/^names the tag '(.*)', which panel (\d+) does not have/, 'tagNotInPanel', (m) => ({ value: m[1]!, panel: m[2]! })],
]

/** Sentences whose Chinese leaves part out (the spots whose plan days lie outside): the engine's English follows. */
const PARTIAL = /would leave plan days outside/

/** How the alert names a parameter: the screen's label, the screens' word for it, or the wire name. */
function nameOf(param: string, t: Translate, label: LabelOf): string {
  return label(param) ?? (OWN_NAMES.has(param) ? t(`common.alert.param.${param}`) : param)
}

/**
 * The alert's text for the engine's message `text` in the language `lang`; `label` names the
 * form's fields as the screen does.
 */
export function formAlert(text: string, t: Translate, lang: string, label: LabelOf): string {
  if (lang !== 'zh') return text
  const name = (param: string) => nameOf(param, t, label)
  const keyed = keyedText(text, t, { nameOf: name })
  if (keyed !== null) return keyed
  const m = /^The '(\w+)' (.*)$/s.exec(text)
  if (!m) return text
  const field = name(m[1]!)
  // (the field's name goes into every message of the table)
  const said = sayKnown(m[2]!, rules(name), 'common.alert', (key, named) => t(key, { ...named, field }))
  if (said === null) return text
  return PARTIAL.test(text) ? t('common.alert.details', { text: said, engine: text }) : said
}
