/**
 * Audience charts. The overview: projected persons reached and persons who clicked per position,
 * on one labelled scale. The composition: the share (%) of the unique audience
 * carrying each tag, and its index against the panel (100 = as in the panel; a line marks it),
 * side by side, one bar per position, tags grouped by type ("Age · 25-29"). Bars resting on fewer
 * than 300 panel persons are drawn faded in the warning colour, as the reach curve draws its small
 * samples, and their tooltip says so.
 */
import type { CompositionSeries } from '../reports/rows-panel'
import { isSmall } from '../reports/rows-panel'
import { compactNumber, formatNumber, frame, sampleBar, twoGrids, zoom, type ChartEnv, type ECOption } from './common'

/** The tooltip's value of a bar, with the small-sample mark. */
const barValue = (env: ChartEnv, text: (v: number) => string) => (v: unknown, i: number, small?: readonly boolean[]): string =>
  (typeof v === 'number' ? `${text(v)}${small?.[i] ? ` ⚠ ${env.t('reports.warn.short')}` : ''}` : '–')

/** Tags shown at once before the chart scrolls. */
const VISIBLE_TAGS = 16
/** Positions drawn at most (the table has them all). */
export const MAX_POSITIONS = 6

const categoryAxis = (gridIndex: number, data: readonly string[], showLabels: boolean) => ({
  type: 'category' as const, gridIndex, inverse: true, data: [...data],
  axisLabel: { show: showLabels, width: 120, overflow: 'truncate' as const, interval: 0 }, axisTick: { show: false },
})

const valueAxisIn = (gridIndex: number, name: string, extra: Record<string, unknown> = {}) =>
  ({ type: 'value' as const, gridIndex, name, nameLocation: 'middle' as const, nameGap: 24, splitLine: { lineStyle: { type: 'dashed' as const } }, ...extra })

/** The composition chart for `measure` (uim: the audience reached, ucl: those who clicked). */
export function audienceOption(series: readonly CompositionSeries[], tagLabels: readonly string[], measure: 'uim' | 'ucl', env: ChartEnv): ECOption {
  const { t } = env
  const shown = series.slice(0, MAX_POSITIONS)
  const zooms = zoom(tagLabels.length, VISIBLE_TAGS, 'y').map((z) => ({ ...z, yAxisIndex: [0, 1] }))
  const base = frame(t('reports.chart.audience.title'), t(`reports.chart.audience.${measure}`), env)
  const label = (p: CompositionSeries) => p.label || t('reports.position.campaign')
  const pct = barValue(env, (v) => `${v}%`)
  const idx = barValue(env, String)
  return {
    ...base,
    ...twoGrids(base, [t('reports.chart.audience.pct'), t('reports.chart.audience.idx')], zooms.length ? 32 : 16),
    tooltip: { trigger: 'axis', confine: true, axisPointer: { type: 'shadow' } },
    yAxis: [categoryAxis(0, tagLabels, true), categoryAxis(1, tagLabels, false)],
    xAxis: [
      valueAxisIn(0, '%', { max: (v: { max: number }) => Math.min(100, Math.ceil(v.max / 10) * 10 || 10) }),
      valueAxisIn(1, t('reports.unit.index')),
    ],
    dataZoom: zooms,
    series: shown.flatMap((s, k) => [
      { type: 'bar' as const, name: label(s), xAxisIndex: 0, yAxisIndex: 0, data: s.pct.map((v, i) => sampleBar(v, s.small?.[i])) as never, barMaxWidth: 12, tooltip: { valueFormatter: (v: unknown, i: number) => pct(v, i, s.small) } },
      { type: 'bar' as const, name: label(s), xAxisIndex: 1, yAxisIndex: 1, data: s.idx.map((v, i) => sampleBar(v, s.small?.[i])) as never, barMaxWidth: 12, tooltip: { valueFormatter: (v: unknown, i: number) => idx(v, i, s.small) },
        ...(k === 0 ? { markLine: { silent: true, symbol: 'none', lineStyle: { type: 'dashed' as const }, label: { formatter: '100' }, data: [{ xAxis: 100 }] } } : {}) },
    ]),
  }
}

/** One position of the audience overview: projected persons reached and clicking, with samples. */
export interface OverviewBar {
  label: string
  uim: number | null
  ucl: number | null
  uimSample: number | null
  uclSample: number | null
}

/**
 * The overview chart: projected persons reached (uim_acc) and who clicked (ucl_acc) per position
 * and panel, on one labelled scale (two bars per position, each with its value), so the bars'
 * lengths compare honestly (each on its own unlabelled scale, 869,891 looked longer than 62,698,694).
 */
export function overviewOption(bars: readonly OverviewBar[], env: ChartEnv): ECOption {
  const { t } = env
  const base = frame(t('reports.sub.overview'), t('reports.chart.overview.subtitle'), env)
  const labels = bars.map((b) => b.label)
  const n = formatNumber(env.locale)
  const valueLabel = { show: true, position: 'right' as const, formatter: (p: { value?: unknown }) => n(p.value) }
  return {
    ...base,
    grid: { ...(base.grid as object), right: 72 },
    tooltip: { ...(base.tooltip as object), axisPointer: { type: 'shadow' } },
    yAxis: categoryAxis(0, labels, true),
    xAxis: valueAxisIn(0, t('reports.unit.persons'), { axisLabel: { formatter: compactNumber(env.locale), hideOverlap: true } }),
    series: [
      { type: 'bar', name: t('reports.measure.uim'), data: bars.map((b) => sampleBar(b.uim, isSmall(b.uimSample))) as never, barMaxWidth: 22, label: valueLabel },
      { type: 'bar', name: t('reports.measure.ucl'), data: bars.map((b) => sampleBar(b.ucl, isSmall(b.uclSample))) as never, barMaxWidth: 22, label: valueLabel },
    ],
  }
}
