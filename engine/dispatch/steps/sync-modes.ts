/**
 * Server modes (docs/sync.md "Server modes"): a GET of a group that forwards, or answers offline,
 * is answered by the remote or from its recordings, never by the local handler; a POST of such a
 * group is refused.
 */
import { modeGroupOf } from '../../contract/endpoints-sync-modes'
import { respond } from '../../respond'
import type { Services } from '../../services'
import type { Call, Step } from '../call'

/** The sync modes step; `waitForWrites` is the durability step's wait (a routed answer waits for the request's writes too). */
export function syncModes(s: Pick<Services, 'sync' | 'settings'>, waitForWrites: (call: Call) => Promise<void>): Step {
  return {
    name: 'sync modes',
    // (the local API is never forwarded)
    applies: ({ id, def }) => modeGroupOf(id) !== null && (def.method === 'POST' || def.auth !== 'local'),
    async run(call, next) {
      const { id, def, parsed, opts } = call
      if (def.method === 'POST') {
        s.sync.modes.checkWrite(id)
        return next(call)
      }
      const routed = await s.sync.modes.route(id, def.path, parsed.params, s.settings.publicUrl)
      if (!routed) return next(call)
      await waitForWrites(call)
      return respond(200, routed.body, opts, { 'x-admonitor-source': routed.source, 'x-admonitor-profile-id': String(routed.profileId), 'x-admonitor-fetched-at': routed.fetchedAt })
    },
  }
}
