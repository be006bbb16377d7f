/**
 * The engine's refusal of a report request said in Chinese, for the alerts of the Reports page
 * (the campaign that would not load, a view's error and problem, the comparison's local error,
 * the snapshot series): a parameter not valid with another (engine/contract/report-rules.ts, said
 * as the pickers say it: reports/reasons.ts), a page past the positions there are and an answer of
 * too many rows (report-rules.ts, engine/reports/setup.ts), a region or tag type the report does
 * not have; then the sentences any call may get, such as recorded events that could not be read
 * or the reports group answered from a remote profile (utils/engine-notice.ts). A campaign, minisite or panel that
 * cannot be found, and a codec's refusal, are said as the forms say them (utils/form-alert.ts);
 * the sync endpoints' refusals (the snapshot series) as the Sync page says them (sync/messages.ts).
 * Every value is kept; parameter names stay ASCII where the screen has no picker for them. In
 * English, and for a sentence of another form, the engine's text is given as it is.
 */
import { knownEngineSentence } from '../utils/engine-notice'
import type { SentenceRule } from '../utils/field-message'
import { formAlert } from '../utils/form-alert'
import { syncText } from '../sync/messages'
import { readableReason } from './reasons'
import type { Translate } from './table'

/** The pickers that send a parameter (reports.picker.*); others are named by the form-alert words or their wire name. */
const PICKER: Readonly<Record<string, string>> = {
  publisher_id: 'publishers', spot_id: 'spots', keyword_id: 'keywords', target_id: 'target', region_id: 'region', sdk: 'sdk',
  metrics: 'period', panel_id: 'panel', type_id: 'types', minisite_id: 'minisite', by_position: 'position', by_audience: 'audience',
  by_region: 'level', platform: 'platform', filtration_type: 'filtration', date: 'date',
}

const pickerLabel = (t: Translate) => (param: string): string | undefined => (PICKER[param] ? t(`reports.picker.${PICKER[param]}`) : undefined)

/** The end of the too-many-rows refusal (engine/reports/setup.ts checkAnswerRows), after the shape of the answer. */
const ROWS_TAIL = String.raw`\), more than the (\d+) one answer holds: page the positions with limit, name fewer regions \(region_id, another by_region\) or targets \(target_id\), or leave out with_null\.$`
const ROWS_HEAD = String.raw`^The 'limit' would give an answer of (\d+) rows \((\d+) positions x (\d+) regions`

/** The report routes' own sentences (after the combination rules, which reasons.ts says). */
const RULES: readonly SentenceRule[] = [
  [/^The 'limit' starts at (\d+), but there are (\d+) (spots|publishers) \(M must be below (?:total_spot_num|the number of publishers)\)\.$/, 'limitStart', (m) => ({ m: m[1]!, total: m[2]!, what: m[3]! })],
  [/^The 'limit' runs to (\d+), past the (\d+) (spots|publishers) there are \(M\+N must not exceed (?:total_spot_num|the number of publishers)\)\.$/, 'limitEnd', (m) => ({ end: m[1]!, total: m[2]!, what: m[3]! })],
  [new RegExp(`${ROWS_HEAD} x (\\d+) targets${ROWS_TAIL}`), 'tooManyRowsTargets', (m) => ({ rows: m[1]!, positions: m[2]!, regions: m[3]!, targets: m[4]!, max: m[5]! })],
  [new RegExp(`${ROWS_HEAD}${ROWS_TAIL}`), 'tooManyRows', (m) => ({ rows: m[1]!, positions: m[2]!, regions: m[3]!, max: m[4]! })],
  [/^The 'region_id' '(.*)' is not a (level\d) region \(see \/cms\/v1\/regions\/list\)\.$/s, 'notRegion', (m) => ({ value: m[1]!, level: m[2]! })],
  [/^The 'type_id' '(.*)' is not a tag type of panel (.+) \(see \/cms\/v1\/panels\/show\)\.$/s, 'notTagType', (m) => ({ value: m[1]!, types: m[2]! })],
]

/** A combination refusal ("The 'sdk' is valid only when ..."), named by its picker and said as the pickers say it; null for another sentence. */
function combination(text: string, t: Translate, lang: string): string | null {
  const param = /^The '(\w+)' /.exec(text)?.[1]
  const reason = readableReason(text, t, lang)
  if (!param || reason === text) return null
  return t('reports.refusal.param', { name: pickerLabel(t)(param) ?? param, reason })
}

/** `text` in Chinese, or null when no rule knows it. */
function said(text: string, t: Translate): string | null {
  const say = (key: string, named: Record<string, unknown>) => {
    const values: Record<string, unknown> = { ...named }
    if (typeof named.what === 'string') values.what = t(`reports.refusal.what.${named.what}`)
    if (typeof named.level === 'string') values.level = t(`reports.level.${named.level}`)
    return t(key, values)
  }
  const own = combination(text, t, 'zh') ?? knownEngineSentence(text, t, { rules: RULES, prefix: 'reports.refusal', say })
  if (own !== null) return own
  const field = formAlert(text, t, 'zh', pickerLabel(t))
  if (field !== text) return field
  const sync = syncText(text, t, 'zh')
  return sync === text ? null : sync
}

/** An engine refusal on the Reports page in the language `lang`: Chinese where it is a known one, else `text`. */
export function reportText(text: string, t: Translate, lang: string): string {
  return lang === 'zh' ? (said(text, t) ?? text) : text
}
