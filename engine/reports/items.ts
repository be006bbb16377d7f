/** Report rows to items: the with_null rule, order_asc / order_desc, and paging of rows. */
import { badParam } from '../contract/errors'
import type { ReportAttributes, ReportItem } from '../contract/models-reports'

export interface Row {
  attributes: ReportAttributes
  metrics: Record<string, number | null>
  /** Whether the cell has any counted data; rows without are kept only with with_null=1. */
  hasData: boolean
}

export interface Finish {
  withNull?: boolean
  order_asc?: string | undefined
  order_desc?: string | undefined
  /** Metric names the request asks for (to check order fields even when there are no rows). */
  metricNames: readonly string[]
  attributeNames: readonly string[]
  /** Row paging (minisite and audience reports); report paging over spots is done before. */
  rows?: { offset: number; count: number } | undefined
}

/** Metrics of a row without data: null. */
export function nullMetrics(names: readonly string[]): Record<string, null> {
  const m: Record<string, null> = {}
  for (const n of names) m[n] = null
  return m
}

/** A row's metrics in the order of `names`, key by key (rows then share one shape: see basic.ts). */
export function metricsIn(names: readonly string[], values: Record<string, number | null>): Record<string, number | null> {
  const m: Record<string, number | null> = {}
  for (const n of names) m[n] = values[n] ?? null
  return m
}

export function finish(rows: Row[], f: Finish): ReportItem[] {
  const field = f.order_asc ?? f.order_desc
  if (field !== undefined && !f.metricNames.includes(field) && !f.attributeNames.includes(field)) {
    throw badParam(f.order_asc !== undefined ? 'order_asc' : 'order_desc', `'${field}' is not an attribute or metric of this report; one of: ${[...f.attributeNames, ...f.metricNames].join(', ')}`)
  }
  let kept = rows.filter((r) => r.hasData || f.withNull)
  if (field !== undefined) {
    const sign = f.order_desc !== undefined ? -1 : 1
    const value = (r: Row): string | number | null => (f.metricNames.includes(field) ? r.metrics[field] ?? null : (r.attributes as Record<string, string | number | null | undefined>)[field] ?? null)
    // Stable sort; nulls last in both directions; numeric ids compare as numbers.
    kept = kept.map((r, i) => ({ r, i })).sort((a, b) => {
      const x = value(a.r)
      const y = value(b.r)
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : compareText(String(x), String(y))
      return c !== 0 ? sign * c : a.i - b.i
    }).map((e) => e.r)
  }
  if (f.rows) kept = kept.slice(f.rows.offset, f.rows.offset + f.rows.count)
  return kept.map((r) => ({ attributes: r.attributes, metrics: r.metrics }))
}

function compareText(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length
  return a < b ? -1 : a > b ? 1 : 0
}

/** imp_acc_h00 .. for one prefix. */
export const hourNames = (prefix: string): string[] => Array.from({ length: 24 }, (_, h) => `${prefix}${String(h).padStart(2, '0')}`)
