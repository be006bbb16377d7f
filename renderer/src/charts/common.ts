/**
 * What every report chart shares: the option type (only the registered chart kinds), a frame with
 * title, legend, tooltip and a grid that keeps axis labels inside, number formatting, and the
 * warning colour (readable on the light and the dark theme).
 */
import type { BarSeriesOption, LineSeriesOption, MapSeriesOption } from 'echarts/charts'
import type {
  DataZoomComponentOption, GridComponentOption, LegendComponentOption, MarkLineComponentOption, TitleComponentOption, TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components'
import type { ComposeOption } from 'echarts/core'
import type { Translate } from '../reports/table'
import { formatNumberIn } from '../i18n/numbers'

export type { Translate }

/** An option of the report charts (STYLE H7: `ECOption`). */
export type ECOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | MapSeriesOption | TitleComponentOption | TooltipComponentOption | LegendComponentOption | GridComponentOption
  | DataZoomComponentOption | MarkLineComponentOption | VisualMapComponentOption
>

/** What a builder needs besides the data. */
export interface ChartEnv {
  t: Translate
  /** BCP 47 locale for numbers (en, zh-CN). */
  locale: string
}

/** Colour of figures on a small panel sample (naive-ui's warning colour). */
export const WARN_COLOR = '#f0a020'

/** A bar's data value, faded in the warning colour when it rests on a small panel sample. */
export const sampleBar = (v: number | null, small: boolean | undefined): number | null | { value: number | null; itemStyle: { color: string; opacity: number } } =>
  (small ? { value: v, itemStyle: { color: WARN_COLOR, opacity: 0.45 } } : v)

/**
 * Series colours: mid-tone hues that read on the light and the dark background alike (ECharts'
 * 6 default palette has a dark slate third colour that vanishes on the dark theme).
 */
export const PALETTE = ['#5470c6', '#91cc75', '#ee6666', '#fac858', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc']

/** Numbers with thousands separators; '–' for no value. */
export const formatNumber = (locale: string) => (v: unknown): string => (typeof v === 'number' && Number.isFinite(v) ? formatNumberIn(v, locale) : '–')

/** Short numbers for axis labels: 1.2M, 120万. */
export const compactNumber = (locale: string) => (v: number): string => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(v)

/** Height above the plot: title, subtitle, legend. */
export const PLOT_TOP = 80

/**
 * A grid's outer bounds hold its axis labels and names (ECharts 6's successor of `containLabel`),
 * so long labels and axis names never spill over the title, the legend or the edges.
 */
export const CONTAINED = { outerBoundsMode: 'same', outerBoundsContain: 'all' } as const

/**
 * The frame of a chart: a title (and subtitle) at the top left, a scrolling legend under it, an
 * axis tooltip with formatted values, a transparent background (the card's colour shows through
 * in both themes) and a grid that contains its axis labels.
 */
export function frame(title: string, subtitle: string, env: ChartEnv, extra: { dataZoom?: boolean } = {}): ECOption {
  return {
    backgroundColor: 'transparent',
    color: PALETTE,
    title: { text: title, subtext: subtitle, left: 0, top: 0, textStyle: { fontSize: 14, fontWeight: 600 }, subtextStyle: { fontSize: 12 } },
    legend: { type: 'scroll', left: 0, right: 0, top: 46 },
    tooltip: { trigger: 'axis', confine: true, valueFormatter: formatNumber(env.locale) as (v: unknown) => string },
    grid: { left: 8, right: 16, top: PLOT_TOP, bottom: extra.dataZoom ? 40 : 4, ...CONTAINED },
  }
}

/** A value axis with a name (the unit) and short labels. */
export function valueAxis(name: string, env: ChartEnv, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'value', name, axisLabel: { formatter: compactNumber(env.locale), hideOverlap: true },
    splitLine: { lineStyle: { type: 'dashed' } }, ...extra,
  }
}

/**
 * Two plots side by side (two figures of different scales, each on its own axis rather than a
 * misleading second axis), with a small heading over each. `right` leaves room for a y slider.
 */
export function twoGrids(base: ECOption, headings: [string, string], right = 16, top = PLOT_TOP + 24): Pick<ECOption, 'grid' | 'title'> {
  return {
    grid: [
      { left: 8, right: '53%', top, bottom: 4, ...CONTAINED },
      { left: '51%', right, top, bottom: 4, ...CONTAINED },
    ],
    title: [
      base.title as object,
      { text: headings[0], left: 8, top: top - 24, textStyle: { fontSize: 12, fontWeight: 'normal' } },
      { text: headings[1], left: '51%', top: top - 24, textStyle: { fontSize: 12, fontWeight: 'normal' } },
    ],
  }
}

/** A category or value axis name placed under the axis, centred (never cut at the right edge). */
export const bottomName = (name: string): Record<string, unknown> => ({ name, nameLocation: 'middle', nameGap: 26 })

/** A slider and wheel zoom over a category axis, when there are more categories than fit. */
export function zoom(count: number, visible: number, axis: 'x' | 'y'): DataZoomComponentOption[] {
  if (count <= visible) return []
  const key = axis === 'x' ? 'xAxisIndex' : 'yAxisIndex'
  const end = (visible / count) * 100
  const slider = axis === 'x' ? { type: 'slider' as const, [key]: 0, bottom: 4, height: 22, start: 0, end } : { type: 'slider' as const, [key]: 0, right: 0, width: 18, start: 0, end }
  return [{ type: 'inside', [key]: 0, start: 0, end }, slider]
}

/**
 * The chart's accessible name (its `role=img` box): the title and subtitle the option draws, in
 * the interface language, else `fallback` (the view's name) while there is no option.
 */
export function chartLabel(option: ECOption | null | undefined, fallback: string): string {
  const raw = option?.title
  const title = (Array.isArray(raw) ? raw[0] : raw) as { text?: unknown; subtext?: unknown } | undefined
  const parts = [title?.text, title?.subtext].filter((x): x is string => typeof x === 'string' && x.trim() !== '')
  return parts.length ? parts.join(' · ') : fallback
}
