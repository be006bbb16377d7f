/** Daily trend: planned vs actual impressions (bars, left axis) and clicks (lines, right axis) per date. */
import type { TrendPoint } from '../reports/rows-census'
import { qualified, type Qualifier } from '../reports/table'
import { frame, valueAxis, zoom, type ChartEnv, type ECOption } from './common'

/** What the actual figures cover: their platform (its name in words) and audience qualifier. */
export interface TrendScope {
  /** The platform of the actual figures, as the picker names it ("PC"); plans have none. */
  platform: string
  q?: Qualifier
}

/** Dates shown at once before the chart scrolls. */
const VISIBLE_DAYS = 45

/**
 * The trend chart; `cutoff` marks the report's date on the axis. The actual figures are of one
 * platform while plans have none: the subtitle and the actual series' names say which. A partial
 * point (today so far, from realtime) is a faded bar and a hollow click point, and the subtitle
 * says so.
 */
export function trendOption(points: readonly TrendPoint[], cutoff: string | null, env: ChartEnv, scope?: TrendScope): ECOption {
  const { t } = env
  const dates = points.map((p) => p.date)
  const zooms = zoom(dates.length, VISIBLE_DAYS, 'x')
  const partial = points.some((p) => p.partial)
  const subtitle = [t('reports.chart.trend.subtitle'), ...(scope ? [t('reports.chart.trend.scope', { platform: scope.platform })] : []), ...(partial ? [t('reports.chart.trend.partial')] : [])].join(' · ')
  const actual = (key: string) => {
    const name = qualified(t, t(key), scope?.q ?? null)
    return scope ? `${name} · ${scope.platform}` : name
  }
  const base = frame(t('reports.chart.trend.title'), subtitle, env, { dataZoom: zooms.length > 0 })
  const marked = cutoff && dates.includes(cutoff)
  return {
    ...base,
    xAxis: { type: 'category', data: dates, axisLabel: { formatter: (d: string) => d.slice(5), hideOverlap: true }, axisTick: { alignWithLabel: true } },
    yAxis: [valueAxis(t('reports.unit.impressions'), env), valueAxis(t('reports.unit.clicks'), env, { splitLine: { show: false } })],
    dataZoom: zooms,
    series: [
      { type: 'bar', name: actual('reports.series.actualImp'), data: points.map((p) => (p.partial ? { value: p.imp_day, itemStyle: { opacity: 0.4 } } : p.imp_day)), barMaxWidth: 18,
        ...(marked ? { markLine: { silent: true, symbol: 'none', label: { formatter: t('reports.chart.cutoff') }, lineStyle: { type: 'dotted' }, data: [{ xAxis: cutoff }] } } : {}) },
      { type: 'line', name: t('reports.series.planImp'), data: points.map((p) => p.plan_imp), step: 'middle', symbol: 'none', lineStyle: { type: 'dashed', width: 2 } },
      { type: 'line', name: actual('reports.series.actualClk'), yAxisIndex: 1, data: points.map((p) => (p.partial ? { value: p.clk_day, symbol: 'emptyCircle', symbolSize: 9 } : p.clk_day)), symbolSize: 5 },
      { type: 'line', name: t('reports.series.planClk'), yAxisIndex: 1, data: points.map((p) => p.plan_clk), step: 'middle', symbol: 'none', lineStyle: { type: 'dashed' } },
    ],
  }
}
