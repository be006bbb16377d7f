/**
 * Schema version 4: sync with the real service (DESIGN §4, docs/sync.md). Remote profiles hold
 * no secret: `secret_ref` names an entry of secrets.json (encrypted, outside the database).
 * Pulled records live in their own table, never mixed into the local campaign tables: one row
 * per (profile, kind, parent, remote id) with the JSON as the remote answered it and its hash.
 * Report snapshots keep every fetch (the service restates numbers): history, and diffs between them.
 */
export const SCHEMA_V4 = `
CREATE TABLE sync_profiles (
  profile_id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  base_url TEXT NOT NULL,
  auth_url TEXT NOT NULL,
  username TEXT NOT NULL,
  client_id TEXT NOT NULL,
  secret_ref TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE remote_records (
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  parent_id TEXT NOT NULL,
  remote_id TEXT NOT NULL,
  name TEXT NOT NULL,
  record TEXT NOT NULL,
  hash TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, kind, parent_id, remote_id)
) WITHOUT ROWID;
CREATE INDEX remote_records_name ON remote_records(profile_id, kind, name);
CREATE TABLE sync_pulls (
  pull_id TEXT PRIMARY KEY,
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  phase TEXT NOT NULL,
  campaigns_total INTEGER NOT NULL,
  campaigns_done INTEGER NOT NULL,
  counts TEXT NOT NULL,
  problem TEXT NOT NULL,
  message TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL
);
CREATE INDEX sync_pulls_profile ON sync_pulls(profile_id, started_at);
CREATE TABLE remote_snapshots (
  snapshot_id INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  report TEXT NOT NULL,
  campaign_id TEXT NOT NULL,
  date TEXT NOT NULL,
  params TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  version TEXT NOT NULL,
  progress_date TEXT NOT NULL,
  items INTEGER NOT NULL,
  body TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX remote_snapshots_key ON remote_snapshots(profile_id, report, campaign_id, params, date, snapshot_id);
CREATE TABLE sync_pull_campaigns (
  pull_id TEXT NOT NULL REFERENCES sync_pulls(pull_id) ON DELETE CASCADE,
  campaign_id TEXT NOT NULL,
  PRIMARY KEY (pull_id, campaign_id)
) WITHOUT ROWID;
`

/**
 * Schema version 5: push (docs/sync.md "Push"). The outbox holds pending operations of a profile,
 * each self-contained (its parameters are kept, so editing or deleting the local draft later does
 * not change what is sent); `sync_id_map` maps local ids to the remote ids a push created;
 * `sync_pushes` keeps each push with its per-operation results. `sync_modes` chooses, per endpoint
 * group, whether the localhost door answers from local data, forwards to a profile's remote, or
 * answers offline from what forwarding recorded (`sync_answers`, and report snapshots).
 */
export const SCHEMA_V5 = `
CREATE TABLE sync_outbox (
  op_id INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  op TEXT NOT NULL,
  local_id TEXT NOT NULL,
  parent_local_id TEXT NOT NULL,
  parent_remote_id TEXT NOT NULL,
  remote_id TEXT NOT NULL,
  name TEXT NOT NULL,
  params TEXT NOT NULL,
  base TEXT NOT NULL,
  base_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  step TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  problem TEXT NOT NULL,
  message TEXT NOT NULL,
  conflict TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX sync_outbox_profile ON sync_outbox(profile_id, op_id);
CREATE TABLE sync_id_map (
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  local_id TEXT NOT NULL,
  remote_id TEXT NOT NULL,
  mapped_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, kind, local_id)
) WITHOUT ROWID;
CREATE TABLE sync_pushes (
  push_id TEXT PRIMARY KEY,
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  ops_total INTEGER NOT NULL,
  ops_done INTEGER NOT NULL,
  results TEXT NOT NULL,
  problem TEXT NOT NULL,
  message TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL
);
CREATE INDEX sync_pushes_profile ON sync_pushes(profile_id, started_at);
CREATE TABLE sync_modes (
  endpoint_group TEXT PRIMARY KEY,
  mode TEXT NOT NULL,
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  updated_at TEXT NOT NULL
);
CREATE TABLE sync_answers (
  profile_id INTEGER NOT NULL REFERENCES sync_profiles(profile_id) ON DELETE CASCADE,
  endpoint_group TEXT NOT NULL,
  path TEXT NOT NULL,
  query TEXT NOT NULL,
  body TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, path, query)
) WITHOUT ROWID;
`

/**
 * Schema version 7: each message a pull, a push and an outbox operation store has its problem
 * beside it (engine/sync/said.ts), as JSON text; '' for a message of no key, as every row written
 * before this version has.
 */
export const SCHEMA_V7 = `
ALTER TABLE sync_pulls ADD COLUMN message_problem TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_pushes ADD COLUMN message_problem TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_outbox ADD COLUMN message_problem TEXT NOT NULL DEFAULT '';
`
