/**
 * Follows a job of the engine (a push) by polling its status until it ends, while the component is
 * mounted; starting to follow again (another profile) drops the previous follow.
 */
import { onBeforeUnmount } from 'vue'

export interface Follower<S> {
  /** Polls `read` every `intervalMs` while `running(status)`; `update` gets each status, `ended` the last one. */
  follow: (read: () => Promise<S>) => void
  /** Stops following (the job goes on). */
  stop: () => void
}

export function useFollow<S>(running: (s: S) => boolean, update: (s: S) => void, ended: (s: S) => void, failed: (e: Error) => void, intervalMs = 1000): Follower<S> {
  let generation = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  const stop = (): void => {
    generation++
    if (timer) clearTimeout(timer)
    timer = null
  }
  onBeforeUnmount(stop)
  function follow(read: () => Promise<S>): void {
    stop()
    const gen = generation
    const tick = async (): Promise<void> => {
      try {
        const s = await read()
        if (gen !== generation) return
        update(s)
        if (running(s)) timer = setTimeout(() => void tick(), intervalMs)
        else ended(s)
      } catch (e) {
        if (gen === generation) failed(e as Error)
      }
    }
    timer = setTimeout(() => void tick(), intervalMs)
  }
  return { follow, stop }
}
