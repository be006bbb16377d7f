/**
 * Pulls as jobs (docs/sync.md "Pull"): at most one per profile, progress in memory while it runs
 * and checkpointed in the database (pull-state.ts); a pull that stores nothing (it failed to log
 * in) writes nothing. A pull that did not finish is resumed by the next start unless `fresh`.
 */
import { ProfileJobs, type JobContext } from './jobs'
import { runPull } from './pull'
import { messageColumns, oneAfterAnother } from './said'
import { latestRun, listRuns, newRun, saveRun, toStatus, type PullRun } from './pull-state'

export class PullJobs extends ProfileJobs<PullRun> {
  constructor(ctx: JobContext) {
    super(ctx, 'pull', (r) => r.pull_id)
  }

  /** Starts (or resumes) a pull of the profile, or returns the one already running. */
  start(profileId: number, fresh: boolean): PullRun {
    return this.launch(profileId, (d) => {
      const prior = fresh ? null : latestRun(this.ctx.db, profileId)
      const run = prior && prior.state !== 'done' ? { ...prior, state: 'running' as const, resumed: true, problem: '' as const, message: '', message_problem: '', finished_at: '' } : newRun(this.ctx.newId(), profileId, this.ctx.now())
      run.stats = d.client.stats
      const work = runPull(d, run).catch(async (err: unknown) => {
        // recorded in its row only when it has one
        Object.assign(run, messageColumns(oneAfterAnother([this.stopped(run, err), ...run.notes])))
        await this.recordEnd(run, run.stored ? () => saveRun(this.ctx.db, run) : null)
      })
      return { run, work }
    })
  }

  /** The running pull, else the last one of this process, else the newest stored one. */
  status(profileId: number) {
    return toStatus(this.current(profileId) ?? latestRun(this.ctx.db, profileId), profileId)
  }

  /** Stored pulls, newest first; the one running is shown live (its row says running too). */
  history(profileId: number) {
    return this.withLive(profileId, listRuns(this.ctx.db, profileId)).map((r) => toStatus(r, profileId))
  }
}
