/**
 * The source of the reports screen: local measurement (the API), or a
 * stored report snapshot series of a remote profile. Lists the series of every profile (this
 * campaign's id first), loads the chosen one, remembers the choice per campaign, and gives the
 * caller the views send their report requests through, with the snapshot that answered last.
 * With a snapshot source, "Compare with local measurement" (remembered with the source) puts the
 * local figures beside the snapshot's in every table (use-compare.ts).
 */
import { computed, ref, shallowRef, watch, type ComputedRef, type Ref, type ShallowRef } from 'vue'
import { useI18n } from 'vue-i18n'
import { api } from '../../../api'
import type { Caller } from '../../../reports/load'
import { laterServed, readSource, seriesOptions, snapshotCaller, snapshotReportOf, sourceValue, type ReportSource, type SeriesOption, type Snapshot } from '../../../reports/snapshot-source'
import { usePrefsStore } from '../../../stores/prefs'
import type { Profile } from '../../../sync/profile-form'

const SERIES_LIMIT = '0,20000'

export interface ReportSourceState {
  profiles: ShallowRef<Profile[]>
  options: ShallowRef<SeriesOption[]>
  source: Ref<ReportSource>
  /** The "Compare with local measurement" switch (remembered with the source). */
  compare: Ref<boolean>
  /** Comparing now: a snapshot source and the switch on. */
  comparing: ComputedRef<boolean>
  series: ShallowRef<Snapshot[]>
  /** The chosen series is being read (the views wait). */
  loading: Ref<boolean>
  error: Ref<string | null>
  /** The snapshot that answered the view's main request (the latest date answered). */
  served: ShallowRef<Snapshot | null>
  call: ComputedRef<Caller>
  /** Changes whenever the views must load again (source or series). */
  key: ComputedRef<string>
  resetServed: () => void
  /** Reads the series list and the chosen series again (the screen's Reload). */
  refresh: () => Promise<void>
}

/** Every profile's snapshot series (one list request per profile; a failing profile is left out). */
async function readOptions(campaignId: string): Promise<{ profiles: Profile[]; options: SeriesOption[] }> {
  const profiles = await api.call('sync.profiles_list').catch(() => [] as Profile[])
  const lists = await Promise.all(profiles.map((p) => api.call('sync.snapshots_list', { profile_id: p.profile_id, limit: SERIES_LIMIT }).catch(() => [] as Snapshot[])))
  return { profiles, options: profiles.flatMap((p, i) => seriesOptions(p.profile_id, lists[i]!, campaignId)) }
}

/** Snapshot bodies (sync.snapshots_show), each read once; a failed read is asked again next time. */
function bodyCache(): (s: Snapshot) => Promise<unknown> {
  const bodies = new Map<string, Promise<unknown>>()
  return (s) => {
    let p = bodies.get(s.snapshot_id)
    if (!p) {
      p = api.call('sync.snapshots_show', { snapshot_id: s.snapshot_id }).then((r) => r.body)
      p.catch(() => bodies.delete(s.snapshot_id))
      bodies.set(s.snapshot_id, p)
    }
    return p
  }
}

/** The snapshots of the chosen series; the latest read wins over a slower earlier one. */
function useSeries(source: Ref<ReportSource>) {
  const series = shallowRef<Snapshot[]>([])
  const loading = ref(false)
  const error = ref<string | null>(null)
  let seq = 0
  const read = async (): Promise<void> => {
    const s = source.value
    const mine = ++seq
    series.value = []
    error.value = null
    loading.value = s.kind === 'snapshot'
    if (s.kind === 'local') return
    try {
      const list = await api.call('sync.snapshots_list', { profile_id: s.profile_id, campaign_id: s.campaign_id, limit: SERIES_LIMIT })
      if (mine === seq) series.value = list
    } catch (e) {
      if (mine === seq) error.value = (e as Error).message
    } finally {
      if (mine === seq) loading.value = false
    }
  }
  return { series, loading, error, read }
}

/** The message of a report request the series cannot answer, in the interface language. */
function useMissingText(profileName: (id: string) => string): (profileId: string, report: string, date: string) => string {
  const { t, te } = useI18n()
  return (profileId, report, date) => {
    const named = { report: te(`reports.source.report.${report}`) ? t(`reports.source.report.${report}`) : report, date, profile: profileName(profileId) }
    return snapshotReportOf(`reports.${report}`) ? t('reports.source.missing', named) : t('reports.source.notKept', named)
  }
}

export function useReportSource(campaignId: () => string): ReportSourceState {
  const prefs = usePrefsStore()
  const profiles = shallowRef<Profile[]>([])
  const options = shallowRef<SeriesOption[]>([])
  const source = ref<ReportSource>({ kind: 'local' })
  const compare = ref(false)
  const served = shallowRef<Snapshot | null>(null)
  const { series, loading, error, read } = useSeries(source)
  const prefsKey = (): string => `reports.source.${campaignId()}`
  const missing = useMissingText((id) => profiles.value.find((p) => p.profile_id === id)?.name ?? `#${id}`)
  const body = bodyCache()

  const refreshOptions = async (id: string): Promise<void> => {
    const found = await readOptions(id)
    if (id !== campaignId()) return
    profiles.value = found.profiles
    options.value = found.options
    // A remembered series whose profile or snapshots are gone: back to local measurement.
    const cur = source.value
    if (cur.kind === 'snapshot' && !found.options.some((o) => o.profile_id === cur.profile_id && o.campaign_id === cur.campaign_id)) source.value = { kind: 'local' }
  }
  const remember = (): void => prefs.rememberFilters(prefsKey(), { source: sourceValue(source.value), compare: compare.value })
  watch(campaignId, (id) => {
    const kept = prefs.filtersOf(prefsKey(), { source: 'local', compare: false })
    source.value = readSource(kept.source)
    compare.value = kept.compare === true
    void refreshOptions(id)
  }, { immediate: true })
  watch(compare, remember)
  watch(() => sourceValue(source.value), () => {
    remember()
    served.value = null
    void read()
  }, { immediate: true })

  const call = computed<Caller>(() => {
    const s = source.value
    if (s.kind === 'local') return api.call.bind(api) as Caller
    return snapshotCaller(api.call.bind(api) as Caller, {
      series: series.value, body, served: (x) => (served.value = laterServed(served.value, x)), missing: (report, date) => missing(s.profile_id, report, date),
    })
  })
  const key = computed(() => `${sourceValue(source.value)}|${series.value.map((x) => x.snapshot_id).join()}|${loading.value}`)
  const refresh = async (): Promise<void> => {
    await Promise.all([refreshOptions(campaignId()), read()])
  }
  const comparing = computed(() => source.value.kind === 'snapshot' && compare.value)
  return { profiles, options, source, compare, comparing, series, loading, error, served, call, key, resetServed: () => (served.value = null), refresh }
}
