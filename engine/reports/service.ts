/**
 * The reports of an engine: the view of the measurement that report builders read (ReportEnv),
 * and the censuses kept between reports (census-cache.ts), dropped whenever the measurement's
 * state is replaced by one read from the log (a rebuild, a heal after a full disk), and kept on
 * disk beside each checkpoint for the first reports after a start (census-store.ts).
 */
import { matchTarget, matches } from '../measure/panel'
import type { Measurement } from '../measure/service'
import type { Logger } from '../logger'
import type { Partition } from '../measure/columns'
import type { Db } from '../storage/db'
import { CensusCache } from './census-cache'
import { CensusStore, keptFileOf } from './census-store'
import type { ReportEnv } from './env'

export class Reports {
  /** Censuses of basic and realtime reports, kept between requests. */
  private readonly censuses: CensusCache

  constructor(private readonly measure: Measurement, log: Logger | null = null) {
    const store = new CensusStore(keptFileOf(measure.eventLog), log)
    this.censuses = new CensusCache(undefined, {
      restore: (part, key) => store.restore(measure.ingest.base, this.keyOf(part), part, key),
      keyOf: (part) => this.keyOf(part),
    })
    measure.ingest.beside = { take: (current, parts) => store.take(this.censuses.current(), current, parts) }
    measure.onReplaced(() => this.censuses.clear())
  }

  /** A campaign's id, a minisite's as its negative (Ingest's keys of partitions). */
  private keyOf(part: Partition): number | undefined {
    const cols = this.measure.columns
    for (const [id, p] of cols.campaigns) if (p === part) return id
    for (const [id, p] of cols.minisites) if (p === part) return -id
    return undefined
  }

  /** What the report builders of one request read: `db`, the day it is (`today`), the events, identities and panels. */
  env(db: Db, today: string): ReportEnv {
    const m = this.measure
    return {
      db, today, columns: m.columns, identities: m.identities,
      panel: (id) => m.panel(id), personOf: (p) => m.personOf(p),
      matcher: (panel, targetId, expr) => matchTarget(panel, expr, targetId), matches,
      census: (spec) => this.censuses.get(spec),
    }
  }
}
