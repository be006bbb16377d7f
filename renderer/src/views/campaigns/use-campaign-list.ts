/**
 * The list screen's data: remembered filters, sort and page size; the page of campaigns asked
 * from campaigns.list (server-side filtering, sorting and paging); loading and error state.
 */
import { onScopeDispose, reactive, ref, watch } from 'vue'
import type { Campaign } from '../../../../engine/contract/models'
import { api } from '../../api'
import { buildListParams, defaultListState, emptyFilters, normaliseListState, pageOf, type ListState } from '../../campaigns/list-query'
import { usePrefsStore } from '../../stores/prefs'
import { useReferenceStore } from '../../stores/reference'

const SCREEN = 'campaigns'
/** Typing in a search box waits this long before asking. */
const DEBOUNCE_MS = 300

export function useCampaignList() {
  const prefs = usePrefsStore()
  const reference = useReferenceStore()
  const state = reactive<ListState>(normaliseListState(prefs.filtersOf(SCREEN, { ...defaultListState() })))
  const page = ref(0)
  const rows = ref<Campaign[]>([])
  const hasMore = ref(false)
  const loading = ref(false)
  const loaded = ref(false)
  const error = ref<string | null>(null)
  const today = ref<string | null>(null)
  let seq = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  /** A filter change is waiting for its debounced load (which also covers its reset to page 0). */
  let pending = false

  async function load(): Promise<void> {
    clearTimeout(timer)
    pending = false
    const params = buildListParams(state, page.value)
    if (!params) return
    const mine = ++seq
    loading.value = true
    error.value = null
    try {
      const [answer, day] = await Promise.all([api.call('campaigns.list', params), reference.today()])
      if (mine !== seq) return
      const p = pageOf(answer, state.pageSize)
      // A page emptied by deletions: step back rather than show an empty page after the last one.
      if (p.rows.length === 0 && page.value > 0) {
        page.value -= 1
        return
      }
      rows.value = p.rows
      hasMore.value = p.hasMore
      today.value = day
      loaded.value = true
    } catch (e) {
      if (mine === seq) error.value = (e as Error).message
    } finally {
      if (mine === seq) loading.value = false
    }
  }

  watch(
    () => JSON.stringify(state),
    () => {
      prefs.rememberFilters(SCREEN, JSON.parse(JSON.stringify(state)) as Record<string, unknown>)
      pending = true
      page.value = 0
      clearTimeout(timer)
      timer = setTimeout(() => void load(), DEBOUNCE_MS)
    },
  )
  watch(page, () => {
    if (!pending) void load()
  })

  onScopeDispose(() => clearTimeout(timer))

  function clearFilters(): void {
    state.filters = emptyFilters()
  }

  return { state, page, rows, hasMore, loading, loaded, error, today, load, clearFilters }
}
