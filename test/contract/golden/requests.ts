/**
 * The requests of the golden answers (test/contract/golden.test.ts), in the order they are asked.
 * Each has a name unique in the sweep; a request that needs an earlier answer (a tracking tag, a
 * fresh campaign) is a function of the engine, built when its turn comes.
 */
import { endpoints, type EndpointId } from '../../../engine/contract/endpoints'
import type { EngineRequest, EngineResponse } from '../../../engine/contract/envelope'
import { ACCOUNT, type TestEngine } from '../../helpers/make-engine'
import { campaignToSimulate, type Fixture } from '../../fixtures/seed'
import { CONTEXT, wrongValue } from '../sweep-values'

export interface GoldenRequest {
  name: string
  /** The request, or a function of the engine and the answer before it. */
  request: EngineRequest | ((t: TestEngine, last: EngineResponse | undefined) => Promise<EngineRequest>)
}

type Params = Record<string, string>

/** The campaign measured by the golden setup, and its parts. */
export interface Measured {
  campaign_id: string
  spot_id: string
  publisher_id: string
  target_id: string
  minisite_id: string
}

export interface Sweep {
  f: Fixture
  valid: Partial<Record<EndpointId, () => Params>>
  measured: Measured
  token: string
  textBody: (id: EndpointId) => string | undefined
}

/** Left out of the table sweep, asked in their own sections: the token, the batch (JSON), deletes and sign-out (last), tracking. */
const OWN_SECTION: readonly EndpointId[] = ['oauth.token', 'campaigns.batch_create_spot_with_plan', 'campaigns.delete', 'campaigns.delete_spot', 'minisites.delete', 'account.sign_out']

