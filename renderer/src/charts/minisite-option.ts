/**
 * Minisite events: per event, page views and unique visitors accumulated to the cut-off date and
 * those of the day, side by side (each on its own scale); and today's events by hour, a line per event.
 */
import { HOURS } from '../reports/items'
import type { Names } from '../reports/names'
import type { EventFigures, EventHours } from '../reports/rows-minisite'
import { bottomName, frame, twoGrids, valueAxis, type ChartEnv, type ECOption } from './common'

/** The events chart of the basic minisite report. */
export function minisiteOption(figures: readonly EventFigures[], names: Names, env: ChartEnv, subtitle: string): ECOption {
  const { t } = env
  const label = (f: EventFigures) => (f.group ? `${names.event(f.event_id)} · ${names.target(f.group)}` : names.event(f.event_id))
  const base = frame(t('reports.chart.minisite.title'), subtitle, env)
  const categories = figures.map(label)
  const category = (gridIndex: number) => ({ type: 'category' as const, gridIndex, data: categories, axisLabel: { interval: 0, width: 90, overflow: 'truncate' as const, rotate: figures.length > 4 ? 30 : 0 } })
  const bar = (metric: string, axis: number, name: string) => ({ type: 'bar' as const, name, xAxisIndex: axis, yAxisIndex: axis, data: figures.map((f) => f.values[metric] ?? null), barMaxWidth: 28 })
  const evt = t('reports.measure.evt')
  const uev = t('reports.measure.uev')
  return {
    ...base,
    ...twoGrids(base, [t('reports.unit.accumulated'), t('reports.unit.ofDay')]),
    tooltip: { ...(base.tooltip as object), axisPointer: { type: 'shadow' } },
    xAxis: [category(0), category(1)],
    yAxis: [valueAxis('', env, { gridIndex: 0 }), valueAxis('', env, { gridIndex: 1 })],
    series: [bar('evt_acc', 0, evt), bar('uev_acc', 0, uev), bar('evt_day', 1, evt), bar('uev_day', 1, uev)],
  }
}

/** Today's events by hour, a line per event. */
export function minisiteHoursOption(series: readonly EventHours[], names: Names, env: ChartEnv, subtitle: string): ECOption {
  const { t } = env
  return {
    ...frame(t('reports.chart.minisiteHours.title'), subtitle, env),
    xAxis: { type: 'category', data: HOURS.map((h) => `${h}:00`), ...bottomName(t('reports.unit.hour')), axisLabel: { hideOverlap: true } },
    yAxis: valueAxis(t('reports.unit.events'), env),
    series: series.map((s) => ({ type: 'line' as const, name: names.event(s.event_id), data: s.hours, symbolSize: 5 })),
  }
}
