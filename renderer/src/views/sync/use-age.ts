/**
 * Times and ages of fetched data in the interface language ("2025-01-20 10:00:05", "5 min ago"),
 * the time in the engine's zone (named on the page), the age kept current while the screen is shown.
 */
import { onBeforeUnmount, ref, type Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import { useEngineZone } from '../../composables/use-engine-zone'
import { formatDateTime } from '../../server/format'
import { ageLabel, isStale } from '../../sync/age'

export function useAge(): { now: Ref<number>; age: (iso: string) => string; when: (iso: string) => string; stale: (iso: string) => boolean } {
  const { t } = useI18n()
  const zone = useEngineZone()
  const now = ref(Date.now())
  const timer = setInterval(() => (now.value = Date.now()), 30_000)
  onBeforeUnmount(() => clearInterval(timer))
  const age = (iso: string): string => {
    const a = ageLabel(iso, now.value)
    return t(`sync.age.${a.key}`, { n: a.n })
  }
  return { now, age, when: (iso) => formatDateTime(iso, zone.value ?? undefined) || '—', stale: (iso) => isStale(iso, now.value) }
}