/** The request for endpoint `id` with `params` and the door's `door` parameters, as the sweep sends it. */
function requestFor(s: Sweep, id: EndpointId, params: Params, door: Params = {}, token: string | null = s.token): EngineRequest {
  const def = endpoints[id]
  const auth: Params = token ? { access_token: token } : {}
  const body = s.textBody(id)
  if (body !== undefined) return { method: 'POST', path: def.path, query: { ...params, ...door, ...auth }, body, headers: { 'content-type': 'application/x-ndjson' } }
  if (def.method === 'GET') return { method: 'GET', path: def.path, query: { ...params, ...door, ...auth } }
  return { method: 'POST', path: def.path, query: door, body: new URLSearchParams({ ...params, ...auth }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
}

/** Valid parameters of the report endpoints on the measured campaign (a day inside its simulated week). */
function reportParams(m: Measured): Partial<Record<EndpointId, () => Params>> {
  const c = { campaign_id: m.campaign_id, date: '2025-01-08' }
  return {
    'reports.basic_show': () => ({ ...c }),
    'reports.basic_progress': () => ({ campaign_id: m.campaign_id }),
    'reports.basic_days': () => ({ campaign_id: m.campaign_id, start_date: '2025-01-03', end_date: '2025-01-09' }),
    'reports.realtime_show': () => ({ ...c }),
    'reports.reach_show': () => ({ ...c }),
    'reports.audience_show_overview': () => ({ ...c }),
    'reports.audience_show': () => ({ ...c }),
    'reports.basic_show_minisite': () => ({ minisite_id: m.minisite_id, date: '2025-01-08' }),
    'reports.realtime_show_minisite': () => ({ minisite_id: m.minisite_id, date: '2025-01-08' }),
  }
}

/** Each endpoint of the table: valid, each required parameter missing, each enumerated value, each wrong form, the door's variants. */
function tableSweep(s: Sweep): GoldenRequest[] {
  const valid = { ...s.valid, ...reportParams(s.measured) }
  const out: GoldenRequest[] = []
  const ids = (Object.keys(endpoints) as EndpointId[]).filter((id) => !OWN_SECTION.includes(id) && !endpoints[id].rawParams)
  for (const id of ids) {
    const make: () => Params = valid[id] ?? (() => ({}))
    const params = Object.entries(endpoints[id].params)
    const add = (name: string, p: Params, door: Params = {}) => out.push({ name: `${id} ${name}`, request: requestFor(s, id, p, door) })
    add('valid', make())
    add('valid callback', make(), { callback: 'cb' })
    for (const [name, codec] of params) {
      if (!codec.required) continue
      const p = make()
      delete p[name]
      add(`missing ${name}`, p)
    }
    for (const [name, codec] of params) {
      const values = codec.schema.enum as readonly (string | number)[] | undefined
      if (!values) continue
      for (const v of values) {
        const p = { ...make(), ...CONTEXT[id]?.[name], [name]: String(v) }
        if (id === 'simulate.run' && name === 'append') {
          // (a simulation's days then have events: append=0 is tried on a campaign that has none)
          out.push({ name: `${id} ${name}=${v}`, request: async (t) => requestFor(s, id, { ...p, campaign_id: await campaignToSimulate(t, `Golden append=${v}`) }) })
        } else add(`${name}=${v}`, p)
      }
    }
    let first = true
    for (const [name, codec] of params) {
      const bad = wrongValue(codec.schema)
      if (bad === undefined) continue
      add(`${name}=${bad}`, { ...make(), [name]: bad })
      if (first) {
        add(`${name}=${bad} suppress_response_codes`, { ...make(), [name]: bad }, { suppress_response_codes: 'true' })
        add(`${name}=${bad} callback`, { ...make(), [name]: bad }, { callback: 'cb' })
        first = false
      }
    }
  }
  return out
}

/** Reports on the measured campaign beyond the table sweep: every day, platform, position, audience and filtration together. */
function reportSweep(s: Sweep): GoldenRequest[] {
  const m = s.measured
  const out: GoldenRequest[] = []
  const get = (name: string, id: EndpointId, p: Params) => out.push({ name: `report ${name}`, request: requestFor(s, id, p) })
  for (const date of ['2025-01-03', '2025-01-06', '2025-01-09', '2025-01-10']) {
    for (const platform of ['pc', 'mb', 'pm']) {
      for (const by_position of ['campaign', 'publisher', 'spot', 'keyword']) {
        get(`basic ${date} ${platform} ${by_position}`, 'reports.basic_show', { campaign_id: m.campaign_id, date, platform, by_position, metrics: 'all' })
      }
      get(`basic ${date} ${platform} target level1`, 'reports.basic_show', { campaign_id: m.campaign_id, date, platform, by_audience: 'target', by_region: 'level1', metrics: 'all' })
      get(`basic ${date} ${platform} stable totalnet`, 'reports.basic_show', { campaign_id: m.campaign_id, date, platform, by_audience: 'stable', metrics: 'all', filtration_type: 'totalnet' })
      get(`reach ${date} ${platform} spot target`, 'reports.reach_show', { campaign_id: m.campaign_id, date, platform, by_position: 'spot', by_audience: 'target' })
      get(`reach ${date} ${platform} publisher level1`, 'reports.reach_show', { campaign_id: m.campaign_id, date, platform, by_position: 'publisher', by_region: 'level1' })
      get(`realtime ${date} ${platform} spot hrs`, 'reports.realtime_show', { campaign_id: m.campaign_id, date, platform, by_position: 'spot', metrics: 'all' })
    }
    get(`audience ${date}`, 'reports.audience_show', { campaign_id: m.campaign_id, date, by_position: 'spot' })
    get(`audience overview ${date}`, 'reports.audience_show_overview', { campaign_id: m.campaign_id, date, by_position: 'publisher' })
  }
  get('basic level2 mb', 'reports.basic_show', { campaign_id: m.campaign_id, date: '2025-01-09', platform: 'mb', by_region: 'level2', metrics: 'acc' })
  get('basic paged', 'reports.basic_show', { campaign_id: m.campaign_id, date: '2025-01-09', by_position: 'spot', by_region: 'level2', metrics: 'all', limit: '2,3', order_desc: 'imp' })
  get('basic one spot', 'reports.basic_show', { campaign_id: m.campaign_id, date: '2025-01-09', by_position: 'spot', spot_id: m.spot_id, with_null: '1' })
  get('days mb spot', 'reports.basic_days', { campaign_id: m.campaign_id, start_date: '2025-01-01', end_date: '2025-01-12', platform: 'mb', by_position: 'spot' })
  return out
}

/** Tracking hits on the measured campaign's tags (impressions, a click, a minisite event, each through the cookie check), then the day's realtime report. */
function trackingSweep(s: Sweep): GoldenRequest[] {
  const m = s.measured
  const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' }
  const app = { 'user-agent': 'Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7 Build/TQ3A.230805.001)' }
  const cookie = { ...browser, cookie: 'amid=0123456789abcdef0123456789abcdef' }
  const tag = async (t: TestEngine, which: 'impression_url' | 'click_url'): Promise<string> => {
    const r = await t.get('/cms/v1/campaigns/list_spots', { campaign_id: m.campaign_id })
    const spot = (r.body as { spot_id: string; tracking_tags: Record<string, string> }[]).find((x) => x.spot_id === m.spot_id)
    const u = new URL(spot!.tracking_tags[which]!)
    return decodeURIComponent(u.pathname)
  }
  const at = (path: string, headers: Record<string, string>): EngineRequest => ({ method: 'GET', path, query: {}, headers, remoteAddress: '1.180.0.7' })
  const hit = (name: string, which: 'impression_url' | 'click_url', headers: Record<string, string>, macros = ''): GoldenRequest => ({
    name: `tracking ${name}`,
    request: async (t) => at((await tag(t, which)).replace('&o=', `${macros}&o=`), headers),
  })
  /** The browser's second leg: back to the answer's Location with the cookie it set. */
  const back = (name: string): GoldenRequest => ({
    name: `tracking ${name} second leg`,
    request: async (_t, last) => at(last!.headers.location!, { ...browser, cookie: last!.headers['set-cookie']!.split(';')[0]! }),
  })
  const path = (name: string, p: string, headers: Record<string, string> = browser): GoldenRequest => ({ name: `tracking ${name}`, request: at(p, headers) })
  return [
    hit('impression first contact', 'impression_url', browser),
    back('impression'),
    hit('impression with cookie', 'impression_url', cookie),
    hit('impression app', 'impression_url', app, '&m5=6D92078A-8246-4BA4-AE5B-76104861E7DC'),
    hit('click first contact', 'click_url', browser),
    back('click'),
    hit('click with cookie', 'click_url', cookie),
    path('event with cookie', `/e/m=${m.minisite_id}&ev=1`, cookie),
    path('unknown spot', '/x/k=999999&p=zzzz&o='),
    path('bare letter', '/x'),
    { name: 'tracking realtime after', request: requestFor(s, 'reports.realtime_show', { campaign_id: m.campaign_id, date: '2025-01-10', by_position: 'spot', metrics: 'all' }) },
    { name: 'tracking basic after', request: requestFor(s, 'reports.basic_show', { campaign_id: m.campaign_id, date: '2025-01-10', by_position: 'spot', metrics: 'all', platform: 'pm' }) },
  ]
}

/** The token endpoint (RFC 6749 order of checks) and the door's refusals. */
function tokenSweep(): GoldenRequest[] {
  const form = (name: string, p: Params, headers: Record<string, string> = {}): GoldenRequest => ({
    name: `token ${name}`,
    request: { method: 'POST', path: '/oauth/token', query: {}, body: new URLSearchParams(p).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } },
  })
  return [
    form('password', { grant_type: 'password', ...ACCOUNT }),
    form('wrong password', { grant_type: 'password', ...ACCOUNT, password: 'wrong' }),
    form('wrong client secret', { grant_type: 'password', ...ACCOUNT, client_secret: 'wrong' }),
    form('unknown user', { grant_type: 'password', ...ACCOUNT, username: 'nobody' }),
    form('missing grant_type', { username: ACCOUNT.username, password: ACCOUNT.password }),
    form('refresh_token', { grant_type: 'refresh_token', refresh_token: 'x', client_id: ACCOUNT.client_id, client_secret: ACCOUNT.client_secret }),
    form('client_credentials', { grant_type: 'client_credentials', client_id: ACCOUNT.client_id, client_secret: ACCOUNT.client_secret }),
    form('unknown grant', { grant_type: 'magic' }),
    form('basic auth', { grant_type: 'password', username: ACCOUNT.username, password: ACCOUNT.password }, { authorization: `Basic ${Buffer.from(`${ACCOUNT.client_id}:${ACCOUNT.client_secret}`).toString('base64')}` }),
    { name: 'token GET', request: { method: 'GET', path: '/oauth/token', query: { grant_type: 'password', ...ACCOUNT } } },
  ]
}

function doorSweep(s: Sweep): GoldenRequest[] {
  const list = endpoints['campaigns.list'].path
  return [
    { name: 'door no token', request: { method: 'GET', path: list, query: {} } },
    { name: 'door bad token', request: { method: 'GET', path: list, query: { access_token: 'not-a-token' } } },
    { name: 'door bearer header', request: { method: 'GET', path: list, query: {}, headers: { authorization: `Bearer ${s.token}` } } },
    { name: 'door unknown path', request: { method: 'GET', path: '/cms/v1/campaigns/nothing', query: { access_token: s.token } } },
    { name: 'door wrong method', request: { method: 'POST', path: list, query: { access_token: s.token } } },
    { name: 'door unknown parameter', request: { method: 'GET', path: list, query: { access_token: s.token, colour: 'blue' } } },
    { name: 'door repeated parameter', request: { method: 'GET', path: list, query: { access_token: s.token, status: ['1', '2'] } } },
    { name: 'door malformed form', request: { method: 'POST', path: endpoints['campaigns.update'].path, query: { access_token: s.token }, body: 'campaign_id=%zz', headers: { 'content-type': 'application/x-www-form-urlencoded' } } },
  ]
}

/** The JSON batch, then the deletes and the sign-out, which consume what they name. */
function lastSweep(s: Sweep): GoldenRequest[] {
  const { f } = s
  const batch = endpoints['campaigns.batch_create_spot_with_plan'].path
  const json = (name: string, body: unknown): GoldenRequest => ({ name: `batch ${name}`, request: { method: 'POST', path: batch, query: { access_token: s.token }, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } })
  const spot = { publisher_name: 'Sina', channel_name: 'sports', slot_begin: '2025-01-11', slot_duration: 3, est_impression: 100, est_click: 1 }
  const del = (name: string, id: EndpointId, p: Params): GoldenRequest => ({ name: `delete ${name}`, request: requestFor(s, id, p) })
  return [
    json('valid', { campaign_id: f.campaign_id, spots: [{ ...spot, placement_name: 'batch one' }, { ...spot, placement_name: 'batch two' }] }),
    json('one bad item', { campaign_id: f.campaign_id, spots: [{ ...spot, placement_name: 'batch three' }, { ...spot, placement_name: 'batch four', slot_duration: 'x' }] }),
    json('not json', '{'),
    json('no spots', { campaign_id: f.campaign_id }),
    del('spot', 'campaigns.delete_spot', { campaign_id: f.campaign_id, spot_id: f.spot_id }),
    del('spot again', 'campaigns.delete_spot', { campaign_id: f.campaign_id, spot_id: f.spot_id }),
    del('minisite', 'minisites.delete', { minisite_id: f.minisite_id }),
    del('campaign', 'campaigns.delete', { campaign_id: f.campaign_id }),
    del('campaign again', 'campaigns.delete', { campaign_id: f.campaign_id }),
    { name: 'after deletes list', request: requestFor(s, 'campaigns.list', {}) },
    del('sign out', 'account.sign_out', {}),
    { name: 'after sign out', request: requestFor(s, 'campaigns.list', {}) },
  ]
}

/** Every request of the sweep, in order. */
export function goldenRequests(s: Sweep): GoldenRequest[] {
  return [...tableSweep(s), ...reportSweep(s), ...trackingSweep(s), ...tokenSweep(), ...doorSweep(s), ...lastSweep(s)]
}
