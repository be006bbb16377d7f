/**
 * Reading report items: which rows a summing chart adds up, adding up additive figures, and
 * grouping rows. Unique counts (uim, ucl, uev) are never added across rows: an identity seen at
 * two positions would count twice (docs/metrics.md), so a total of several rows leaves them out.
 */
import type { ReportItem } from '../../../engine/contract/models-reports'

/** The global region of level0 (docs/metrics.md "Cells"). */
export const GLOBAL_REGION = '000000000000000000000000'

/** Unique-count metric prefixes: not additive across rows. */
export const UNIQUE_PREFIXES = ['uim', 'ucl', 'uev'] as const

export const isUnique = (metric: string): boolean => UNIQUE_PREFIXES.some((u) => metric.startsWith(`${u}_`))

/**
 * The rows a total adds up: on level0 without a chosen region, the global row only (the mainland
 * row is inside it); on other levels every row (regions do not overlap).
 */
export function summable(items: readonly ReportItem[], byRegion: string, regionChosen: boolean): ReportItem[] {
  if (byRegion === 'level0' && !regionChosen) return items.filter((i) => i.attributes.region_id === undefined || i.attributes.region_id === GLOBAL_REGION)
  return [...items]
}

/**
 * The total of a metric over rows: null when no row has a value; null for a unique count over
 * more than one row (it cannot be added up).
 */
export function sumMetric(items: readonly ReportItem[], metric: string): number | null {
  if (isUnique(metric) && items.length > 1) return null
  let total: number | null = null
  for (const i of items) {
    const v = i.metrics[metric]
    if (typeof v === 'number') total = (total ?? 0) + v
  }
  return total
}

/** Rows grouped by a key, groups in the order first seen. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const r of rows) {
    const k = key(r)
    const list = out.get(k)
    if (list) list.push(r)
    else out.set(k, [r])
  }
  return out
}

/** The audience group of a row: its target for target rows, '' otherwise. */
export const targetKey = (i: ReportItem): string => (i.attributes.audience === 'target' ? (i.attributes.target_id ?? '') : '')

/** Two-digit hours 00..23. */
export const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'))

/** The earlier of two dates. */
export const minDate = (a: string, b: string): string => (a < b ? a : b)
/** The later of two dates. */
export const maxDate = (a: string, b: string): string => (a > b ? a : b)

/**
 * The cut-off date shown first: the last fully computed day, kept inside the campaign's dates
 * (a campaign that has not started shows its first day).
 */
export function defaultDate(progress: string, start: string, end: string): string {
  return maxDate(start, minDate(progress, end))
}
