/**
 * A stand-in of the real service, written from shared/spec/vendor-notes.md and interface.md (not
 * from this engine), on a real socket: the password grant with the vendor's token members; every
 * error as `{error, error_description, error_code}` with HTTP 400 (500 for a server fault), or
 * 200 with `suppress_response_codes`; an expired or unknown token answered `access_denied` (§1.4);
 * page-number paging for the four name lists; its own ids; duplicate names and date rules
 * (vendor-data.ts). Where the vendor material is ambiguous it takes either reading (`readings`);
 * `fault` injects 5xx, 429 with Retry-After, a slow answer, and a write done whose connection
 * is dropped before the answer; `endTokens()` ends every token early.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ACCOUNT } from '../../helpers/make-engine'
import { VendorData, VendorError, type Campaign, type Q } from './vendor-data'

/** The readings of what vendor-notes leaves ambiguous. */
export interface Readings {
  /** §1.3: whether the page lists count pages from 0 (default 0,500) or from 1 (2,100 = the second page). */
  firstPage: 0 | 1
  /** §3.7: the error value for a campaign name already taken (not documented). */
  duplicateName: 'invalid_campaign_name' | 'invalid_request'
  /** §4: brands/list documents no limit: honoured, or ignored (every brand at once). */
  brandsLimit: 'honoured' | 'ignored'
}

/** drop: the work is done and the connection closed before the answer; hold: done, and never answered. */
export type VendorFault = 'none' | '500' | '429' | 'slow' | 'drop' | 'hold'

export interface VendorRemote {
  url: string
  data: VendorData
  readings: Readings
  /** The service's date (its date rules); tests move it. */
  today: string
  /** Campaigns the account has no permission on: access_denied whatever the token. */
  denied: Set<string>
  /** The fault of the next request (method, path without the query); 'none' by default. */
  fault: (method: string, path: string) => VendorFault
  /** Requests by path (writes that arrived included). */
  hits: Map<string, number>
  /** Ends every token issued so far (a revocation, a restart at the service). */
  endTokens(): void
  /** Direct calls, as a script of the vendor's would make them (own token). */
  get(path: string, query?: Record<string, string | number>): Promise<{ status: number; body: any; raw: { body: string } }> // eslint-disable-line @typescript-eslint/no-explicit-any
  post(path: string, form?: Record<string, string | number>): Promise<{ status: number; body: any; raw: { body: string } }> // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>
}

export const READINGS: Readings = { firstPage: 0, duplicateName: 'invalid_campaign_name', brandsLimit: 'honoured' }
/** The other reading of every ambiguity. */
export const OTHER_READINGS: Readings = { firstPage: 1, duplicateName: 'invalid_request', brandsLimit: 'ignored' }

/** `limit=M,N` as row offset and count (§1.2); page lists: page M of N rows. */
function slice<T>(rows: T[], q: Q, page: false | 0 | 1): T[] {
  if (q.limit === undefined) return rows.slice(0, 500)
  const m = /^(\d+),(\d+)$/.exec(q.limit)
  if (!m) throw new VendorError('invalid_request', "The 'limit' is wrong.", 1002)
  const [a, n] = [Number(m[1]), Number(m[2])]
  const start = page === false ? a : Math.max(0, a - page) * n
  return rows.slice(start, start + n)
}

const has = (pattern: string | undefined, name: string) => pattern === undefined || name.toLowerCase().includes(pattern.toLowerCase())

