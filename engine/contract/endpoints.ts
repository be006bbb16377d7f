/**
 * The endpoint table: every path the engine answers, declared once. The engine dispatches from
 * it, the renderer builds requests from it, the OpenAPI document is generated from it, and
 * tests check it against the spec in both directions.
 */
import { get, post, type EndpointDef } from './endpoint'
import { cmsEndpoints } from './endpoints-cms'
import { panelEndpoints } from './endpoints-panel'
import { referenceEndpoints } from './endpoints-reference'
import { reportEndpoints } from './endpoints-reports'
import { reportDaysEndpoints } from './endpoints-report-days'
import { minisiteEndpoints } from './endpoints-minisites'
import { trackingEndpoints } from './endpoints-tracking'
import { measureEndpoints } from './endpoints-measure'
import { adminEndpoints } from './endpoints-admin'
import { syncEndpoints } from './endpoints-sync'
import { syncPushEndpoints } from './endpoints-sync-push'
import { syncModeEndpoints } from './endpoints-sync-modes'
import * as m from './models'
import type { ParamsOf } from './params'
import { p } from './params'
import type { Infer } from './schema'

// spec §4.1: the token request; RFC 6749 fixes the order in which its parameters are checked,
// so they are all optional here and checked by the route.
const tokenEndpoints = {
  'oauth.token': post('/oauth/token', 'none', {
    grant_type: p.text(64).optional('password (available); client_credentials and refresh_token are marked unavailable'),
    username: p.text(255).optional(),
    password: p.text(1024).optional(),
    client_id: p.text(255).optional(),
    client_secret: p.text(1024).optional(),
    scope: p.text(255).optional('space-delimited subset of: cms admonitor local'),
    refresh_token: p.text(255).optional(),
  }, m.TokenResponse, { summary: 'Get an access token (OAuth 2.0 password grant)', spec: 'interface §4.1' }),
} as const

const localEndpoints = {
  'local.status': get('/local/v1/status', 'local', {}, m.ServerStatus, { summary: 'Engine name, version, schema version and time zone', spec: 'local' }),
  'openapi.json': get('/openapi.json', 'none', {}, m.OpenApiDocument, { summary: 'This OpenAPI 3.1 document', spec: 'local' }),
} as const

export const endpoints = {
  ...tokenEndpoints,
  ...cmsEndpoints,
  ...referenceEndpoints,
  ...reportEndpoints,
  ...reportDaysEndpoints,
  ...minisiteEndpoints,
  ...trackingEndpoints,
  ...measureEndpoints,
  ...localEndpoints,
  ...adminEndpoints,
  ...panelEndpoints,
  ...syncEndpoints,
  ...syncPushEndpoints,
  ...syncModeEndpoints,
} as const satisfies Record<string, EndpointDef>

export type Endpoints = typeof endpoints
export type EndpointId = keyof Endpoints
/** Decoded parameters of an endpoint. */
export type ParamsFor<K extends EndpointId> = ParamsOf<Endpoints[K]['params']>
/** The JSON an endpoint answers with on success. */
export type ResultOf<K extends EndpointId> = Infer<Endpoints[K]['response']>

