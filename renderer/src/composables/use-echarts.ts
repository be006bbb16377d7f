/**
 * The one owner of ECharts (STYLE H7): registers only the chart kinds and components the report
 * charts use, creates a chart on an element, follows its size (ResizeObserver), repaints on a new
 * option, switches theme with the app (prefs.dark) and disposes the chart with the component.
 */
import { BarChart, LineChart } from 'echarts/charts'
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent } from 'echarts/components'
import { init, use, type EChartsType } from 'echarts/core'
import { CanvasRenderer } from 'echarts/renderers'
import { onBeforeUnmount, onMounted, shallowRef, watch, type Ref } from 'vue'
import type { ECOption } from '../charts/common'
import { usePrefsStore } from '../stores/prefs'

use([BarChart, LineChart, TitleComponent, TooltipComponent, LegendComponent, GridComponent, DataZoomComponent, MarkLineComponent, CanvasRenderer])

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
