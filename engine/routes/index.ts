/** Every endpoint's handler, in one map typed against the endpoint table (STYLE H3). */
import type { Handlers } from '../runtime'
import { campaignsRead } from './campaigns-read'
import { campaignsWrite } from './campaigns-write'
import { localRoutes } from './local'
import { referenceRoutes } from './reference'
import { spotsRead } from './spots-read'
import { spotsWrite } from './spots-write'
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
  ...localRoutes,
} satisfies Handlers

// The map must not hold a handler for an endpoint the table does not declare.
type Extra = Exclude<keyof typeof handlers, keyof Handlers>
export const noExtraHandlers: [Extra] extends [never] ? true : Extra = true
