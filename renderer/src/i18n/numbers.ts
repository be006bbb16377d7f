/**
 * Numbers follow the interface language, not the operating system's. Pure: one Intl.NumberFormat
 * per locale, made once (a formatter made per table cell, as toLocaleString does, costs more
 * than the cell).
 */
export type NumberLocale = 'zh-CN' | 'en'

/** The BCP 47 locale for Intl of an interface language (zh: zh-CN). */
export function numberLocale(language: string): NumberLocale {
  return language === 'zh' ? 'zh-CN' : 'en'
}

const formats = new Map<string, Intl.NumberFormat>()

/** The number format of `locale`, made once. */
export function numberFormat(locale: string): Intl.NumberFormat {
  let f = formats.get(locale)
  if (!f) formats.set(locale, (f = new Intl.NumberFormat(locale)))
  return f
}

/** `n` with thousands separators in `locale`, as `n.toLocaleString(locale)` writes it. */
export const formatNumberIn = (n: number, locale: string): string => numberFormat(locale).format(n)
