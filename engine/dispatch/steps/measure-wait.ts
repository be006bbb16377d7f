/**
 * Answers that read the counted events wait out a reading of the event log, at start or in a
 * rebuild (Measurement.settled). Tracking hits need not: the ingest holds them (Ingest.exclusive).
 */
import type { EndpointId } from '../../contract/endpoints'
import type { Services } from '../../services'
import type { Step } from '../call'

/** Endpoints besides the reports (`cache: 'measure'`) that read the counted events: the held events, the columns. */
const READS_MEASUREMENT: ReadonlySet<EndpointId> = new Set(['measurement.status', 'simulate.run'])

/** The measure wait step. */
export function measureWait(measure: Pick<Services['measure'], 'settled'>): Step {
  return {
    name: 'measure wait',
    applies: ({ id, def }) => def.cache === 'measure' || READS_MEASUREMENT.has(id),
    async run(call, next) {
      await measure.settled()
      return next(call)
    },
  }
}
