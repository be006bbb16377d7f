/**
 * Pushes as jobs (like pulls): at most one per profile, progress in memory while it runs, each
 * push kept in `sync_pushes` with its per-operation results (a row still `running` that no
 * process runs was interrupted).
 */
import type { Db } from '../storage/db'
import { latestPush, recentPushes, savePush } from '../storage/repos/sync-runs'
import type { ClientStats } from './client'
import { ProfileJobs, type JobContext } from './jobs'
import { runPush, type PushResult } from './push'
import { messageColumns, problemMember } from './said'
import { problem, type Problem } from '../contract/problems'

export interface PushRun {
  push_id: string
  profile_id: number
  state: 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted'
  ops_total: number
  ops_done: number
  results: PushResult[]
  stats: ClientStats
  problem: string
  message: string
  /** The message's problem as JSON text ('' when it has none). */
  message_problem: string
  started_at: string
  finished_at: string
}

interface PushRow extends Omit<PushRun, 'results' | 'stats'> {
  results: string
}

const save = (db: Db, r: PushRun) =>
  savePush(db, {
    push_id: r.push_id, profile_id: r.profile_id, state: r.state, ops_total: r.ops_total, ops_done: r.ops_done, results: JSON.stringify(r.results),
    problem: r.problem, message: r.message, message_problem: r.message_problem, started_at: r.started_at, finished_at: r.finished_at,
  })

const fromRow = (r: PushRow): PushRun => ({ ...r, state: r.state === 'running' ? 'interrupted' : r.state, results: JSON.parse(r.results) as PushResult[], stats: { requests: 0, logins: 0, retries: 0 } })

/** The wire form of a push (or of "never pushed"). */
export function pushStatus(r: PushRun | undefined, profileId: number) {
  const run = r ?? { push_id: '', profile_id: profileId, state: 'idle' as const, ops_total: 0, ops_done: 0, results: [], stats: { requests: 0, logins: 0, retries: 0 }, problem: '', message: '', message_problem: '', started_at: '', finished_at: '' }
  return {
    push_id: run.push_id, profile_id: String(run.profile_id), state: run.state, ops_total: run.ops_total, ops_done: run.ops_done,
    requests: run.stats.requests, logins: run.stats.logins, retries: run.stats.retries, results: run.results,
    problem: run.problem, message: run.message, ...problemMember(run.message_problem), started_at: run.started_at, finished_at: run.finished_at,
  }
}

/**
 * The problem that counts each outcome, in this order; `not_sent` is the operation a push stopped
 * at: it may have arrived (the next push finds out), so not "nothing".
 */
const COUNTED = { created: 'push.created', updated: 'push.updated', reconciled: 'push.reconciledN', failed: 'push.failed', conflict: 'push.inConflict', choose: 'push.waiting', blocked: 'push.blockedN', not_sent: 'push.cutOff' } as const

function summary(r: PushRun): Problem {
  const n = (o: string) => r.results.filter((x) => x.outcome === o).length
  const parts = (Object.keys(COUNTED) as (keyof typeof COUNTED)[]).filter((o) => n(o) > 0).map((o) => problem(COUNTED[o], { n: n(o) }))
  if (parts.length === 0) return problem('push.nothing', {})
  return problem('push.done', { outcomes: parts.reduce((first, next) => problem('push.and', { first, next })) })
}

export class PushJobs extends ProfileJobs<PushRun> {
  constructor(ctx: JobContext) {
    super(ctx, 'push', (r) => r.push_id)
  }

  /** Starts a push of the profile's outbox, or returns the one already running. */
  start(profileId: number): PushRun {
    return this.launch(profileId, (d) => {
      const run: PushRun = { push_id: this.ctx.newId(), profile_id: profileId, state: 'running', ops_total: 0, ops_done: 0, results: [], stats: d.client.stats, problem: '', message: '', message_problem: '', started_at: this.ctx.now(), finished_at: '' }
      this.ctx.db.tx(() => save(this.ctx.db, run))
      const work = runPush(d, run)
        .then(() => {
          run.state = 'done'
          Object.assign(run, messageColumns(summary(run)))
        })
        .catch((err: unknown) => {
          Object.assign(run, messageColumns(problem('push.stopped', { reason: this.stopped(run, err), summary: summary(run) })))
        })
        .then(() => this.recordEnd(run, () => save(this.ctx.db, run)))
      return { run, work }
    })
  }

  status(profileId: number) {
    const live = this.current(profileId)
    if (live) return pushStatus(live, profileId)
    const row = latestPush<PushRow>(this.ctx.db, profileId)
    return pushStatus(row ? fromRow(row) : undefined, profileId)
  }

  history(profileId: number) {
    const rows = recentPushes<PushRow>(this.ctx.db, profileId)
    return this.withLive(profileId, rows.map(fromRow)).map((r) => pushStatus(r, profileId))
  }
}
