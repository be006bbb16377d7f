// Local namespace: sync with the real service (DESIGN §4, docs/sync.md): remote profiles, pulls,
// and the pulled (remote-origin) records, browsable offline
import { DOOR_PARAMS } from './envelope'
import { get, post } from './endpoint'
import { badRequest } from './errors'
import { Field, p } from './params'
import { any, arr, bool, idStr, int, lit, obj, str } from './schema'

/** What was pulled: campaigns with their spots, targets and publishers, and the reference lists. */
export const REMOTE_KINDS = [
  'campaign', 'spot', 'target', 'publisher', 'advertiser', 'brand', 'agency', 'product', 'program', 'plmttype', 'extensiontype', 'panel', 'region',
] as const
export type RemoteKind = (typeof REMOTE_KINDS)[number]

/** Why a connection or a pull failed, in one word (the message says it in plain words). */
export const REMOTE_PROBLEMS = [
  'unreachable', 'tls', 'timeout', 'reset', 'bad_credentials', 'bad_client', 'not_this_api', 'server_error',
  'bad_response', 'refused', 'rate_limited', 'no_secret', 'cancelled',
] as const
export type RemoteProblem = (typeof REMOTE_PROBLEMS)[number]

/** A password or client secret: any text but empty, kept as sent (no trimming). */
const secret = () =>
  new Field((raw, name) => {
    if (raw === '') throw badRequest('param.empty', { param: name })
    if (raw.length > 1024) throw badRequest('param.tooLong', { param: name, max: 1024 })
    return raw
  }, { type: 'string', format: 'password', maxLength: 1024 }, false)

const Profile = obj({
  profile_id: idStr(),
  name: str(),
  base_url: str({ description: 'the service address, e.g. https://api.cn.miaozhen.com' }),
  auth_url: str({ description: 'where /oauth/token is; default the origin of base_url' }),
  username: str(),
  client_id: str(),
  has_password: bool(),
  has_client_secret: bool(),
  created_at: str(),
  updated_at: str(),
  last_pull_at: str({ description: 'when the last complete pull finished; empty before the first' }),
})

const TestResult = obj({
  ok: bool(),
  problem: str({ description: `empty when ok; else one of ${REMOTE_PROBLEMS.join(', ')}` }),
  message: str({ description: 'what happened, in plain words' }),
  ms: int('time the test took'),
  scope: str({ description: 'the scope the remote granted (when the login worked)' }),
})

const KindCounts = obj({ kind: lit(...REMOTE_KINDS), added: int(), changed: int(), removed: int(), unchanged: int() })

export const PullStatus = obj({
  pull_id: str({ description: 'empty when the profile was never pulled' }),
  profile_id: idStr(),
  state: lit('idle', 'running', 'done', 'failed', 'cancelled', 'interrupted'),
  phase: lit('login', 'reference', 'campaigns', 'done'),
  resumed: bool('true when this run went on from an unfinished pull'),
  campaigns_total: int(), campaigns_done: int(),
  requests: int('requests sent to the remote by this run'), logins: int(), retries: int(),
  counts: arr(KindCounts),
  problem: str({ description: 'empty unless failed' }),
  message: str(),
  started_at: str(), finished_at: str(),
})

const RemoteMeta = { profile_id: idStr(), fetched_at: str({ description: 'when this version of the record was fetched' }) }

const RemoteRecord = obj({ kind: lit(...REMOTE_KINDS), remote_id: str(), parent_id: str({ description: 'campaign of a spot, target or publisher; advertiser of a brand' }), name: str(), ...RemoteMeta, record: any('the record as the remote answered it') })

const RemoteCampaignItem = obj({
  campaign_id: str(), campaign_name: str(), ...RemoteMeta,
  spots: int(), targets: int(), publishers: int(),
  campaign: any('campaigns/show with pmo_info=1 and dm_info=1, as the remote answered it'),
})

const RemoteCampaign = obj({
  campaign_id: str(), ...RemoteMeta,
  campaign: any('campaigns/show with pmo_info=1 and dm_info=1'),
  spots: any('campaigns/list_spots items (with spot_plan and keyword)'),
  targets: any('campaigns/list_targets items (with tag_id)'),
  publishers: any('campaigns/list_publishers items'),
})

/** Campaign reports whose answers can be pulled as snapshots (spec §4.4), and their paths. */
export const SNAPSHOT_REPORTS = {
  basic_show: '/admonitor/v1/reports/basic/show',
  realtime_show: '/admonitor/v1/reports/realtime/show',
  reach_show: '/admonitor/v1/reports/reach/show',
  audience_show_overview: '/admonitor/v1/reports/audience/show_overview',
  audience_show: '/admonitor/v1/reports/audience/show',
} as const
export type SnapshotReport = keyof typeof SNAPSHOT_REPORTS
const REPORT_NAMES = Object.keys(SNAPSHOT_REPORTS) as SnapshotReport[]
/** The most dates one snapshot pull may span. */
export const MAX_SNAPSHOT_DAYS = 92
/** Left out of a snapshot series' parameters: the door's, and campaign_id and date (columns of the series). */
export const SERIES_LEFT_OUT: readonly string[] = [...DOOR_PARAMS, 'campaign_id', 'date']

const Snapshot = obj({
  snapshot_id: idStr(), profile_id: idStr(), report: lit(...REPORT_NAMES), campaign_id: str(), date: str({ description: 'the report date (cut-off)' }),
  params: str({ description: 'the other report parameters, as a sorted query string' }),
  fetched_at: str(), version: str({ description: "the report's version member ('' when it has none)" }),
  progress_date: str({ description: 'basic/progress of the campaign when the snapshot was fetched' }),
  items: int(), previous_id: str({ description: 'the snapshot of the same report, parameters and date before this one; empty for the first' }),
  changed: bool('differs from the previous snapshot (the service restates numbers)'),
})

