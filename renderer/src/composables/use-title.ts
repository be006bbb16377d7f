/**
 * The window title says where you are: "<detail> · <screen> · AdMonitor Desk". Views set the
 * detail (a campaign's name) with `setTitleDetail`.
 */
import { ref, watchEffect } from 'vue'
import { useI18n } from 'vue-i18n'
import { useRoute } from 'vue-router'

const detail = ref<string | null>(null)

/** Sets the part of the title that names the record on screen (null: none). */
export function setTitleDetail(text: string | null): void {
  detail.value = text
}

/** Keeps document.title in step with the route, the detail and the language (App.vue). */
export function useWindowTitle(): void {
  const route = useRoute()
  const { t } = useI18n()
  watchEffect(() => {
    const screen = route.meta.title ? t(route.meta.title) : ''
    document.title = titleParts(detail.value, screen, t('common.app'))
  })
}

/** The title parts, for tests. */
export function titleParts(detailText: string | null, screen: string, app: string): string {
  return [detailText, screen, app].filter((x) => x).join(' · ')
}
