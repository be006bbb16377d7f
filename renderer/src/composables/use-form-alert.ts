/**
 * The text of a form's alert in the interface's language (utils/form-alert.ts), naming fields by
 * the screen's labels under `labels` (a message key such as 'campaigns.field'), and the engine's
 * own message for the alert's hover text where it was translated (engine-text.ts).
 */
import { useI18n } from 'vue-i18n'
import { formAlert } from '../utils/form-alert'
import { engineTextOf } from './engine-text'

export function useFormAlert(labels: string) {
  const { t, te, locale } = useI18n()
  const label = (param: string) => (te(`${labels}.${param}`) ? t(`${labels}.${param}`) : undefined)
  return engineTextOf((text: string): string => formAlert(text, t, locale.value, label))
}
