/**
 * Repeats `tick` every `intervalMs` while the calling component is mounted, one call at a time
 * (the next waits for the previous one to settle, so a slow engine never piles requests up).
 */
import { onBeforeUnmount, onMounted } from 'vue'

export function usePoll(tick: () => Promise<void>, intervalMs: number): { stopped: () => boolean } {
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false
  const loop = async (): Promise<void> => {
    if (stopped) return
    try {
      await tick()
    } finally {
      if (!stopped) timer = setTimeout(() => void loop(), intervalMs)
    }
  }
  onMounted(() => void loop())
  onBeforeUnmount(() => {
    stopped = true
    if (timer) clearTimeout(timer)
  })
  return { stopped: () => stopped }
}

/** Whether the calling component has been unmounted (long work checks it before updating). */
export function useUnmounted(): () => boolean {
  let gone = false
  onBeforeUnmount(() => (gone = true))
  return () => gone
}
