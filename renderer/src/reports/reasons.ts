/**
 * The engine's reasons for a refused report choice (engine/contract/report-rules.ts: "The
 * 'publisher_id' is valid only when by_position is publisher, spot or keyword.") as a short
 * sentence in the interface's language, naming the pickers and their choices as the screen does.
 * A reason of another form is given as it is.
 */
import type { Translate } from './table'

const POSITION = /valid only when by_position(?: is |=)([a-z, ]+?)\.?$/
const TARGET = /valid only when by_audience=target\.?$/
const SDK = /valid only when platform=mb and \(/
const DAY = /'day' is not valid when by_audience=target/

/** `a, b or c` in the language `lang` (Intl.ListFormat, "or"). */
function anyOf(items: readonly string[], lang: string): string {
  return new Intl.ListFormat(lang, { type: 'disjunction' }).format(items)
}

/** The reason to show for a refused choice; `lang` is the interface's language (en, zh). */
export function readableReason(reason: string, t: Translate, lang: string): string {
  const position = POSITION.exec(reason)
  if (position) {
    const values = position[1]!.split(/, | or /).map((v) => v.trim()).filter(Boolean)
    return t('reports.reason.onlyPosition', { picker: t('reports.picker.position'), list: anyOf(values.map((v) => t(`reports.position.${v}`)), lang) })
  }
  if (TARGET.test(reason)) return t('reports.reason.onlyTarget', { picker: t('reports.picker.audience'), value: t('reports.audience.target') })
  if (SDK.test(reason)) return t('reports.reason.onlySdk')
  if (DAY.test(reason)) return t('reports.reason.noDayWithTarget')
  return reason
}
