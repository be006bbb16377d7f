/**
 * A card that runs an engine job (event import, simulation): start it, follow it by polling until
 * it ends (or the card is left), say how it ended, and follow again a job that was still running
 * when the card is shown (the engine goes on with a job when the page is left). A refusal of the
 * request is said in the interface's language where it is a known one (refusals.ts).
 */
import { useMessage } from 'naive-ui'
import { computed, ref, type ComputedRef, type Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import { api } from '../api'
import { followJob, isRunning, jobMessage, type Job } from './jobs'
import { refusalText } from './refusals'
import { useUnmounted } from './use-poll'

export interface JobHooks {
  /** Time between two polls (followJob's default when not given). */
  intervalMs?: number
  /** The job is done: say so (a failed job is reported here with the engine's message). */
  succeeded: (last: Job) => void
  /** After any end, done or failed, once it has been said. */
  ended?: (last: Job) => void
}

export interface JobCard {
  /** The job followed (null before the first one). */
  job: Ref<Job | null>
  /** The request that starts a job is on its way. */
  sending: Ref<boolean>
  /** Sending, or a job still running: the card's controls wait. */
  busy: ComputedRef<boolean>
  /** Sends the request that starts a job, then follows it; errors are shown. The ended job, or null. */
  start: (send: () => Promise<Job>) => Promise<Job | null>
  /** Follows a job to its end. The ended job, or null when the card was left first. */
  follow: (first: Job) => Promise<Job | null>
  /** The job of `kind` still running among `jobs` (jobs.list), if any. */
  runningOf: (jobs: readonly Job[]) => Job | undefined
}

export function useJob(kind: Job['kind'], hooks: JobHooks): JobCard {
  const { t, locale } = useI18n()
  const message = useMessage()
  const gone = useUnmounted()
  const job = ref<Job | null>(null)
  const sending = ref(false)
  const busy = computed(() => sending.value || (job.value !== null && isRunning(job.value)))

  async function follow(first: Job): Promise<Job | null> {
    const last = await followJob(first, (id) => api.call('jobs.show', { job_id: id }), (j) => (job.value = j), { cancelled: gone, intervalMs: hooks.intervalMs })
    if (gone() || isRunning(last)) return null
    if (last.state === 'failed') message.error(t('server.job.failed', { message: jobMessage(last, t, locale.value) }))
    else hooks.succeeded(last)
    hooks.ended?.(last)
    return last
  }

  async function start(send: () => Promise<Job>): Promise<Job | null> {
    sending.value = true
    job.value = null
    try {
      const first = await send()
      sending.value = false
      return await follow(first)
    } catch (e) {
      message.error(refusalText((e as Error).message, t, locale.value))
      return null
    } finally {
      sending.value = false
    }
  }

  const runningOf = (jobs: readonly Job[]) => jobs.find((j) => j.kind === kind && isRunning(j))
  return { job, sending, busy, start, follow, runningOf }
}
