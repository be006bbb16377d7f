/** Pure helpers of the preferences store: language, theme and remembered filters in localStorage. */

export type Language = 'en' | 'zh'
export type ThemeName = 'light' | 'dark' | 'system'

export const PREFS_KEY = 'admonitor.prefs'
export const FILTERS_KEY = 'admonitor.filters'

export interface Prefs {
  language: Language
  theme: ThemeName
}

/** The API's `lang` parameter for a UI language: reference names follow the interface. */
export const apiLang = (l: Language): 'en' | 'cn' => (l === 'zh' ? 'cn' : 'en')

/** The default language: the browser's when it is Chinese, else English. */
export function defaultLanguage(navigatorLanguage: string | undefined): Language {
  return navigatorLanguage?.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

export function readPrefs(raw: string | null, navigatorLanguage: string | undefined): Prefs {
  const fallback: Prefs = { language: defaultLanguage(navigatorLanguage), theme: 'system' }
  try {
    const p = JSON.parse(raw ?? '{}') as Partial<Prefs>
    return {
      language: p.language === 'en' || p.language === 'zh' ? p.language : fallback.language,
      theme: p.theme === 'light' || p.theme === 'dark' || p.theme === 'system' ? p.theme : fallback.theme,
    }
  } catch {
    return fallback
  }
}

/** Remembered filters, by screen: plain JSON values only. */
export type FilterMap = Record<string, Record<string, unknown>>

export function readFilters(raw: string | null): FilterMap {
  try {
    const f = JSON.parse(raw ?? '{}') as unknown
    return typeof f === 'object' && f !== null && !Array.isArray(f) ? (f as FilterMap) : {}
  } catch {
    return {}
  }
}
