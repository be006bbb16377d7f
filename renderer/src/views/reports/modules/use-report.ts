/**
 * What every report view shares: loading keyed by its requests (a newer request wins over a
 * slower older one), the chart environment (translation and number locale), and notes in words.
 */
import { computed, ref, shallowRef, watch, type ComputedRef, type Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import type { ChartEnv } from '../../../charts/common'
import { numberLocale } from '../../../i18n/numbers'
import { completing, send, type Caller, type ReportContext } from '../../../reports/load'
import { worstCoverage, type Coverage } from '../../../reports/paging'
import { makeNames, type Names, type NameSources } from '../../../reports/names'
import { emptyPanelOf, panelsSeen, syntheticPanels, type AnswerPanel, type EmptyPanel } from '../../../reports/panel-state'
import type { ExportMeta } from '../../../reports/export'
import { buildView, toWire, type BuiltRequest, type Note, type RequestEnv } from '../../../reports/params'
import type { Pickers, ViewKey } from '../../../reports/pickers'

/** What the screen hands each view. */
export interface ReportScope {
  ctx: ReportContext
  /** The pickers, with the panel and minisite resolved to ones the campaign has. */
  pickers: Pickers
  env: RequestEnv
  sources: NameSources
  /** Bumped by the reload button. */
  reload: number
  /** File name stem of exports: campaign name and date (the realtime views name today instead). */
  fileStem: string
  /** The source of the figures (local, or the snapshot series), written into exports. */
  source: string
  /**
   * What answers the report requests: the API (local measurement), or a report snapshot series
   * (use-report-source.ts). Views send every report request through it.
   */
  call: Caller
}

/**
 * Loads when `key` changes (null: nothing to load); only the latest load's answer is kept. A
 * refusal for an empty panel is kept apart from other errors: the card says it in its own words.
 */
function useReport<T>(key: () => string | null, load: () => Promise<T>): { data: Ref<T | null>; loading: Ref<boolean>; error: Ref<string | null>; emptyPanel: Ref<EmptyPanel | null> } {
  const data = shallowRef<T | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  const emptyPanel = shallowRef<EmptyPanel | null>(null)
  let seq = 0
  watch(key, async (k) => {
    const mine = ++seq
    error.value = null
    emptyPanel.value = null
    if (k === null) {
      data.value = null
      loading.value = false
      return
    }
    loading.value = true
    try {
      const result = await load()
      if (mine === seq) data.value = result
    } catch (e) {
      if (mine === seq) {
        data.value = null
        emptyPanel.value = emptyPanelOf(e)
        error.value = emptyPanel.value ? null : (e as Error).message
      }
    } finally {
      if (mine === seq) loading.value = false
    }
  }, { immediate: true })
  return { data, loading, error, emptyPanel }
}

/** The key of a set of requests (with the reload counter). */
const requestKey = (requests: readonly BuiltRequest[], reload: number, extra = ''): string =>
  JSON.stringify([requests.map((r) => [r.id, r.params]), reload, extra])

export interface ViewReportSpec<T> {
  /** Another reason to load nothing (no panel, no minisite). */
  idle?: () => boolean
  /** More for the load key; the requests and the reload button are in it already. */
  extraKey?: () => string
  /** Loads the answers; by default the view's one request is sent. */
  load?: (requests: BuiltRequest[], call: Caller) => Promise<T>
  /** Name sources beyond the scope's (the panel, the minisite). */
  sources?: () => Partial<NameSources>
}

export interface ViewReport<T> {
  /** The view's main (first) request. */
  request: ComputedRef<BuiltRequest>
  /** Every request of the view, in order. */
  requests: ComputedRef<BuiltRequest[]>
  data: ComputedRef<T | null>
  loading: Ref<boolean>
  error: Ref<string | null>
  names: ComputedRef<Names>
  /** Why a request cannot be sent (the API's reason), or null. */
  problem: ComputedRef<string | null>
  /** The requests' notes in words, each once. */
  notes: ComputedRef<string[]>
  /** What the answers leave out (the API's page of 500 spots), or null when they are whole. */
  coverage: ComputedRef<Coverage | null>
  /** Loads again with every spot (publisher, row) of the answers. */
  loadAll: () => void
  /** The panels whose synthetic population the view's panel figures come from (ids), or none. */
  synthetic: ComputedRef<string[]>
  /** The panel the engine refused to report on for having no persons, or null. */
  emptyPanel: Ref<EmptyPanel | null>
}

/**
 * How every view starts: its requests built from the pickers, loaded through the scope's caller
 * unless one has a problem (or `idle`), the names, the problem and the notes.
 */
export function useViewReport<T>(scope: () => ReportScope, view: ViewKey, spec: ViewReportSpec<T> = {}): ViewReport<T> {
  const noteText = useNoteText()
  const requests = computed(() => buildView(scope().pickers, view, scope().env))
  const request = computed(() => requests.value[0]!)
  const problem = computed(() => requests.value.find((r) => r.problem)?.problem ?? null)
  const load = spec.load ?? ((rs: BuiltRequest[], call: Caller) => send(call, rs[0]!) as Promise<T>)
  const all = ref(false)
  const { data: loaded, loading, error, emptyPanel } = useReport(
    () => (spec.idle?.() || problem.value !== null ? null : requestKey(requests.value, scope().reload, `${spec.extraKey?.() ?? ''}|${all.value}`)),
    async () => {
      const seen: (Coverage | null)[] = []
      const panels: (AnswerPanel | null)[] = []
      const call = completing(panelsSeen(scope().call, (p) => panels.push(p)), { all: all.value, spots: scope().ctx.spots, seen: (c) => seen.push(c) })
      return { result: await load(requests.value, call), coverage: worstCoverage(seen), synthetic: syntheticPanels(panels) }
    },
  )
  const data = computed(() => loaded.value?.result ?? null)
  const coverage = computed(() => loaded.value?.coverage ?? null)
  const synthetic = computed(() => loaded.value?.synthetic ?? [])
  const names = computed(() => makeNames({ ...scope().sources, ...spec.sources?.() }))
  const notes = computed(() => [...new Set(requests.value.flatMap((r) => r.notes.map(noteText)))])
  return { request, requests, data, loading, error, names, problem, notes, coverage, loadAll: () => (all.value = true), synthetic, emptyPanel }
}

/** Translation and number locale for the chart builders, following the interface language. */
export function useChartEnv(): ComputedRef<ChartEnv> {
  const { t, locale } = useI18n()
  return computed(() => ({ t: (k: string, named?: Record<string, unknown>) => (named ? t(k, named) : t(k)), locale: numberLocale(locale.value) }))
}

const VALUE_GROUP: Record<string, [string, string]> = {
  by_position: ['position', 'position'], by_audience: ['audience', 'audience'], by_region: ['level', 'level'],
  platform: ['platform', 'platform'], filtration_type: ['filtration', 'filtration'], metrics: ['period', 'period'],
}

/** A note in words: parameter and values named as the pickers name them. */
function useNoteText(): (n: Note) => string {
  const { t, te } = useI18n()
  return (n) => {
    const group = VALUE_GROUP[n.params.name ?? '']
    const value = (v: string | undefined) => (group && v && te(`reports.${group[1]}.${v}`) ? t(`reports.${group[1]}.${v}`) : (v ?? ''))
    const name = group ? t(`reports.picker.${group[0]}`) : (n.params.name ?? '')
    return t(`reports.note.${n.key}`, { ...n.params, name, value: value(n.params.value), used: value(n.params.used) })
  }
}

/** What an export of a view's table records: the campaign, the source and the request as sent. */
export function exportMetaOf(scope: ReportScope, r: BuiltRequest): ExportMeta {
  return { campaignId: scope.env.campaignId, campaignName: scope.ctx.campaign.campaign_name, source: scope.source, report: r.id, params: toWire(r.params) }
}
