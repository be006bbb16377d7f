/**
 * Hour of day: impressions (bars, left axis) and clicks (line, right axis) for hours 00-23, one
 * pair per audience group (targets). Used for the accumulated hours of the basic report and for
 * today's hours of the realtime report.
 */
import type { HourSeries } from '../reports/rows-census'
import { HOURS } from '../reports/items'
import type { Names } from '../reports/names'
import { qualified, type Qualifier } from '../reports/table'
import { bottomName, frame, valueAxis, type ChartEnv, type ECOption } from './common'

/** Which report the hours come from: the title and subtitle differ. */
export type HoursKind = 'hours' | 'realtime'

/**
 * The hour-of-day chart. Blank hours (null: not come yet) draw nothing. `q` names projected
 * (target) or stable figures as such in the axis and series names.
 */
export function hoursOption(series: readonly HourSeries[], kind: HoursKind, names: Names, env: ChartEnv, subtitle?: string, q: Qualifier = null): ECOption {
  const { t } = env
  const suffix = (g: string) => (series.length > 1 || g ? ` · ${names.target(g)}` : '')
  const name = (key: string) => qualified(t, t(key), q)
  return {
    ...frame(t(`reports.chart.${kind}.title`), subtitle ?? t(`reports.chart.${kind}.subtitle`), env),
    xAxis: { type: 'category', data: HOURS.map((h) => `${h}:00`), ...bottomName(t('reports.unit.hour')), axisLabel: { hideOverlap: true } },
    yAxis: [valueAxis(name('reports.unit.impressions'), env), valueAxis(name('reports.unit.clicks'), env, { splitLine: { show: false } })],
    series: series.flatMap((s) => [
      { type: 'bar' as const, name: `${name('reports.measure.imp')}${suffix(s.group)}`, data: s.imp, barMaxWidth: 16 },
      { type: 'line' as const, name: `${name('reports.measure.clk')}${suffix(s.group)}`, yAxisIndex: 1, data: s.clk, symbolSize: 5, smooth: false, connectNulls: false },
    ]),
  }
}
