/** Input and results of the traffic simulator (docs/simulator.md). */
import type { RegionSeed } from '../../reference/types'
import type { Attribution, TrackingRequest } from '../attribute/types'
import type { Db } from '../../storage/db'
import type { PanelIndex } from '../panel/types'
import type { Hit } from '../types'
import type { PoolSize } from './audience'
import type { Cap } from './media'

/** What to simulate (docs/simulator.md). */
export interface SimulationInput {
  db: Db
  campaignId: number
  /** First and last day (YYYY-MM-DD, inclusive), clamped to the campaign's start_date..end_date. */
  from: string
  to: string
  /** The same seed (and input) gives the same hits, byte for byte. */
  seed: number
  /** Multiplier of the planned volumes (default 1). */
  scale?: number
  /** IANA zone of the days and hours (the engine's time zone). */
  timeZone: string
  /** The campaign's panel, if it has persons: some identities are its persons' devices. */
  panel: PanelIndex | null
  /** The region table in index order (regionTable()): the attribution's. */
  regions: readonly RegionSeed[]
  /**
   * The data directory's key of address identities (Measurement.identityKey): the simulation's
   * own Attributor then gives a refuser the `ipua:` identity the engine's would. By default a key
   * drawn from the seed (as another installation's).
   */
  identityKey?: Uint8Array
  /** Sees each distinct request once, when it is attributed, with the attribution (a request log, tests). */
  onRequest?: (request: TrackingRequest, attribution: Attribution) => void
  /** Stop after this many hits. */
  maxHits?: number
  /** No hit is made at or after this time (ms): today stops now, and later days are not planned. */
  until?: number
  /** Hits per chunk, at most CHUNK_SIZE (the default). */
  chunkSize?: number
  /**
   * Also hand out an empty chunk between pieces of the longer work (drawing the audience, a few
   * thousand clients at a time; attributing an hour's requests, a few thousand at a time), so
   * that a caller that lets other requests run between chunks does so there too (simulate/run).
   */
  pauses?: boolean
}

/** The volumes of one spot, day by day (the plan's `days` order). */
export interface SpotVolume {
  spot_id: number
  placement_type: string
  /** Keyword ids of the spot (ascending); its hits are spread over them. */
  keywords: number[]
  /** report_metrics counts impressions; when not, impressions only lead to the clicks. */
  emitsImpressions: boolean
  impressions: number[]
  clicks: number[]
  publisher_id: number
  /** Share of its impressions on mobile devices (media.ts). */
  mobileShare: number
  /** Its freq_capping, or null (S0+). */
  cap: Cap | null
  /** Keep chance of each demographic class (profiles.ts), or null: the population as it is. */
  profile: Float64Array | null
  /** Which of a device's two ids its apps fill (clients.ts FILL). */
  fill: number
}

/** What a simulation will produce, computed without generating it. */
export interface SimulationPlan {
  campaignId: number
  /** Dates simulated, ascending (empty when the range misses the campaign): none that begins at or after `until`. */
  days: string[]
  /** Of each day, the share of its traffic (by the hour curve) before `until`: 1 for a past day. */
  dayShare: number[]
  spots: SpotVolume[]
  /** Impressions and clicks of the days, whole (before maxHits, capping and `until`), and their sum. */
  impressions: number
  clicks: number
  hits: number
  /** The hits expected before `until` (each day's volume × its dayShare): what a run will make, about. */
  expectedHits: number
  /** The campaign's freq_capping (impressions an identity sees a day over all its spots), or null. */
  campaignCap: number | null
  /** What the audience is sized for: the days simulated, today's whole (plan.ts poolOf). */
  pool: PoolSize
}

/** Hits of one day. */
export interface DayTotals {
  date: string
  impressions: number
  clicks: number
}

/** What a simulation has produced so far; complete once its chunks are exhausted. */
export interface SimulationSummary {
  impressions: number
  clicks: number
  /** Distinct identity texts in the hits, and distinct panel persons among them. */
  identities: number
  panelPersons: number
  /**
   * Clients reached by kind: browsers keeping the cookie, browsers refusing it (counted by address
   * and agent), apps (device ids), media servers reporting without ids, declared bots.
   */
  clients: { keepers: number; refusers: number; apps: number; servers: number; bots: number }
  /** Addresses shared by two or more of the clients reached (households, offices, carrier NAT, proxies). */
  natGroups: number
  /** Speculative requests (prefetch, prerender) the browsers made: answered, not counted, not in the hits. */
  prefetches: number
  /**
   * How many times their true share panel persons are in the audience (1 when placed at it): the
   * sample panel figures rest on; their levels are calibrated to the counted traffic (metrics.md).
   */
  panelOversampling: number
  /** Impressions not delivered because every identity found was at its frequency cap. */
  capped: number
  days: number
  byDay: DayTotals[]
  /** Hits the attribution classed as declared bots and as from data-centre addresses. */
  invalid: { bot: number; datacenter: number }
  done: boolean
}

/** A simulation under way: its plan, its hits and what they added up to. */
export interface Simulation {
  plan: SimulationPlan
  /** The hits in chunks of at most chunkSize, in time order; returns the summary. Iterate once. */
  chunks: Generator<Hit[], SimulationSummary>
  summary: SimulationSummary
}
