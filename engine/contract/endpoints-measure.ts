// Local namespace: event import, jobs, measurement status and rebuild, the traffic simulator
import { get, post } from './endpoint'
import { p } from './params'
import { arr, int, lit, obj, str } from './schema'

export const Job = obj({
  job_id: str(),
  kind: lit('import', 'simulate', 'rebuild'),
  state: lit('running', 'done', 'failed'),
  total: int(), processed: int(), imported: int(), rejected: int(),
  repeated: int("good lines not counted: their request_id repeats a media request id counted within 24 hours"),
  errors: arr(obj({ line: int(), error: str() })),
  message: str(), started_at: str(), finished_at: str(),
}, {
  /** A finished simulation's figures (its `message` says them in English; an interface says them in its language). */
  simulation: obj({
    impressions: int(), clicks: int(), identities: int(), days: int('days that got traffic'),
    capped: int('impressions not delivered: every identity found was at its frequency cap'),
    panel_persons: int(), panel_oversampling: int('how many times their true share panel persons were placed (1: at it)'),
    full: int('hits refused: the campaign is full'),
  }, {
    clients: obj({
      cookie_keepers: int('browsers keeping the amid cookie'), cookie_refusers: int('browsers refusing it, counted by address and user agent'),
      apps: int('apps sending device ids'), server_to_server: int('devices reported by a media server, without ids'), bots: int('declared bots'),
    }),
    nat_groups: int('addresses shared by two or more of the clients reached (households, offices, carrier NAT)'),
    prefetches: int('speculative requests answered and not counted'),
    bot_hits: int('hits the attribution classed as declared bots'), datacenter_hits: int('hits the attribution classed as from data centres'),
  }),
})

const MeasureStatus = obj({
  events: int('events held in memory'),
  identities: int(),
  identity_kinds: obj({
    device: int('device ids (IDFA, OAID, CAID, ...)'),
    cookie: int('first-party cookies (amid:)'),
    address: int('address+agent identities (ipua:): clients that keep no cookie and send no device id'),
    linked: int('ids that belong to the device of another id (ids that arrived together)'),
  }),
  log_bytes_written: int('event log bytes written since start'),
  campaigns: arr(obj({ campaign_id: str(), events: int() })),
  minisites: arr(obj({ minisite_id: str(), events: int() })),
})

const meta = (summary: string) => ({ summary, spec: 'local' })
const wait = () => p.flag01().default(true, '1 (default): answer when the job is done; 0: answer at once with the job to poll')

export const measureEndpoints = {
  'events.import': post('/local/v1/events/import', 'local', {
    format: p.oneOf(['ndjson', 'csv']).optional('the body: NDJSON lines or CSV with a header row (docs/import.md); when absent, csv for a CSV body (text/csv, application/csv, application/vnd.ms-excel ...) and ndjson otherwise'),
    wait: wait(),
  }, Job, { ...meta('Import an event log (impressions, clicks, minisite events)'), body: 'text' }),
  'jobs.show': get('/local/v1/jobs/show', 'local', { job_id: p.id().required() }, Job, meta('A job and its progress')),
  'jobs.list': get('/local/v1/jobs/list', 'local', {}, arr(Job), meta('The last 100 jobs, newest first')),
  'measurement.status': get('/local/v1/measurement/status', 'local', {}, MeasureStatus, meta('Events and identities held, per campaign and minisite')),
  'simulate.run': post('/local/v1/simulate/run', 'local', {
    campaign_id: p.id().required(),
    from_date: p.date().optional('first day; default the campaign start'),
    to_date: p.date().optional('last day; default the earlier of today and the campaign end'),
    seed: p.int(0, 2 ** 31 - 1).default(1, 'the same seed gives the same traffic'),
    scale: p.decimal(0.001, 100).default(1, 'multiplier of the planned volumes'),
    max_hits: p.int(1, 10_000_000).optional('stop after this many hits (a simulation plans 10,000,000 at most)'),
    append: p.flag01().default(false, '1: add to the events the campaign already has on those days; without it such days are refused (a second simulation would count its traffic again)'),
    wait: wait(),
  }, Job, meta("Generate realistic traffic for a campaign from its spots' plans (docs/simulator.md)")),
  'measurement.rebuild': post('/local/v1/measurement/rebuild', 'local', {}, obj({ events: int(), ms: int() }), meta('Derive every figure again from the raw event log')),
} as const
