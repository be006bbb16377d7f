/**
 * "Compare with local measurement": with a snapshot source and the switch
 * on, the screen renders the current view a second time, hidden, with a scope whose `call` is the
 * API (LocalTables.vue). That copy's chart cards draw nothing: they hand their table (with its
 * loading and error) to a registry by card name. The visible chart cards take the local table of
 * their name from it and show `compareTables(snapshot table, local table)` (reports/compare.ts),
 * and, for plain line and bar charts, the local series beside the snapshot's (charts/compare-option.ts).
 * So every view is compared the same way, without a line of its own.
 */
import { computed, inject, onBeforeUnmount, provide, shallowReactive, watchEffect, type ComputedRef, type InjectionKey } from 'vue'
import { useI18n } from 'vue-i18n'
import type { ECOption } from '../../../charts/common'
import { withLocalSeries } from '../../../charts/compare-option'
import { compareTables, type CompareLabels } from '../../../reports/compare'
import type { TableData } from '../../../reports/table'

/** A card's table as the local copy of the view built it. */
export interface LocalSide {
  table: TableData
  option: ECOption | null
  loading: boolean
  error: string | null
}

interface Registry {
  /** Comparing now (snapshot source and the switch on). */
  on: () => boolean
  tables: Map<string, { owner: symbol; side: LocalSide }>
}

const REGISTRY: InjectionKey<Registry> = Symbol('reports-compare')
const SINK: InjectionKey<true> = Symbol('reports-compare-sink')

/** The screen: sets up the registry the chart cards of both copies meet in. */
export function provideCompare(on: () => boolean): void {
  provide(REGISTRY, { on, tables: shallowReactive(new Map()) })
}

/** LocalTables.vue: the chart cards under it are the local copy's (they hand their tables over). */
export const provideSink = (): void => provide(SINK, true)

/** Column titles of a compared table, in the interface language. */
function useLabels(): ComputedRef<CompareLabels> {
  const { t, locale } = useI18n()
  return computed(() => {
    void locale.value
    return {
      remote: (title) => t('reports.compare.remote', { title }),
      local: (title) => t('reports.compare.local', { title }),
      delta: () => t('reports.compare.delta'),
      deltaHint: (title, hint) => t('reports.compare.deltaHint', { title: hint ? `${title} (${hint})` : title }),
    }
  })
}

export interface CardCompare {
  /** This card belongs to the hidden local copy: render nothing. */
  sink: boolean
  /** The local side of this card, when comparing (null: not comparing, or not built yet). */
  local: ComputedRef<LocalSide | null>
  comparing: ComputedRef<boolean>
  /** The table to show: compared when comparing, else the card's own. */
  table: ComputedRef<TableData>
  /** The chart with the local series added, when comparing and that is simple (else null). */
  option: ComputedRef<ECOption | null>
}

/** A chart card's part in the comparison (`name`: the card's view name, the same in both copies). */
export function useCardCompare(name: () => string, own: () => LocalSide): CardCompare {
  const reg = inject(REGISTRY, null)
  const sink = inject(SINK, false)
  if (reg && sink) {
    const owner = Symbol(name())
    let last = name()
    watchEffect(() => {
      if (last !== name() && reg.tables.get(last)?.owner === owner) reg.tables.delete(last)
      last = name()
      reg.tables.set(last, { owner, side: own() })
    })
    onBeforeUnmount(() => {
      if (reg.tables.get(last)?.owner === owner) reg.tables.delete(last)
    })
  }
  const labels = useLabels()
  const comparing = computed(() => !sink && !!reg?.on())
  const local = computed(() => (comparing.value ? (reg!.tables.get(name())?.side ?? null) : null))
  const table = computed(() => (comparing.value ? compareTables(own().table, local.value?.table ?? { columns: [], rows: [] }, labels.value) : own().table))
  const option = computed(() => (comparing.value ? withLocalSeries(own().option, local.value?.option ?? null, labels.value.local) : null))
  return { sink, local, comparing, table, option }
}
