/** Numbers and month names follow the interface language, not the operating system's. */
import { computed, type ComputedRef } from 'vue'
import { useI18n } from 'vue-i18n'
import { numberLocale } from '../i18n/numbers'

/** The number locale of the current interface language. */
export function useNumberLocale(): ComputedRef<'zh-CN' | 'en'> {
  const { locale } = useI18n()
  return computed(() => numberLocale(locale.value))
}
