/**
 * The reach curve: projected persons reached at least 1..10 times, a line per report row (at
 * most 8; the table has them all). Points resting on a panel sample under 300 are drawn as hollow
 * warning-coloured triangles, and the tooltip gives the sample and the share of the universe.
 */
import { format } from 'echarts/core'
import { FREQUENCIES, isSmall, type ReachCurve } from '../reports/rows-panel'
import { WARN_COLOR, bottomName, formatNumber, frame, valueAxis, type ChartEnv, type ECOption } from './common'

/** Curves drawn at most. */
export const MAX_CURVES = 8

interface TipParam { seriesIndex?: number; dataIndex?: number; marker?: unknown; seriesName?: string }

/** The tooltip of one frequency: each curve's reach, share of its universe and sample. */
export function reachTooltip(curves: readonly ReachCurve[], env: ChartEnv): (p: TipParam | TipParam[]) => string {
  const n = formatNumber(env.locale)
  return (params) => {
    const list = Array.isArray(params) ? params : [params]
    const i = list[0]?.dataIndex ?? 0
    const lines = list.map((p) => {
      const c = curves[p.seriesIndex ?? 0]
      if (!c) return ''
      const reach = c.reach[i] ?? null
      const share = reach !== null && c.universe ? ` (${((100 * reach) / c.universe).toFixed(1)}%)` : ''
      const sample = c.sample[i] ?? null
      const warn = isSmall(sample) ? ` ⚠ ${env.t('reports.warn.short')}` : ''
      // the label is names (spots, targets, publishers: typed by users or pulled from a remote): text, not HTML
      return `${typeof p.marker === 'string' ? p.marker : ''}${format.encodeHTML(c.label)}: ${n(reach)}${share} · ${env.t('reports.measure.sample')} ${n(sample)}${format.encodeHTML(warn)}`
    })
    return [`${i + 1}+`, ...lines].join('<br/>')
  }
}

/** The reach chart; GRP and universe in the subtitle (one curve) or in the legend names (several). */
export function reachOption(curves: readonly ReachCurve[], env: ChartEnv): ECOption {
  const { t } = env
  const shown = curves.slice(0, MAX_CURVES)
  const n = formatNumber(env.locale)
  const one = shown.length === 1 ? shown[0]! : null
  const subtitle = one ? t('reports.chart.reach.one', { grp: n(one.grp), universe: n(one.universe), imp: n(one.imp) }) : t('reports.chart.reach.subtitle')
  const base = frame(t('reports.chart.reach.title'), subtitle, env)
  return {
    ...base,
    tooltip: { trigger: 'axis', confine: true, formatter: reachTooltip(shown, env) as never },
    xAxis: { type: 'category', data: FREQUENCIES.map((_, i) => `${i + 1}+`), ...bottomName(t('reports.unit.frequency')), boundaryGap: false },
    yAxis: valueAxis(t('reports.unit.persons'), env),
    series: shown.map((c) => ({
      type: 'line' as const,
      name: one ? c.label : `${c.label} · GRP ${n(c.grp)}`,
      symbolSize: 7,
      data: c.reach.map((v, i) => (isSmall(c.sample[i]) ? { value: v, symbol: 'emptyTriangle', symbolSize: 11, itemStyle: { color: WARN_COLOR, borderColor: WARN_COLOR } } : { value: v })) as never,
    })),
  }
}
