/**
 * The data table under each chart: columns and rows as plain data. Number cells hold the API's
 * value unchanged (the table formats them for reading and keeps the raw value in `data-value`;
 * exports write the raw value).
 */
import { metricOf } from '../../../engine/contract/metrics-catalogue'
import { formatNumberIn } from '../i18n/numbers'

export type Cell = string | number | null

export interface Column {
  key: string
  title: string
  /** Numbers: right-aligned, formatted with separators, raw value kept. */
  numeric?: boolean
  /** Shown as the header's tooltip: the API's metric name. */
  hint?: string
  /**
   * A number that is not a figure of the report answer (the plan from the spots, a rank): a table
   * comparing a snapshot with local measurement (compare.ts) shows it once instead of side by side.
   */
  context?: boolean
  /** The cells are days (`yyyy-MM-dd`), written to XLSX as dates. */
  date?: boolean
  /** The column's least width in pixels, for values of a known length (24-digit region ids). */
  width?: number
}

export interface TableRow {
  key: string
  cells: Record<string, Cell>
  /** Cells to flag, by column key, with the reason (a small panel sample). */
  warn?: Record<string, string>
}

export interface TableData {
  columns: Column[]
  rows: TableRow[]
}

/** vue-i18n's `t`, as the pure builders use it (tests pass a stand-in). */
export type Translate = (key: string, named?: Record<string, unknown>) => string

/**
 * A metric's column title: "<measure> · <period>" from the labels of the metric catalogue (an
 * hour as HH:00, a frequency as N+), with the wire name as the hint; a name the catalogue does
 * not know is its own title.
 */
export function metricColumn(t: Translate, metric: string): Column {
  const m = metricOf(metric)
  if (m === undefined) return { key: metric, title: metric, numeric: true, hint: metric }
  const { measure, period, sample } = m.label
  const what = sample ? t('reports.measure.spl', { of: t(`reports.measure.${measure}`) }) : t(`reports.measure.${measure}`)
  const suffix = metric.slice(-2)
  let when = period ? t(`reports.period.${period}`) : ''
  if (m.name.endsWith('HH')) when = `${when ? `${when} ` : ''}${suffix}:00`
  if (m.name.endsWith('NN')) when = `${Number(suffix)}+`
  return { key: metric, title: when ? `${what} · ${when}` : what, numeric: true, hint: metric }
}

/** A text column. */
export const textColumn = (key: string, title: string): Column => ({ key, title })

/** A column of ids of `digits` characters, wide enough to show them whole. */
export const idColumn = (key: string, title: string, digits: number): Column => ({ key, title, width: 24 + digits * 8 })

/** A column of days (`yyyy-MM-dd`). */
export const dateColumn = (key: string, title: string): Column => ({ key, title, date: true })

/** A number column with a plain title. */
export const numberColumn = (key: string, title: string, hint?: string): Column => ({ key, title, numeric: true, ...(hint ? { hint } : {}) })

/** A number column that is context, not a figure of the answer (see `Column.context`). */
export const contextColumn = (key: string, title: string, hint?: string): Column => ({ ...numberColumn(key, title, hint), context: true })

/** Formats a number cell for reading: thousands separators in the interface language. */
export function formatCell(value: Cell, locale: string): string {
  if (value === null) return '–'
  if (typeof value === 'number') return formatNumberIn(value, locale)
  return value
}

/**
 * How the figures of an audience are named (docs/metrics.md): target rows are panel projections
 * ("projected"), stable rows count the stable audience only ("stable"); overall figures are plain.
 */
export type Qualifier = 'projected' | 'stable' | null

/** The qualifier of a request's `by_audience`. */
export const qualifierOf = (byAudience: unknown): Qualifier => (byAudience === 'target' ? 'projected' : byAudience === 'stable' ? 'stable' : null)

/** A figure's title with its qualifier: "Impressions (projected)". */
export const qualified = (t: Translate, title: string, q: Qualifier): string => (q ? t(`reports.qualified.${q}`, { what: title }) : title)

/**
 * A table whose report figures carry the qualifier in their titles (and so in exports); context
 * columns (plans, ranks) and the universe keep theirs.
 */
export function qualifyTable(table: TableData, t: Translate, q: Qualifier): TableData {
  if (!q) return table
  const columns = table.columns.map((c) => (c.numeric && !c.context && c.hint !== 'universe' ? { ...c, title: qualified(t, c.title, q) } : c))
  return { ...table, columns }
}
