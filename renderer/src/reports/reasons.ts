/**
 * The engine's reasons for a refused report choice (engine/contract/report-rules.ts: a parameter
 * valid only with some positions, only for a target, the SDK, no daily figures for a target) as a
 * short sentence in the interface's language, naming the pickers and their choices as the screen
 * does, by the refusal's problem (api/problems.ts). A reason of another problem is given as it is.
 */
import { problemOf } from '../api/problems'
import { POSITIONS } from '../utils/problem-text'
import type { Translate } from './table'

/** `a, b or c` in the language `lang` (Intl.ListFormat, "or"). */
function anyOf(items: readonly string[], lang: string): string {
  return new Intl.ListFormat(lang, { type: 'disjunction' }).format(items)
}

/** The reason to show for a refused choice; `lang` is the interface's language (en, zh). */
export function readableReason(reason: string, t: Translate, lang: string): string {
  const p = problemOf(reason)
  switch (p?.key) {
    case 'report.onlyPosition':
    case 'report.onlyPositions':
    case 'report.onlyPositions3': {
      const positions = POSITIONS.map((arg) => p.args[arg]).filter((v): v is string => typeof v === 'string')
      return t('reports.reason.onlyPosition', { picker: t('reports.picker.position'), list: anyOf(positions.map((v) => t(`reports.position.${v}`)), lang) })
    }
    case 'report.onlyTarget':
      return t('reports.reason.onlyTarget', { picker: t('reports.picker.audience'), value: t('reports.audience.target') })
    case 'report.onlySdk':
      return t('reports.reason.onlySdk')
    case 'report.noDayWithTarget':
      return t('reports.reason.noDayWithTarget')
    default:
      return reason
  }
}
