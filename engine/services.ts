/** The engine's services, shared by every request (createEngine builds them once). */
import type { TokenService } from './auth/token-service'
import type { Clock } from './clock'
import type { Logger } from './logger'
import type { Measurement } from './measure/service'
import type { Random } from './random'
import type { Reports } from './reports/service'
import type { RequestLog } from './request-log'
import type { Db } from './storage/db'
import type { SyncService } from './sync/service'

export interface Settings {
  /** IANA zone in which dates and campaign status are reckoned (default Asia/Shanghai). */
  timeZone: string
  /** Base URL written into tracking tags (this engine's tracking endpoints). */
  publicUrl: string
  /** Name of the IP library (linked_iplib of campaigns). */
  ipLibrary: string
}

/** Services shared by every request. */
export interface Services {
  db: Db
  clock: Clock
  random: Random
  settings: Settings
  auth: TokenService
  log: Logger
  /** Events, ingest, panels: what tracking and reports use. */
  measure: Measurement
  /** What report builders read of the measurement, and the censuses kept between reports. */
  reports: Reports
  /** The last requests answered (the app's request log). */
  requests: RequestLog
  /** Remote profiles, their secrets and pulls (DESIGN §4). */
  sync: SyncService
}
