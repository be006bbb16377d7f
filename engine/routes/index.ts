/** Every endpoint's handler, in one map typed against the endpoint table (STYLE H3). */
import type { Handlers } from '../handler'
import { campaignsRead } from './campaigns-read'
import { campaignsWrite } from './campaigns-write'
import { localRoutes } from './local'
import { panelRoutes } from './panel'
import { referenceRoutes } from './reference'
import { reportRoutes } from './reports'
import { reportDaysRoutes } from './report-days'
import { minisiteRoutes } from './minisites'
import { trackingRoutes } from './tracking'
import { measureRoutes } from './measure'
import { spotsRead } from './spots-read'
import { spotsWrite } from './spots-write'
import { syncRoutes } from './sync'
import { syncPushRoutes } from './sync-push'
import { targetRoutes } from './targets'
import { tokenRoutes } from './token'

export const handlers = {
  ...tokenRoutes,
  ...campaignsRead,
  ...campaignsWrite,
  ...targetRoutes,
  ...spotsRead,
  ...spotsWrite,
  ...referenceRoutes,
  ...reportRoutes,
  ...reportDaysRoutes,
  ...minisiteRoutes,
  ...trackingRoutes,
  ...measureRoutes,
  ...localRoutes,
  ...panelRoutes,
  ...syncRoutes,
  ...syncPushRoutes,
} satisfies Handlers

// The map must not hold a handler for an endpoint the table does not declare.
type Extra = Exclude<keyof typeof handlers, keyof Handlers>
export const noExtraHandlers: [Extra] extends [never] ? true : Extra = true
