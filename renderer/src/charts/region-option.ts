/**
 * Region ranking: a horizontal bar per province or city, largest first, one bar per audience
 * group (targets). Long rankings scroll (the first 15 show); long names are cut with an ellipsis.
 * A target's unique figure resting on fewer than 300 panel persons is drawn faded in the warning colour.
 */
import type { RegionRank } from '../reports/rows-census'
import type { Names } from '../reports/names'
import { isSmall } from '../reports/rows-panel'
import { bottomName, frame, sampleBar, valueAxis, zoom, type ChartEnv, type ECOption } from './common'
import { formatNumberIn } from '../i18n/numbers'

/** Regions shown at once before the chart scrolls. */
const VISIBLE_REGIONS = 15

/** The ranking chart of `metric` (e.g. imp_acc); regions in the order of the first group's ranking. */
export function regionOption(ranks: readonly RegionRank[], metric: string, names: Names, env: ChartEnv, subtitle: string): ECOption {
  const { t } = env
  const groups = [...new Set(ranks.map((r) => r.group))]
  const order = [...new Set(ranks.filter((r) => r.group === groups[0]).map((r) => r.region_id))]
  const zooms = zoom(order.length, VISIBLE_REGIONS, 'y')
  const base = frame(t('reports.chart.region.title', { measure: t(`reports.measure.${metric.split('_')[0]}`) }), subtitle, env)
  const measure = metric.split('_')[0]
  const value = (g: string, region: string) => {
    const r = ranks.find((x) => x.group === g && x.region_id === region)
    return sampleBar(r?.values[metric] ?? null, (measure === 'uim' || measure === 'ucl') && isSmall(r?.base?.[measure]))
  }
  return {
    ...base,
    tooltip: { ...(base.tooltip as object), axisPointer: { type: 'shadow' } },
    grid: { ...(base.grid as object), right: zooms.length ? 36 : 16 },
    yAxis: { type: 'category', inverse: true, data: order.map((id) => names.region(id)), axisLabel: { width: 110, overflow: 'truncate', interval: 0 }, axisTick: { show: false } },
    xAxis: valueAxis('', env, bottomName(t(`reports.unit.${metric.split('_')[0]}`))),
    dataZoom: zooms,
    series: groups.map((g) => ({
      type: 'bar' as const, name: g ? names.target(g) : t(`reports.measure.${metric.split('_')[0]}`), data: order.map((id) => value(g, id)) as never, barMaxWidth: 14,
      label: { show: groups.length === 1, position: 'right' as const, formatter: (p: { value?: unknown }) => (typeof p.value === 'number' ? formatNumberIn(p.value, env.locale) : '') },
    })),
  }
}
