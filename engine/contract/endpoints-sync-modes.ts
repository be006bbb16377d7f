// Local namespace: how the localhost door answers the vendor API's read endpoints, per group
// (DESIGN §4, docs/sync.md "Server modes"): from local data, forwarded to a remote profile and
// recorded, or offline from what was recorded
import { get, post } from './endpoint'
import { p } from './params'
import { arr, int, lit, obj, str } from './schema'

/** Groups of the vendor API's GET endpoints (writes always go to the local store). */
export const MODE_GROUPS = ['campaigns', 'reference', 'reports'] as const
export type ModeGroup = (typeof MODE_GROUPS)[number]
/** local: the local store (default); forward: the remote, answers recorded; offline: recorded answers and snapshots. */
export const SERVER_MODES = ['local', 'forward', 'offline'] as const
export type ServerMode = (typeof SERVER_MODES)[number]

/** The group of an endpoint id, by its first part (campaigns.*, reports.*, the reference lists). */
export function modeGroupOf(id: string): ModeGroup | null {
  const head = id.slice(0, id.indexOf('.'))
  if (head === 'campaigns') return 'campaigns'
  if (head === 'reports') return 'reports'
  return ['panels', 'regions', 'advertisers', 'brands', 'product', 'agencies', 'programs', 'plmttype', 'extensiontype'].includes(head) ? 'reference' : null
}

const ModeRow = obj({
  group: lit(...MODE_GROUPS),
  mode: lit(...SERVER_MODES),
  profile_id: str({ description: 'the remote profile (empty for local)' }),
  profile_name: str(),
  recorded: int('answers recorded from that profile for this group (report snapshots included)'),
  updated_at: str(),
})

const meta = (summary: string) => ({ summary, spec: 'local' })

export const syncModeEndpoints = {
  'sync.modes_list': get('/local/v1/sync/modes/list', 'local', {}, arr(ModeRow), meta('How each endpoint group is answered: local, forward (to a remote profile, recording) or offline (from recordings)')),
  'sync.modes_set': post('/local/v1/sync/modes/set', 'local', {
    group: p.oneOf(MODE_GROUPS).required(),
    mode: p.oneOf(SERVER_MODES).required(),
    profile_id: p.id().optional('the remote profile (forward and offline)'),
  }, arr(ModeRow), meta('Choose how an endpoint group is answered')),
} as const
