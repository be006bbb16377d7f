/** The engine's refusals on the Reports page in the interface's language (reports/refusals.ts), the engine's own words on hover. */
import { useI18n } from 'vue-i18n'
import { engineTextOf } from '../../../composables/engine-text'
import { reportText } from '../../../reports/refusals'

export function useReportText() {
  const { t, locale } = useI18n()
  return engineTextOf((text: string): string => reportText(text, t, locale.value))
}