function read(d: VendorData, path: string, q: Q, r: Readings): unknown {
  const c = () => d.campaign(q.campaign_id)
  const ids = (v: string | undefined) => (v === undefined ? null : new Set(v.split(',')))
  const pick = <T>(list: T[], want: Set<string> | null, id: (x: T) => string) => (want === null ? list : list.filter((x) => want.has(id(x))))
  switch (path) {
    case '/cms/v1/campaigns/list':
      return slice(pick(d.campaigns, ids(q.campaign_id), (x) => String(x.campaign_id)).filter((x) => has(q.campaign_name, x.f.campaign_name!)), q, false).map((x) => d.show(x, q))
    case '/cms/v1/campaigns/show':
      return d.show(c(), q)
    case '/cms/v1/campaigns/list_spots': {
      const x = c()
      return slice(pick(x.spots, ids(q.spot_id), (s) => String(s.spot_id)), q, false).map((s) => d.spotRow(x, s, q))
    }
    case '/cms/v1/campaigns/list_targets':
      return slice(pick(c().targets, ids(q.target_id), (t) => String(t.target_id)), q, false).map((t) => ({ target_id: String(t.target_id), target_name: t.target_name, panel_id: 'china-123', ...(q.show_tag === '1' ? { tag_id: t.tag_id } : {}) }))
    case '/cms/v1/campaigns/list_publishers': {
      const used = new Set(c().spots.map((s) => s.publisher_id))
      return slice(d.publishers.filter(([id]) => used.has(id)), q, false).map(([id, name]) => ({ publisher_id: String(id), publisher_name: name }))
    }
    case '/cms/v1/advertisers/list':
      return slice(d.advertisers.filter(([, n]) => has(q.advertiser_name, n)), q, false).map(([advertiser_id, advertiser_name]) => ({ advertiser_id, advertiser_name }))
    case '/cms/v1/agencies/list':
      return slice(d.agencies.filter(([, n]) => has(q.agency_name, n)), q, false).map(([agency_id, agency_name]) => ({ agency_id, agency_name }))
    case '/cms/v1/brands/list': {
      if (q.advertiser_id === undefined) throw new VendorError('invalid_request', "The 'advertiser_id' is required.", 1003)
      const rows = d.brands.filter(([, , a]) => a === q.advertiser_id).map(([brand_id, brand_name]) => ({ brand_id, brand_name }))
      return r.brandsLimit === 'honoured' ? slice(rows, q, false) : rows
    }
    case '/cms/v1/panels/list':
      return slice([{ panel_id: { pc: 'china-123', pm: 'china-pm-2012', pmo: 'china-pmo-2012' }[q.platform ?? 'pc'] ?? 'china-123', platform: q.platform ?? 'pc', type_list: [{ type_id: 'gender', type_name: 'gender' }], tag_list: [{ type_id: 'gender', tag_id: 'male', tag_name: 'male' }, { type_id: 'gender', tag_id: 'female', tag_name: 'female' }] }], q, false)
    case '/admonitor/v1/reports/basic/progress':
      return { date: '2025-01-09', campaign_id: c().campaign_id }
    case '/admonitor/v1/reports/basic/show':
      return { campaign_id: c().campaign_id, date: q.date, version: 'V1.0', platform: q.platform ?? 'pc', total_spot_num: c().spots.length, items: [{ attributes: { audience: 'overall', region_id: '000000000000000000000000', universe: 12345 }, metrics: { imp_acc: 1000, clk_acc: 10 } }] }
    case '/cms/v1/regions/list':
      return slice([['000000000000000000000000', '', 0, 'Global'], ['000000000000000000000008', '000000000000000000000000', 0, 'China'], ['000000000000000000001100', '000000000000000000000008', 1, 'Beijing']].map(([region_id, parent_id, level, region_name]) => ({ region_id, region_name, parent_id, level })), q, false)
    default: {
      const list = /^\/cms\/v1\/(product|programs|plmttype|extensiontype)\/list$/.exec(path)?.[1]
      if (list) return slice(d.names[list]!, q, r.firstPage).map((name) => ({ name }))
      throw new VendorError('invalid_request', `No such endpoint ${path}.`, 1004, 404)
    }
  }
}

function write(d: VendorData, path: string, f: Q, r: Readings): unknown {
  if (path === '/cms/v1/campaigns/create') return d.create(f, r.duplicateName)
  if (path === '/cms/v1/campaigns/update') return d.update(f)
  if (path === '/cms/v1/campaigns/create_spot') return d.createSpot(f)
  if (path === '/cms/v1/campaigns/update_spot') return d.updateSpot(f)
  if (path === '/cms/v1/campaigns/publish_target') return d.publishTarget(f)
  throw new VendorError('invalid_request', `No such endpoint ${path}.`, 1004, 404)
}

