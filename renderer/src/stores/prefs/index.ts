/** Language, theme and remembered filters, kept in localStorage. */
import { acceptHMRUpdate, defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { StoreId } from '../ids'
import { FILTERS_KEY, PREFS_KEY, apiLang, readFilters, readPrefs, type Language, type ThemeName } from './shared'

export const usePrefsStore = defineStore(StoreId.Prefs, () => {
  const initial = readPrefs(localStorage.getItem(PREFS_KEY), navigator.language)
  /** Interface language. */
  const language = ref<Language>(initial.language)
  /** Chosen theme; `system` follows the operating system. */
  const theme = ref<ThemeName>(initial.theme)
  const media = window.matchMedia?.('(prefers-color-scheme: dark)')
  const systemDark = ref(media?.matches ?? false)
  media?.addEventListener('change', (e) => (systemDark.value = e.matches))
  /** Whether the dark theme is showing. */
  const dark = computed(() => theme.value === 'dark' || (theme.value === 'system' && systemDark.value))
  /** The `lang` parameter of reference endpoints for the interface language. */
  const lang = computed(() => apiLang(language.value))
  const filters = ref(readFilters(localStorage.getItem(FILTERS_KEY)))

  watch([language, theme], () => localStorage.setItem(PREFS_KEY, JSON.stringify({ language: language.value, theme: theme.value })))

  /** The remembered filters of a screen, or `fallback`. */
  function filtersOf<T extends Record<string, unknown>>(screen: string, fallback: T): T {
    return { ...fallback, ...(filters.value[screen] as Partial<T> | undefined) }
  }

  /** Remembers a screen's filters. */
  function rememberFilters(screen: string, value: Record<string, unknown>): void {
    filters.value = { ...filters.value, [screen]: value }
    localStorage.setItem(FILTERS_KEY, JSON.stringify(filters.value))
  }

  return { language, theme, dark, lang, filtersOf, rememberFilters }
})

if (import.meta.hot) import.meta.hot.accept(acceptHMRUpdate(usePrefsStore, import.meta.hot))
