/**
 * Follows a job of the engine (a pull, a push) by polling its status until it ends, while the
 * component is mounted (followUntil, server/jobs.ts). Starting again (another profile) drops the
 * previous follow, and an answer of the previous one that lands later is never shown.
 */
import { onBeforeUnmount } from 'vue'
import { followUntil } from '../../server/jobs'

export interface Follower<S> {
  /**
   * Drops any previous follow and starts a new one: the check it returns stays true until the
   * next `begin` or `follow`, or the component unmounts (guard what an awaited answer does with it).
   */
  begin: () => () => boolean
  /**
   * Reports `first`, then polls `read` every `intervalMs` while `running`; `ended` gets the last
   * status (also when `first` has already ended). `current` continues the follow `begin` started.
   */
  follow: (first: S, read: () => Promise<S>, current?: () => boolean) => void
}

export function useFollow<S>(running: (s: S) => boolean, update: (s: S) => void, ended: (s: S) => void, failed: (e: Error) => void, intervalMs = 1000): Follower<S> {
  let generation = 0
  // unmounting stops following (the job goes on)
  onBeforeUnmount(() => void generation++)
  function begin(): () => boolean {
    const gen = ++generation
    return () => gen === generation
  }
  function follow(first: S, read: () => Promise<S>, current = begin()): void {
    if (!current()) return
    void followUntil(first, read, running, update, { intervalMs, cancelled: () => !current() }).then(
      (last) => current() && ended(last),
      (e: unknown) => current() && failed(e as Error),
    )
  }
  return { begin, follow }
}