interface Answer {
  status: number
  body: string
  headers?: Record<string, string>
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({ status, body: JSON.stringify(body), headers })
const errorAnswer = (e: VendorError, suppress: boolean): Answer => json(suppress ? 200 : e.status, { error: e.error, error_description: e.description, error_code: e.errorCode })

export async function startVendor(readings: Readings = READINGS, today = '2025-01-10'): Promise<VendorRemote> {
  const data = new VendorData(() => remote.today)
  const tokens = new Set<string>()
  let issued = 0
  const token = () => {
    const t = `2.${(++issued).toString(36)}DS9SMCcVMIJUYBoGMDAxNTc1Igx`
    tokens.add(t)
    return t
  }

  function answer(method: string, path: string, q: Q): Answer {
    const suppress = q.suppress_response_codes !== undefined
    try {
      if (path === '/oauth/token') {
        if (method !== 'POST' || q.grant_type !== 'password') throw new VendorError('unsupported_grant_type', 'The grant_type must be password.', 1101)
        if (q.client_id !== ACCOUNT.client_id || q.client_secret !== ACCOUNT.client_secret) throw new VendorError('invalid_client', 'The client is wrong.', 1102)
        if (q.username !== ACCOUNT.username || q.password !== ACCOUNT.password) throw new VendorError('invalid_grant', 'The username or password is wrong.', 1103)
        return json(200, { token_type: 'bearer', access_token: token(), refresh_token: '93ec7138-c388-4131-9166-c7f2f8f092d6', expires_in: 3600, scope: 'monitor op', product_id_list: [2, 1], uid: 0, uname: q.username, user_number: '1650172955' }, { 'cache-control': 'no-store', pragma: 'no-cache' })
      }
      if (!q.access_token) throw new VendorError('token_required', 'An access token is required to request this resource.', 123)
      if (!tokens.has(q.access_token)) throw new VendorError('access_denied', 'The access token is invalid or has expired.', 1201)
      if (q.campaign_id !== undefined && remote.denied.has(q.campaign_id)) throw new VendorError('access_denied', 'No permission on this campaign.', 1202)
      return json(200, method === 'GET' ? read(data, path, q, remote.readings) : write(data, path, q, remote.readings))
    } catch (err) {
      if (err instanceof VendorError) return errorAnswer(err, suppress)
      return errorAnswer(new VendorError('server_error', String(err), 5000, 500), suppress)
    }
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const url = new URL(req.url ?? '/', 'http://vendor')
    const q: Q = Object.fromEntries(url.searchParams)
    if (req.method === 'POST') Object.assign(q, Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))))
    remote.hits.set(url.pathname, (remote.hits.get(url.pathname) ?? 0) + 1)
    const fault = remote.fault(req.method ?? 'GET', url.pathname)
    let a: Answer
    if (fault === '500') a = errorAnswer(new VendorError('server_error', 'Internal error.', 5000, 500), false)
    else if (fault === '429') a = json(429, { error: 'rate_limited', error_description: 'Too many requests.' }, { 'retry-after': '1' })
    else {
      if (fault === 'slow') await new Promise((r) => setTimeout(r, 30))
      a = answer(req.method ?? 'GET', url.pathname, q)
      // the work is done; the answer never arrives
      if (fault === 'drop') return void req.socket.destroy()
      if (fault === 'hold') return
    }
    res.writeHead(a.status, { 'content-type': 'application/json;charset=UTF-8', ...a.headers }).end(a.body)
  }

  const server = createServer((req, res) => void serve(req, res).catch(() => req.socket.destroy()))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const own = token()
  const direct = (method: string) => async (path: string, params: Record<string, string | number> = {}) => {
    const a = answer(method, path, { ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])), access_token: tokens.has(own) ? own : token() })
    return { status: a.status, body: JSON.parse(a.body) as unknown, raw: { body: a.body } }
  }
  const remote: VendorRemote = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    data, readings, today, denied: new Set(), hits: new Map(), fault: () => 'none',
    endTokens: () => tokens.clear(),
    get: direct('GET') as VendorRemote['get'],
    post: direct('POST') as VendorRemote['post'],
    close: () => new Promise((r) => {
      server.closeAllConnections()
      server.close(() => r())
    }),
  }
  return remote
}

/** A campaign of the vendor's own, with two spots (one with keywords and a plan) and two targets. */
export function seedCampaign(d: VendorData, n: number, dates = { start: '2025-01-11', end: '2025-02-10' }): Campaign {
  const { campaign_id } = d.create({ campaign_name: `Vendor campaign ${n}`, start_date: dates.start, end_date: dates.end, advertiser_id: '1', brand_id: '1', agency_id: '1', description: `campaign ${n}`, linked_tvcaids: '[123,345]', orderid: 'C240807020' }, 'invalid_campaign_name') as { campaign_id: string }
  const { spot_id } = d.createSpot({ campaign_id, publisher_name: 'Twitter', channel_name: 'news', placement_name: `top banner ${n}`, guid: 'RTX123456', caguid: 'XDF234', landing_page: 'http://www.facebook.com' }) as { spot_id: string }
  d.createSpot({ campaign_id, publisher_name: 'DOUYIN LE', channel_name: 'Bidding word', placement_name: `search ${n}`, keyword: '牛奶^https://www.baidu.com>母乳^' })
  d.updateSpot({ campaign_id, spot_id, add_slot: `${dates.start},2025-01-12`, est_impression: '2000,2000', est_click: '10,10' })
  d.publishTarget({ campaign_id, target_name: 'F20-29', tag_id: 'female' })
  d.publishTarget({ campaign_id, target_name: 'M20-29', tag_id: 'male' })
  return d.campaign(campaign_id)
}
