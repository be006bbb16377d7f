/** Numbers and times as the Server page shows them. Pure (the time zone is a parameter). */
import { numberFormat, numberLocale } from '../i18n/numbers'

/** The number format of counts in an interface language, made once per language. */
export const countFormat = (language: 'en' | 'zh'): Intl.NumberFormat => numberFormat(numberLocale(language))

/** A count with thousands separators in the interface language. */
export const formatCount = (n: number, language: 'en' | 'zh'): string => countFormat(language).format(n)

/** "2025-01-10 10:00:05" in the given time zone (default: the system's); '' for an empty or bad time. */
export function formatDateTime(iso: string, timeZone?: string): string {
  const d = new Date(iso)
  if (!iso || Number.isNaN(d.getTime())) return ''
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(d)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`
}

/** "10:00:05.123" in the given time zone (default: the system's), for the request log. */
export function formatClock(iso: string, timeZone?: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const full = formatDateTime(iso, timeZone)
  return `${full.slice(11)}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`
}

const DURATION_UNITS = { en: { ms: ' ms', s: ' s', min: ' min ' }, zh: { ms: ' 毫秒', s: ' 秒', min: ' 分 ' } } as const

/** A duration in the interface language: "850 ms", "12.4 s", "3 min 05 s" (Chinese: "850 毫秒", "12.4 秒", "3 分 05 秒"). */
export function formatDuration(ms: number, language: 'en' | 'zh' = 'en'): string {
  const u = DURATION_UNITS[language]
  if (ms < 1000) return `${Math.round(ms)}${u.ms}`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}${u.s}`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}${u.min}${String(s % 60).padStart(2, '0')}${u.s}`
}
