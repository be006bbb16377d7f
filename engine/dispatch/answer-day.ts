/** What an answer is valid for: the day it is for and the versions of what it read. */
import type { EndpointDef } from '../contract/endpoint'
import type { Services } from '../services'
import { dateIn } from '../time-zone'
import type { Call } from './call'

/** The date (engine time zone) the call's answer is for, read once a step or the handler first needs it. */
export function todayOf(call: Call, s: Pick<Services, 'settings' | 'clock'>): string {
  return (call.today ??= dateIn(s.settings.timeZone, s.clock.now()))
}

/**
 * The version a kept answer of `def` is valid for: the next database write ends it; for reports
 * (`cache: 'measure'`) the next counted event too.
 */
export function keptVersion(def: EndpointDef, s: Pick<Services, 'db' | 'measure'>): number | string {
  return def.cache === 'measure' ? `${s.db.version}|${s.measure.version}` : s.db.version
}
