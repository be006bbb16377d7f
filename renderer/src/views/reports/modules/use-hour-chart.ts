/**
 * What the two hour-of-day views share (Hours: basic report, accumulated hours; Realtime: realtime
 * report, today's hours): one request, its hour series, the chart, the table and the notes.
 */
import { computed, type ComputedRef, type Ref } from 'vue'
import type { ExportMeta } from '../../../reports/export'
import type { Coverage } from '../../../reports/paging'
import { useI18n } from 'vue-i18n'
import type { ReportItem } from '../../../../../engine/contract/models-reports'
import type { ECOption } from '../../../charts/common'
import { hoursOption } from '../../../charts/hours-option'
import type { BuiltRequest } from '../../../reports/params'
import type { EmptyPanel } from '../../../reports/panel-state'
import { hourSeries, hoursTable, type RegionScope } from '../../../reports/rows-census'
import { qualifierOf, qualifyTable, type TableData } from '../../../reports/table'
import { exportMetaOf, useChartEnv, useViewReport, type ReportScope } from './use-report'

export interface HourChartSpec {
  /** The metric family: `acc_hHH` (accumulated to the date) or `hHH` (the day itself). */
  hourly: 'acc_h' | 'h'
  /** Which rows of the answer are added up. */
  rows: (request: BuiltRequest) => RegionScope
  /** More for the load key (a refresh counter); the request and the reload button are in it already. */
  extraKey?: () => string
  /** The chart's subtitle when not the view's default one. */
  subtitle?: () => string
  /** The last hour that has come (realtime today, reports/clock.ts); later hours are blank. 23 by default. */
  lastHour?: () => number
}

export interface HourChart {
  request: ComputedRef<BuiltRequest>
  data: Readonly<Ref<{ items: ReportItem[] } | null>>
  loading: Ref<boolean>
  error: Ref<string | null>
  option: ComputedRef<ECOption>
  table: ComputedRef<TableData>
  notes: ComputedRef<string[]>
  coverage: ComputedRef<Coverage | null>
  loadAll: () => void
  exportMeta: ComputedRef<ExportMeta>
  /** Synthetic panels behind target figures, and a panel refused for having no persons (use-report.ts). */
  synthetic: ComputedRef<string[]>
  emptyPanel: Ref<EmptyPanel | null>
}

export function useHourChart(scope: () => ReportScope, view: 'hours' | 'realtime', spec: HourChartSpec): HourChart {
  const { t } = useI18n()
  const chartEnv = useChartEnv()
  const { request, data, loading, error, names, notes, coverage, loadAll, synthetic, emptyPanel } = useViewReport<{ items: ReportItem[] }>(scope, view, { extraKey: spec.extraKey })
  const series = computed(() => hourSeries(data.value?.items ?? [], spec.hourly, spec.rows(request.value), spec.lastHour?.() ?? 23))
  // target rows are panel projections, stable rows the stable audience (docs/metrics.md): said in every title
  const q = computed(() => qualifierOf(request.value.params.by_audience))
  const option = computed(() => hoursOption(series.value, view, names.value, chartEnv.value, spec.subtitle?.(), q.value))
  const table = computed(() => qualifyTable(hoursTable(series.value, spec.hourly, names.value, t), t, q.value))
  const exportMeta = computed(() => exportMetaOf(scope(), request.value))
  return { request, data, loading, error, option, table, notes, coverage, loadAll, exportMeta, synthetic, emptyPanel }
}
