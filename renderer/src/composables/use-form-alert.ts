/**
 * The text of a form's alert in the interface's language (utils/form-alert.ts, and the sentences
 * any call may get: utils/engine-notice.ts), naming fields by the screen's labels under `labels`
 * (a message key such as 'campaigns.field'), and the engine's own message for the alert's hover
 * text where it was translated (engine-text.ts).
 */
import { useI18n } from 'vue-i18n'
import { engineNotice } from '../utils/engine-notice'
import { engineTextOf } from './engine-text'

export function useFormAlert(labels: string) {
  const { t, te, locale } = useI18n()
  const label = (param: string) => (te(`${labels}.${param}`) ? t(`${labels}.${param}`) : undefined)
  return engineTextOf((text: string): string => engineNotice(text, t, locale.value, label))
}