const SnapshotDiff = obj({
  previous_id: str(),
  items_added: int(), items_removed: int(), values_changed: int(),
  changes: arr(obj({ attributes: any('the item attributes, or {} for a top-level member'), name: str({ description: 'metric or member name' }), before: any('value before'), after: any('value now') })),
})

const SnapshotPull = obj({
  state: lit('done', 'failed'), problem: str(), message: str(), snapshots: arr(Snapshot),
})

/** The meta of a local endpoint. */
export const meta = (summary: string) => ({ summary, spec: 'local' })
/** The remote profile a local sync endpoint works on. */
export const profileId = () => p.id().required('a remote profile')
const rows = () => p.limit('offset').default({ m: 0, n: 500, offset: 0, count: 500 }, 'M,N: start row M (from 0), at most N rows')

export const syncEndpoints = {
  'sync.profiles_list': get('/local/v1/sync/profiles/list', 'local', {}, arr(Profile), meta('Remote profiles (secrets are never shown: has_password says whether one is stored)')),
  'sync.pull_start': post('/local/v1/sync/pull/start', 'local', {
    profile_id: profileId(),
    fresh: p.flag01().default(false, '1: start over instead of resuming an unfinished pull'),
    wait: p.flag01().default(true, '1 (default): answer when the pull ends; 0: answer at once, then poll pull/status'),
  }, PullStatus, meta('Pull campaigns, spots, targets, publishers and reference lists from the remote (resumes an unfinished pull)')),
  'sync.pull_status': get('/local/v1/sync/pull/status', 'local', { profile_id: profileId() }, PullStatus, meta('The running or last pull of a profile')),
  'sync.pull_cancel': post('/local/v1/sync/pull/cancel', 'local', { profile_id: profileId() }, PullStatus, meta('Stop the running pull; what it stored stays, the next pull resumes')),
  'sync.pulls_list': get('/local/v1/sync/pulls/list', 'local', { profile_id: profileId() }, arr(PullStatus), meta('Stored pulls of a profile, newest first')),
  'sync.campaigns_list': get('/local/v1/sync/campaigns/list', 'local', {
    profile_id: profileId(),
    campaign_name: p.pattern().optional('PATTERN'),
    limit: rows(),
  }, arr(RemoteCampaignItem), meta('Pulled campaigns (offline)')),
  'sync.campaigns_show': get('/local/v1/sync/campaigns/show', 'local', {
    profile_id: profileId(),
    campaign_id: p.text(64).required('the remote campaign id'),
  }, RemoteCampaign, meta('A pulled campaign with its spots, targets and publishers (offline)')),
  'sync.records_list': get('/local/v1/sync/records/list', 'local', {
    profile_id: profileId(),
    kind: p.oneOf(REMOTE_KINDS).required(),
    name: p.pattern().optional('PATTERN on the name'),
    parent_id: p.text(64).optional('only records of this campaign (spots, targets, publishers) or advertiser (brands)'),
    limit: rows(),
  }, arr(RemoteRecord), meta('Pulled records of one kind (offline)')),
  'sync.snapshots_list': get('/local/v1/sync/snapshots/list', 'local', {
    profile_id: profileId(),
    report: p.oneOf(REPORT_NAMES).optional(),
    campaign_id: p.text(64).optional('the remote campaign id'),
    limit: rows(),
  }, arr(Snapshot), meta('Stored report snapshots, newest first')),
  'sync.snapshots_show': get('/local/v1/sync/snapshots/show', 'local', { snapshot_id: p.id().required() }, obj({ snapshot: Snapshot, body: any('the report as the remote answered it'), diff: SnapshotDiff }), meta('A report snapshot with what changed since the previous one')),
  'sync.snapshots_pull': post('/local/v1/sync/snapshots/pull', 'local', {
    profile_id: profileId(),
    report: p.oneOf(REPORT_NAMES).required(),
    params: p.text(2000).required('the report parameters as a query string, with campaign_id and date, e.g. campaign_id=12&date=2025-01-20&by_position=spot&metrics=all'),
    to_date: p.date().optional(`pull every date from the date in params to this one (at most ${MAX_SNAPSHOT_DAYS} days), one snapshot each`),
  }, SnapshotPull, meta('Pull report answers from the remote and keep them as snapshots (with the campaign progress date)')),
  'sync.profiles_test': post('/local/v1/sync/profiles/test', 'local', { profile_id: profileId() }, TestResult, meta('Log in to the remote with the profile and read one campaign; says what failed in plain words')),
  'sync.profiles_create': post('/local/v1/sync/profiles/create', 'local', {
    name: p.name(100).required('unique'),
    base_url: p.url().required('the service address'),
    auth_url: p.url().optional('where /oauth/token is; default the origin of base_url'),
    username: p.name(255).required(),
    password: secret().required('kept encrypted outside the database'),
    client_id: p.name(255).required(),
    client_secret: secret().required('kept encrypted outside the database'),
  }, Profile, meta('Add a remote profile')),
  'sync.profiles_update': post('/local/v1/sync/profiles/update', 'local', {
    profile_id: profileId(),
    name: p.name(100).optional(),
    base_url: p.url().optional(),
    auth_url: p.url().optional(),
    username: p.name(255).optional(),
    password: secret().optional('absent: kept'),
    client_id: p.name(255).optional(),
    client_secret: secret().optional('absent: kept'),
  }, Profile, meta('Change a remote profile')),
  'sync.profiles_delete': post('/local/v1/sync/profiles/delete', 'local', { profile_id: profileId() }, obj({ profile_id: idStr() }), meta('Delete a remote profile, its secrets and everything pulled with it')),
} as const
