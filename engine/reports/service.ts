/**
 * The reports of an engine: the view of the measurement that report builders read (ReportEnv),
 * and the censuses kept between reports (census-cache.ts), dropped whenever the measurement's
 * state is replaced by one read from the log (a rebuild, a heal after a full disk).
 */
import { matchTarget, matches } from '../measure/panel'
import type { Measurement } from '../measure/service'
import type { Db } from '../storage/db'
import { CensusCache } from './census-cache'
import type { ReportEnv } from './env'

export class Reports {
  /** Censuses of basic and realtime reports, kept between requests. */
  private readonly censuses = new CensusCache()

  constructor(private readonly measure: Measurement) {
    measure.onReplaced(() => this.censuses.clear())
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
