/**
 * A pull's progress: in memory while it runs, and in `sync_pulls` from its first checkpoint on
 * (the reference lists stored), with one row of `sync_pull_campaigns` per campaign finished, so
 * an interrupted, failed or cancelled pull resumes where it stopped.
 */
import { REMOTE_KINDS, type RemoteProblem } from '../contract/endpoints-sync'
import type { Db } from '../storage/db'
import type { ClientStats } from './client'
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
  notes: string[]
  problem: RemoteProblem | ''
  message: string
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
    done: new Set(), counts: {}, stats: { requests: 0, logins: 0, retries: 0 }, notes: [], problem: '', message: '', started_at: now, finished_at: '',
  }
}

/** A stored run; one still marked running that no process runs was interrupted. */
const fromRow = (r: PullRow, done: Set<string>): PullRun => ({
  ...r, state: r.state === 'running' ? 'interrupted' : r.state, resumed: false, stored: true, done, counts: JSON.parse(r.counts) as CountsByKind,
  stats: { requests: 0, logins: 0, retries: 0 }, notes: [],
})

/** The newest stored pull of a profile; one still marked running that no process runs was interrupted. */
export function latestRun(db: Db, profileId: number): PullRun | null {
  const r = db.get<PullRow>('SELECT * FROM sync_pulls WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1', [profileId])
  if (!r) return null
  const done = new Set(db.query<{ campaign_id: string }>('SELECT campaign_id FROM sync_pull_campaigns WHERE pull_id = ?', [r.pull_id]).map((x) => x.campaign_id))
  return fromRow(r, done)
}

export function listRuns(db: Db, profileId: number): PullRun[] {
  return db.query<PullRow>('SELECT * FROM sync_pulls WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 100', [profileId]).map((r) => fromRow(r, new Set()))
}

/** Writes the run's row (inside the caller's transaction). */
export function saveRun(db: Db, run: PullRun): void {
  db.run(
    `INSERT INTO sync_pulls (pull_id, profile_id, state, phase, campaigns_total, campaigns_done, counts, problem, message, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(pull_id) DO UPDATE SET state = excluded.state, phase = excluded.phase, campaigns_total = excluded.campaigns_total,
       campaigns_done = excluded.campaigns_done, counts = excluded.counts, problem = excluded.problem, message = excluded.message, finished_at = excluded.finished_at`,
    [run.pull_id, run.profile_id, run.state, run.phase, run.campaigns_total, run.campaigns_done, JSON.stringify(run.counts), run.problem, run.message, run.started_at, run.finished_at],
  )
  run.stored = true
}

export function markCampaignDone(db: Db, run: PullRun, campaignId: string): void {
  db.run('INSERT OR IGNORE INTO sync_pull_campaigns (pull_id, campaign_id) VALUES (?, ?)', [run.pull_id, campaignId])
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
    problem: r.problem, message: r.message, started_at: r.started_at, finished_at: r.finished_at,
  }
}
