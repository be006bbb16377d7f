/**
 * The engine's messages on a page in the interface's language (utils/engine-notice.ts): `error`
 * and `warning` pop up an error's message (a pop-up has no hover: the Chinese alone); `say` and
 * `engineText` serve a page's alert, the engine's words on hover. Parameters are named by the
 * labels under the first of `labels` that has one (message keys such as 'campaign.fields').
 */
import { useMessage } from 'naive-ui'
import { useI18n } from 'vue-i18n'
import { engineNotice } from '../utils/engine-notice'
import { engineTextOf } from './engine-text'

export function useEngineNotice(...labels: string[]) {
  const { t, te, locale } = useI18n()
  const message = useMessage()
  const label = (param: string): string | undefined => {
    const key = labels.map((l) => `${l}.${param}`).find((k) => te(k))
    return key === undefined ? undefined : t(key)
  }
  const { say, engineText } = engineTextOf((text: string): string => engineNotice(text, t, locale.value, label))
  const text = (e: unknown): string => say(e instanceof Error ? e.message : String(e))
  return {
    say,
    engineText,
    /** Pops up the error's message, said in the interface's language. */
    error: (e: unknown): void => void message.error(text(e)),
    /** Pops up the error's message as a warning, said in the interface's language. */
    warning: (e: unknown): void => void message.warning(text(e)),
  }
}
