/** Numbers and month names follow the interface language, not the operating system's. */
import { computed, type ComputedRef } from 'vue'
import { useI18n } from 'vue-i18n'

/** The BCP 47 locale for Intl and toLocaleString of an interface language (zh: zh-CN). */
export function numberLocale(language: string): 'zh-CN' | 'en' {
  return language === 'zh' ? 'zh-CN' : 'en'
}

/** The number locale of the current interface language. */
export function useNumberLocale(): ComputedRef<'zh-CN' | 'en'> {
  const { locale } = useI18n()
  return computed(() => numberLocale(locale.value))
}
