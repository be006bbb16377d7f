// Local namespace: how the localhost door answers the vendor API's read endpoints, per group
// (DESIGN §4, docs/sync.md "Server modes"): from local data, forwarded to a remote profile and
// recorded, or offline from what was recorded
import { get, post } from './endpoint'
import { cmsEndpoints } from './endpoints-cms'
import { referenceEndpoints } from './endpoints-reference'
import { reportEndpoints } from './endpoints-reports'
import { meta } from './endpoints-sync'
import { p } from './params'
import { arr, int, lit, obj, str } from './schema'

/** Groups of the vendor API's GET endpoints (writes always go to the local store). */
export const MODE_GROUPS = ['campaigns', 'reference', 'reports'] as const
export type ModeGroup = (typeof MODE_GROUPS)[number]
/** local: the local store (default); forward: the remote, answers recorded; offline: recorded answers and snapshots. */
export const SERVER_MODES = ['local', 'forward', 'offline'] as const
export type ServerMode = (typeof SERVER_MODES)[number]

const GROUP_OF = new Map<string, ModeGroup>([
  ...Object.keys(cmsEndpoints).map((id) => [id, 'campaigns'] as const),
  ...Object.keys(referenceEndpoints).map((id) => [id, 'reference'] as const),
  ...Object.keys(reportEndpoints).map((id) => [id, 'reports'] as const),
])

/** The group of an endpoint id: the table it is declared in (the campaigns, reference lists or reports of the vendor API). */
export function modeGroupOf(id: string): ModeGroup | null {
  return GROUP_OF.get(id) ?? null
}

const ModeRow = obj({
  group: lit(...MODE_GROUPS),
  mode: lit(...SERVER_MODES),
  profile_id: str({ description: 'the remote profile (empty for local)' }),
  profile_name: str(),
  recorded: int('answers recorded from that profile for this group (report snapshots included)'),
  updated_at: str(),
})

export const syncModeEndpoints = {
  'sync.modes_list': get('/local/v1/sync/modes/list', 'local', {}, arr(ModeRow), meta('How each endpoint group is answered: local, forward (to a remote profile, recording) or offline (from recordings)')),
  'sync.modes_set': post('/local/v1/sync/modes/set', 'local', {
    group: p.oneOf(MODE_GROUPS).required(),
    mode: p.oneOf(SERVER_MODES).required(),
    profile_id: p.id().optional('the remote profile (forward and offline)'),
  }, arr(ModeRow), meta('Choose how an endpoint group is answered')),
} as const
