/**
 * Minisite views: events of the basic minisite report (accumulated and on the day) and today's
 * events by hour from the realtime minisite report.
 */
import { metricNames } from '../../../engine/contract/metrics-catalogue'
import type { ReportItem } from '../../../engine/contract/models-reports'
import { blankAfter } from './clock'
import { groupBy, HOURS, sumMetric, summable, targetKey } from './items'
import { rowLabel, type Names } from './names'
import type { RegionScope } from './rows-census'
import { metricColumn, textColumn, type Column, type TableData, type Translate } from './table'

/** The minisite report's metrics (metrics=all). */
export const MINISITE_METRICS = metricNames('minisite')

/** One event (for one audience group) with its figures summed over positions. */
export interface EventFigures {
  event_id: string
  group: string
  values: Record<string, number | null>
}

/** Event figures for the chart: the rows a total covers, per event and target. */
export function eventFigures(items: readonly ReportItem[], scope: RegionScope): EventFigures[] {
  const rows = summable(items, scope.byRegion, scope.regionChosen)
  return [...groupBy(rows, (i) => `${i.attributes.event_id ?? ''}|${targetKey(i)}`).values()].map((list) => ({
    event_id: list[0]!.attributes.event_id ?? '',
    group: targetKey(list[0]!),
    values: Object.fromEntries(MINISITE_METRICS.map((m) => [m, sumMetric(list, m)])),
  }))
}

/** The minisite table: every report row (event, target, position, region) with its four figures. */
export function minisiteTable(items: readonly ReportItem[], names: Names, t: Translate): TableData {
  const columns: Column[] = [
    textColumn('event', t('reports.col.event')), textColumn('event_id', t('reports.col.eventId')), textColumn('row', t('reports.col.row')),
    ...MINISITE_METRICS.map((m) => metricColumn(t, m)),
  ]
  const rows = items.map((i, k) => ({
    key: String(k),
    cells: {
      event: names.event(i.attributes.event_id ?? ''), event_id: i.attributes.event_id ?? '',
      row: rowLabel(i.attributes, names, { target: true, position: i.attributes.publisher_id !== undefined, region: true }),
      ...Object.fromEntries(MINISITE_METRICS.map((m) => [m, typeof i.metrics[m] === 'number' ? i.metrics[m]! : null])),
    },
  }))
  return { columns, rows }
}

/** Today's events of one event by hour, summed over positions, and the day total. */
export interface EventHours {
  event_id: string
  hours: (number | null)[]
  total: number | null
}

/** Hourly series per event from the realtime minisite report (global region rows); hours after `lastHour` blank (clock.ts). */
export function eventHours(items: readonly ReportItem[], lastHour = 23): EventHours[] {
  return [...groupBy(items, (i) => i.attributes.event_id ?? '')].map(([event_id, list]) => ({
    event_id,
    hours: blankAfter(HOURS.map((h) => sumMetric(list, `evt_h${h}`)), lastHour),
    total: sumMetric(list, 'evt_day'),
  }))
}

/** The hourly table: a row per hour and a day-total row, a column per event. */
export function eventHoursTable(series: readonly EventHours[], names: Names, t: Translate): TableData {
  const columns: Column[] = [
    textColumn('hour', t('reports.col.hour')),
    ...series.map((s) => ({ key: `evt|${s.event_id}`, title: `${t('reports.measure.evt')} · ${names.event(s.event_id)}`, numeric: true, hint: 'evt_hHH' })),
  ]
  const rows = HOURS.map((h, i) => ({ key: h, cells: Object.fromEntries([['hour', `${h}:00`], ...series.map((s) => [`evt|${s.event_id}`, s.hours[i] ?? null])]) }))
  rows.push({ key: 'total', cells: Object.fromEntries([['hour', t('reports.col.dayTotal')], ...series.map((s) => [`evt|${s.event_id}`, s.total])]) })
  return { columns, rows }
}
