/**
 * Jobs of the local namespace (event import, simulation, rebuild; docs/import.md): progress,
 * state colours and labels, and following a job (or any status) by polling GET /local/v1/jobs/show. Pure.
 */
import type { ResultOf } from '../../../engine/contract/endpoints'
import { formatNumberIn } from '../i18n/numbers'
import type { Translate } from '../reports/table'
import { importMessageText } from './line-errors'

export type Job = ResultOf<'jobs.show'>

/**
 * What a finished job says, in the interface's language: a simulation's figures (job.simulation)
 * with thousands separators, an import's known sentences (a full campaign) in Chinese
 * (line-errors.ts), else the engine's `message` as it is (so that the Chinese interface shows no
 * English sentence of the engine's, nor unseparated numbers, where it knows the sentence).
 */
export function jobMessage(job: Job, t: Translate, locale: string): string {
  const s = job.simulation
  if (!s) return job.kind === 'import' ? importMessageText(job.message, t, locale) : job.message
  const n = (x: number) => formatNumberIn(x, locale)
  const made = t('server.job.simulation.made', { impressions: n(s.impressions), clicks: n(s.clicks), identities: n(s.identities), days: s.days, n: s.days })
  const parts = [made]
  const c = s.clients
  if (c) {
    parts.push(t('server.job.simulation.clients', { keepers: n(c.cookie_keepers), refusers: n(c.cookie_refusers), apps: n(c.apps), servers: n(c.server_to_server), bots: n(c.bots) }))
    parts.push(t('server.job.simulation.traffic', { nat: n(s.nat_groups ?? 0), prefetches: n(s.prefetches ?? 0), bot: n(s.bot_hits ?? 0), datacenter: n(s.datacenter_hits ?? 0) }))
  }
  if (s.capped > 0) parts.push(t('server.job.simulation.capped', { capped: n(s.capped) }))
  if (s.panel_persons > 0 && s.panel_oversampling > 1) parts.push(t('server.job.simulation.panel', { persons: n(s.panel_persons), factor: n(s.panel_oversampling) }))
  if (s.full > 0) parts.push(t('server.job.simulation.full', { full: n(s.full) }))
  return parts.join(locale.startsWith('zh') ? '；' : '; ')
}

/** Whether the job is still working. */
export const isRunning = (job: Job): boolean => job.state === 'running'

/**
 * Percentage done, 0 to 100. Done is 100 whatever the counts say; a running job never shows
 * 100 (rounded down) and shows 0 while its total is unknown.
 */
export function jobPercent(job: Job): number {
  if (job.state === 'done') return 100
  if (job.total <= 0) return 0
  const pct = Math.floor((job.processed / job.total) * 100)
  return Math.max(0, Math.min(job.state === 'running' ? 99 : 100, pct))
}

/** An import that ended with every line rejected: done, but nothing came in. */
export const nothingImported = (job: Job): boolean => job.state === 'done' && job.kind === 'import' && job.imported === 0 && job.rejected > 0

/**
 * The job's state as shown (a key under `server.job.state.`): a finished import says whether
 * lines were rejected or nothing came in at all, apart from a plain "Done".
 */
export function jobStateKey(job: Job): 'running' | 'done' | 'failed' | 'doneWithRejected' | 'nothingImported' {
  if (job.state !== 'done') return job.state
  return nothingImported(job) ? 'nothingImported' : job.rejected > 0 ? 'doneWithRejected' : 'done'
}

/** The colour of the progress bar: running default, done success, done with rejections warning, failed or nothing imported error. */
export function jobTone(job: Job): 'default' | 'success' | 'warning' | 'error' {
  if (job.state === 'failed' || nothingImported(job)) return 'error'
  if (job.state === 'running') return 'default'
  return job.rejected > 0 ? 'warning' : 'success'
}

/** An i18n key under `server.job.` and its parameters, describing where the job is. */
export interface JobLabel {
  key: 'running' | 'runningUnknown' | 'done' | 'doneWithRejected' | 'nothingImported' | 'simulated' | 'failed'
  params: Record<string, number | string>
}

export function jobLabel(job: Job): JobLabel {
  const counts = { processed: job.processed, total: job.total, imported: job.imported, rejected: job.rejected, percent: jobPercent(job) }
  if (job.state === 'failed') return { key: 'failed', params: { ...counts, message: job.message } }
  if (job.state === 'done') return { key: job.kind === 'simulate' ? 'simulated' : nothingImported(job) ? 'nothingImported' : job.rejected > 0 ? 'doneWithRejected' : 'done', params: counts }
  return { key: job.total > 0 ? 'running' : 'runningUnknown', params: counts }
}

/** Milliseconds from start to end (or to `now` while running) of a job, a pull or a push; 0 when the times are unreadable. */
export function jobDuration(job: Pick<Job, 'started_at' | 'finished_at'>, now: number): number {
  const start = Date.parse(job.started_at)
  const end = job.finished_at ? Date.parse(job.finished_at) : now
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : 0
}

export interface FollowOptions {
  /** Time between two polls. */
  intervalMs?: number
  /** Waits (injected for tests). */
  sleep?: (ms: number) => Promise<void>
  /** Stops following when it answers true (the page was left); the last job seen is returned. */
  cancelled?: () => boolean
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Reports `first`, then polls with `next` while `running` (or until following is cancelled),
 * reporting each state. A state that arrives after cancelling is not reported (it may belong to
 * what was shown before: another profile); it is still returned. Errors of `next` end the
 * following and are thrown.
 */
export async function followUntil<S>(first: S, next: (last: S) => Promise<S>, running: (s: S) => boolean, onUpdate: (s: S) => void, o: FollowOptions = {}): Promise<S> {
  const sleep = o.sleep ?? defaultSleep
  let s = first
  onUpdate(s)
  while (running(s) && !o.cancelled?.()) {
    await sleep(o.intervalMs ?? 500)
    if (o.cancelled?.()) break
    s = await next(s)
    if (o.cancelled?.()) break
    onUpdate(s)
  }
  return s
}

/** followUntil for a job of the engine, polled by its id while it runs. */
export const followJob = (first: Job, fetchJob: (jobId: string) => Promise<Job>, onUpdate: (job: Job) => void, o: FollowOptions = {}): Promise<Job> =>
  followUntil(first, (j) => fetchJob(j.job_id), isRunning, onUpdate, o)
