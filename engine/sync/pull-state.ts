/**
 * A pull's progress: in memory while it runs, and in `sync_pulls` from its first checkpoint on
 * (the reference lists stored), with one row of `sync_pull_campaigns` per campaign finished, so
 * an interrupted, failed or cancelled pull resumes where it stopped.
 */
import { REMOTE_KINDS, type RemoteProblem } from '../contract/endpoints-sync'
import type { Db } from '../storage/db'
import { campaignsDoneBy, insertPullCampaign, latestPull, recentPulls, savePull } from '../storage/repos/sync-runs'
import type { Told } from '../contract/problems'
import type { ClientStats } from './client'
import { problemMember } from './said'
import type { CountsByKind } from './store'

export type PullState = 'idle' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted'
export type PullPhase = 'login' | 'reference' | 'campaigns' | 'done'

export interface PullRun {
  pull_id: string
  profile_id: number
  state: PullState
  phase: PullPhase
  resumed: boolean
  /** Whether `sync_pulls` has its row yet (a pull that fails before storing anything has none). */
  stored: boolean
  campaigns_total: number
  campaigns_done: number
  /** Campaigns finished by this pull (and the runs it resumed). */
  done: Set<string>
  counts: CountsByKind
  stats: ClientStats
  /** Lists and campaigns the remote refused and the pull skipped (the message when it ends). */
  notes: Told[]
  problem: RemoteProblem | ''
  message: string
  /** The message's problem as JSON text ('' when it has none). */
  message_problem: string
  started_at: string
  finished_at: string
}

/** A row of `sync_pulls`: the run without what lives only in memory. */
interface PullRow extends Omit<PullRun, 'resumed' | 'stored' | 'done' | 'counts' | 'stats' | 'notes'> {
  counts: string
}

export function newRun(pullId: string, profileId: number, now: string): PullRun {
  return {
    pull_id: pullId, profile_id: profileId, state: 'running', phase: 'login', resumed: false, stored: false, campaigns_total: 0, campaigns_done: 0,
    done: new Set(), counts: {}, stats: { requests: 0, logins: 0, retries: 0 }, notes: [], problem: '', message: '', message_problem: '', started_at: now, finished_at: '',
  }
}

/** A stored run; one still marked running that no process runs was interrupted. */
const fromRow = (r: PullRow, done: Set<string>): PullRun => ({
  ...r, state: r.state === 'running' ? 'interrupted' : r.state, resumed: false, stored: true, done, counts: JSON.parse(r.counts) as CountsByKind,
  stats: { requests: 0, logins: 0, retries: 0 }, notes: [],
})

/** The newest stored pull of a profile; one still marked running that no process runs was interrupted. */
export function latestRun(db: Db, profileId: number): PullRun | null {
  const r = latestPull<PullRow>(db, profileId)
  if (!r) return null
  const done = new Set(campaignsDoneBy(db, r.pull_id))
  return fromRow(r, done)
}

export function listRuns(db: Db, profileId: number): PullRun[] {
  return recentPulls<PullRow>(db, profileId).map((r) => fromRow(r, new Set()))
}

/** Writes the run's row (inside the caller's transaction). */
export function saveRun(db: Db, run: PullRun): void {
  savePull(db, {
    pull_id: run.pull_id, profile_id: run.profile_id, state: run.state, phase: run.phase, campaigns_total: run.campaigns_total, campaigns_done: run.campaigns_done,
    counts: JSON.stringify(run.counts), problem: run.problem, message: run.message, message_problem: run.message_problem, started_at: run.started_at, finished_at: run.finished_at,
  })
  run.stored = true
}

export function markCampaignDone(db: Db, run: PullRun, campaignId: string): void {
  insertPullCampaign(db, run.pull_id, campaignId)
  run.done.add(campaignId)
  run.campaigns_done = run.done.size
}

/** The wire form of a run (or of "never pulled"). */
export function toStatus(run: PullRun | null, profileId: number) {
  const r = run ?? { ...newRun('', profileId, ''), state: 'idle' as const }
  return {
    pull_id: r.pull_id, profile_id: String(r.profile_id), state: r.state, phase: r.phase, resumed: r.resumed,
    campaigns_total: r.campaigns_total, campaigns_done: r.campaigns_done,
    requests: r.stats.requests, logins: r.stats.logins, retries: r.stats.retries,
    counts: REMOTE_KINDS.flatMap((kind) => {
      const c = r.counts[kind]
      return c ? [{ kind, ...c }] : []
    }),
    problem: r.problem, message: r.message, ...problemMember(r.message_problem), started_at: r.started_at, finished_at: r.finished_at,
  }
}
