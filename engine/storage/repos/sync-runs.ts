/** Pulls and pushes of a remote profile as stored (sync_pulls with sync_pull_campaigns, sync_pushes). */
import type { Db } from '../db'

/** A pull's row (counts as JSON text). */
export interface StoredPull {
  pull_id: string
  profile_id: number
  state: string
  phase: string
  campaigns_total: number
  campaigns_done: number
  counts: string
  problem: string
  message: string
  /** The message's problem as JSON text ('' when it has none). */
  message_problem: string
  started_at: string
  finished_at: string
}

/** A push's row (results as JSON text). */
export interface StoredPush {
  push_id: string
  profile_id: number
  state: string
  ops_total: number
  ops_done: number
  results: string
  problem: string
  message: string
  /** The message's problem as JSON text ('' when it has none). */
  message_problem: string
  started_at: string
  finished_at: string
}

/** The newest pull of a profile (`T`: the caller's narrower form of StoredPull). */
export const latestPull = <T extends StoredPull>(db: Db, profileId: number): T | undefined =>
  db.get<T>('SELECT * FROM sync_pulls WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1', [profileId])

/** The newest 100 pulls of a profile, newest first. */
export const recentPulls = <T extends StoredPull>(db: Db, profileId: number): T[] =>
  db.query<T>('SELECT * FROM sync_pulls WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 100', [profileId])

/** The campaigns a pull finished. */
export const campaignsDoneBy = (db: Db, pullId: string): string[] =>
  db.query<{ campaign_id: string }>('SELECT campaign_id FROM sync_pull_campaigns WHERE pull_id = ?', [pullId]).map((x) => x.campaign_id)

/** Writes a pull's row, inserted or updated (its profile and start stay). */
export function savePull(db: Db, r: StoredPull): void {
  db.run(
    `INSERT INTO sync_pulls (pull_id, profile_id, state, phase, campaigns_total, campaigns_done, counts, problem, message, message_problem, started_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(pull_id) DO UPDATE SET state = excluded.state, phase = excluded.phase, campaigns_total = excluded.campaigns_total,
       campaigns_done = excluded.campaigns_done, counts = excluded.counts, problem = excluded.problem, message = excluded.message, message_problem = excluded.message_problem, finished_at = excluded.finished_at`,
    [r.pull_id, r.profile_id, r.state, r.phase, r.campaigns_total, r.campaigns_done, r.counts, r.problem, r.message, r.message_problem, r.started_at, r.finished_at],
  )
}

export const insertPullCampaign = (db: Db, pullId: string, campaignId: string): void =>
  void db.run('INSERT OR IGNORE INTO sync_pull_campaigns (pull_id, campaign_id) VALUES (?, ?)', [pullId, campaignId])

/** When the profile's last finished pull ended, if it has one. */
export const lastPullFinishedAt = (db: Db, profileId: number): string | undefined =>
  db.scalar<string>("SELECT MAX(finished_at) FROM sync_pulls WHERE profile_id = ? AND state = 'done'", [profileId])

/** Deletes the pulls of a profile that did not finish (they cannot be resumed). */
export const deleteUnfinishedPulls = (db: Db, profileId: number): void => void db.run("DELETE FROM sync_pulls WHERE profile_id = ? AND state <> 'done'", [profileId])

/** Writes a push's row, inserted or updated (its profile and start stay). */
export function savePush(db: Db, r: StoredPush): void {
  db.run(
    `INSERT INTO sync_pushes (push_id, profile_id, state, ops_total, ops_done, results, problem, message, message_problem, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(push_id) DO UPDATE SET state = excluded.state, ops_total = excluded.ops_total, ops_done = excluded.ops_done, results = excluded.results,
       problem = excluded.problem, message = excluded.message, message_problem = excluded.message_problem, finished_at = excluded.finished_at`,
    [r.push_id, r.profile_id, r.state, r.ops_total, r.ops_done, r.results, r.problem, r.message, r.message_problem, r.started_at, r.finished_at],
  )
}

/** The newest push of a profile (`T`: the caller's narrower form of StoredPush). */
export const latestPush = <T extends StoredPush>(db: Db, profileId: number): T | undefined =>
  db.get<T>('SELECT * FROM sync_pushes WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1', [profileId])

/** The newest 100 pushes of a profile, newest first. */
export const recentPushes = <T extends StoredPush>(db: Db, profileId: number): T[] =>
  db.query<T>('SELECT * FROM sync_pushes WHERE profile_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 100', [profileId])
