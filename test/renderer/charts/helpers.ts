/** Reading chart options in tests without the ECharts runtime. */
import type { ChartEnv, ECOption } from '../../../renderer/src/charts/common'
import { t } from '../reports/fixtures'

export const chartEnv: ChartEnv = { t, locale: 'en' }

type Any = Record<string, unknown>
const list = (v: unknown): Any[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Any[]

export const series = (o: ECOption): Any[] => list(o.series)
export const xAxes = (o: ECOption): Any[] => list(o.xAxis)
export const yAxes = (o: ECOption): Any[] => list(o.yAxis)
export const titles = (o: ECOption): Any[] => list(o.title)
export const zooms = (o: ECOption): Any[] => list(o.dataZoom)
export const grids = (o: ECOption): Any[] => list(o.grid)
/** The data values of a series (objects with `value` read as their value). */
export const values = (s: Any | undefined): unknown[] => list(s?.data).map((d) => (d !== null && typeof d === 'object' && 'value' in d ? d.value : d))
