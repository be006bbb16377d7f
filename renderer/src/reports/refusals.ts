/**
 * The engine's refusal of a report request said in Chinese, for the alerts of the Reports page
 * (the campaign that would not load, a view's error and problem, the comparison's local error,
 * the snapshot series), by the refusal's problem key: a parameter not valid with another
 * (engine/contract/report-rules.ts) as the pickers say it (reports/reasons.ts), named by its
 * picker; any other refusal of a known problem as every page says it (utils/engine-notice.ts,
 * utils/form-alert.ts); the sync endpoints' own sentences (the snapshot series) as the Sync page
 * says them (sync/messages.ts). In English, and for a sentence of another form, the engine's text
 * is given as it is.
 */
import { paramOfRefusal } from '../api/problems'
import { knownEngineSentence } from '../utils/engine-notice'
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

/** A combination refusal (report.only*), named by its picker and said as the pickers say it; null for another refusal. */
function combination(text: string, t: Translate, lang: string): string | null {
  const param = paramOfRefusal(text)
  const reason = readableReason(text, t, lang)
  if (!param || reason === text) return null
  return t('reports.refusal.param', { name: pickerLabel(t)(param) ?? param, reason })
}

/** `text` in Chinese, or null when no rule knows it. */
function said(text: string, t: Translate): string | null {
  const own = combination(text, t, 'zh') ?? knownEngineSentence(text, t)
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
