/**
 * Messages between the bench driver (bench/index.ts) and its child processes: the engine server,
 * the bare node:http server and the load generator each run in their own process.
 */

/** Milliseconds since the child process started (performance.now() in the child). */
export interface StartMarks {
  /** Modules imported (node start and the bundled server's modules evaluated). */
  imported: number
  /** createEngine() resolved: snapshot read, journal replayed, migrations checked. */
  engineOpen: number
  /** Seeding done and flushed (seed mode only). */
  seeded?: number
  listening: number
}

export interface SeedInfo {
  token: string
  spotCampaignId: string
  campaigns: number
  spots: number
  /** How the spots were created: the batch endpoint, or create_spot_with_plan in a loop. */
  spotMethod: 'batch_create_spot_with_plan' | 'create_spot_with_plan loop'
  campaignsMs: number
  spotsMs: number
}

export type ServerReady = { type: 'ready'; port: number; marks: StartMarks; seed?: SeedInfo }
/** Memory in bytes; cpuMs: user + system CPU time of the process so far. */
export type ServerStats = { type: 'stats'; rss: number; heapUsed: number; external: number; cpuMs: number }
/** Functions with the most self time in a CPU profile (see bench/profile.ts). */
export interface HotFunction {
  name: string
  where: string
  selfPct: number
}

export type ServerProfiled = { type: 'profiled'; file: string; hot: HotFunction[] }
/** The first HTTP answer this server sent: when (ms since process start) and how long it took. */
export type ServerFirstAnswer = { type: 'first-answer'; at: number; ms: number; status: number }
export type ServerMessage = ServerReady | ServerStats | ServerProfiled | ServerFirstAnswer | { type: 'stopped' }

/** Driver -> server. */
export type ServerCommand = { type: 'stats' } | { type: 'stop' } | { type: 'profile-start' } | { type: 'profile-stop'; file: string }

/** One load run: `paths` are requested in turn (one shared counter over all connections). */
export interface LoadJob {
  type: 'job'
  name: string
  url: string
  paths: string[]
  connections: number
  warmupS: number
  durationS: number
  /** Requested (and answered) before and after each run, so that no backlog spills into the next run. */
  drainPath: string
  /** pid of the server under test, for its CPU time (Linux /proc). */
  serverPid?: number
  /** Request headers sent with every request (e.g. a User-Agent for tracking hits). */
  headers?: Record<string, string>
}

export interface LoadResult {
  name: string
  durationS: number
  completed: number
  rps: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  bytesPerResponse: number
  errors: number
  timeouts: number
  non2xx: number
  /** The first few socket errors of the measured run, as text. */
  errorSamples: string[]
  /** Distinct paths, and requests started during warm-up plus measurement (a path repeats once this passes paths). */
  distinctPaths: number
  requestsStarted: number
  /** CPU time of the load generator during the measured run, in % of one core. */
  loadCpuPct: number
  /** CPU time of the server during the measured run, in % of one core (filled in by the driver). */
  serverCpuPct?: number
  /** CPU time of every other process on the machine during the measured run, in % of one core (Linux). */
  otherCpuPct?: number
}

/** Load child -> driver: one per job. */
export type LoadMessage = { type: 'result'; result: LoadResult } | { type: 'result'; failed: string }

/** Driver -> report client (bench/report-client.ts): a GET, its body written to `keep` when given. */
export type ClientCommand = { type: 'get'; url: string; headers?: Record<string, string>; keep?: string } | { type: 'stop' }
/** Report client -> driver: one answer, timed from the request's start to the body's last byte. */
export type ClientGot = { type: 'got'; status: number; ms: number; bytes: number; headers: Record<string, string | string[] | undefined>; start?: string }
