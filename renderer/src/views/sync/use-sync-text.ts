/** The engine's sentences on the Sync page in the interface's language (sync/messages.ts), the engine's own words on hover. */
import { useI18n } from 'vue-i18n'
import { engineTextOf } from '../../composables/engine-text'
import { syncText } from '../../sync/messages'

export function useSyncText() {
  const { t, locale } = useI18n()
  return engineTextOf((text: string): string => syncText(text, t, locale.value))
}
