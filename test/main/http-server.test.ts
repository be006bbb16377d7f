// DESIGN §5, STYLE H5: the HTTP door over one real socket on port 0 (engine/server/http.ts)
import { request } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JSON_TYPE } from '../../engine/contract/envelope'
import { FORM_BODY_BYTES, MAX_BODY_BYTES, OPEN_BODY_BYTES } from '../../engine/request'
import { startHttpDoor, type HttpDoor } from '../../engine/server/http'
import { ACCOUNT, makeEngine, type TestEngine } from '../helpers/make-engine'
import { createSpot, newCampaign } from '../engine/routes/spot-helpers'

interface RawReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test convenience
  json: any
}

interface RawRequest {
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string | Buffer
  port?: number
}

/** One request over node:http, with the path sent exactly as written (no URL normalisation). */
function raw(door: HttpDoor, r: RawRequest): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: r.port ?? door.port, method: r.method ?? 'GET', path: r.path, headers: { connection: 'close', ...r.headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(r.body)
  })
}

const form = (o: Record<string, string>) => new URLSearchParams(o).toString()
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

let t: TestEngine
let door: HttpDoor
let token: string
let staticRoot: string
let staticDir: string
const doors: HttpDoor[] = []

async function open(opts: Parameters<typeof startHttpDoor>[1]): Promise<HttpDoor> {
  const d = await startHttpDoor(t.engine, { port: 0, ...opts })
  doors.push(d)
  return d
}

const get = (path: string, headers: Record<string, string> = {}, d = door) => raw(d, { path, headers })
const api = (path: string, query: Record<string, string> = {}) => `${path}?${form({ ...query, access_token: token })}`

async function createCampaign(name: string): Promise<string> {
  const r = await raw(door, {
    method: 'POST', path: '/cms/v1/campaigns/create', headers: FORM,
    body: form({ access_token: token, campaign_name: name, start_date: '2025-02-01', end_date: '2025-03-01' }),
  })
  expect(r.status, r.text).toBe(200)
  return r.json.campaign_id as string
}

beforeAll(async () => {
  t = await makeEngine()
  door = await open({})
  staticRoot = mkdtempSync(join(tmpdir(), 'admonitor-http-'))
  staticDir = join(staticRoot, 'www')
  mkdirSync(join(staticDir, 'assets'), { recursive: true })
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>AdMonitor Desk</title><div id="app"></div>')
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app")')
  writeFileSync(join(staticRoot, 'secret.txt'), 'TOP-SECRET-OUTSIDE')
  mkdirSync(join(staticRoot, 'www-evil'))
  writeFileSync(join(staticRoot, 'www-evil', 'x.txt'), 'EVIL-SIBLING')
})

afterAll(async () => {
  for (const d of doors) await d.close()
  await t?.engine.close()
  if (staticRoot) rmSync(staticRoot, { recursive: true, force: true })
})

describe('http door', () => {
  it('binds 127.0.0.1 on a free port when no host is given', () => {
    const addr = door.server.address() as AddressInfo
    expect(addr.address).toBe('127.0.0.1')
    expect(addr.port).toBe(door.port)
    expect(door.port).toBeGreaterThan(0)
    expect(door.url).toBe(`http://127.0.0.1:${door.port}`)
  })

  it('issues a token when the password grant is POSTed as a form', async () => {
    const r = await raw(door, { method: 'POST', path: '/oauth/token', headers: FORM, body: form({ grant_type: 'password', ...ACCOUNT }) })
    expect(r.status, r.text).toBe(200)
    expect(r.headers['content-type']).toBe(JSON_TYPE)
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.json.token_type).toBe('bearer')
    token = r.json.access_token
    expect(typeof token).toBe('string')
    // The token works in the engine directly: both doors reach the same engine.
    expect((await t.get('/cms/v1/campaigns/list', {}, token)).status).toBe(200)
  })

  it('answers a GET exactly as engine.handle does', async () => {
    await createCampaign('Door parity')
    const query = { access_token: token, campaign_name: 'parity' }
    const viaDoor = await get(`/cms/v1/campaigns/list?${form(query)}`)
    const direct = await t.engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list', query })
    expect(viaDoor.status).toBe(200)
    expect(viaDoor.status).toBe(direct.status)
    expect(viaDoor.text).toBe(direct.body)
    expect(viaDoor.headers['content-type']).toBe(direct.headers['content-type'])
    expect(viaDoor.json.map((c: { campaign_name: string }) => c.campaign_name)).toEqual(['Door parity'])
  })

  it('answers a POST exactly as engine.handle does, success and error alike', async () => {
    const id = await createCampaign('Posted through the door')
    const show = await get(api('/cms/v1/campaigns/show', { campaign_id: id }))
    const direct = await t.engine.handle({ method: 'GET', path: '/cms/v1/campaigns/show', query: { access_token: token, campaign_id: id } })
    expect(show.status).toBe(200)
    expect(show.text).toBe(direct.body)
    expect(show.json.campaign_name).toBe('Posted through the door')

    const body = form({ access_token: token, campaign_name: '', start_date: '2025-02-01', end_date: '2025-03-01' })
    const bad = await raw(door, { method: 'POST', path: '/cms/v1/campaigns/create', headers: FORM, body })
    const badDirect = await t.engine.handle({ method: 'POST', path: '/cms/v1/campaigns/create', query: {}, body, headers: FORM })
    expect(bad.status).toBe(400)
    expect(bad.json.error).toBe('invalid_campaign_name')
    expect(bad.status).toBe(badDirect.status)
    expect(bad.text).toBe(badDirect.body)
  })

  it('passes repeated query parameters on as repeated, so the engine refuses them', async () => {
    const r = await get(`${api('/cms/v1/campaigns/list')}&campaign_name=a&campaign_name=b`)
    expect(r.status).toBe(400)
    expect(r.json.error).toBe('invalid_request')
    expect(r.json.error_description).toContain("'campaign_name'")
    expect(r.json.error_description).toContain('given more than once')
  })

  it("decodes '+' in the query as a space and %2B as a plus sign", async () => {
    await createCampaign('Spring Sale 2025')
    await createCampaign('C Spring+Sale extra')
    const names = async (q: string) => ((await get(`${api('/cms/v1/campaigns/list')}&campaign_name=${q}`)).json as { campaign_name: string }[]).map((c) => c.campaign_name)
    expect(await names('Spring+Sale')).toEqual(['Spring Sale 2025'])
    expect(await names('Spring%20Sale')).toEqual(['Spring Sale 2025'])
    expect(await names('Spring%2BSale')).toEqual(['C Spring+Sale extra'])
  })

  it('answers API calls with content-type application/json;charset=UTF-8', async () => {
    const r = await get(api('/cms/v1/regions/show', { region_id: '000000000000001156440300' }))
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('application/json;charset=UTF-8')
    expect(r.json.region_name).toBe('Shenzhen')
  })

  it('answers an unknown path with a JSON 404 not_found', async () => {
    const r = await get('/cms/v1/nothing/here')
    expect(r.status).toBe(404)
    expect(r.headers['content-type']).toBe(JSON_TYPE)
    expect(r.json.error).toBe('not_found')
  })

  it("answers GET / with the engine's JSON 404 when no staticDir is given", async () => {
    const r = await get('/')
    expect(r.status).toBe(404)
    expect(r.json.error).toBe('not_found')
  })

  it('sends headers but no body when the method is HEAD', async () => {
    const path = api('/cms/v1/regions/list', { level: '0' })
    const full = await get(path)
    const head = await raw(door, { method: 'HEAD', path })
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe(JSON_TYPE)
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(full.text)))
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
    expect(head.text).toBe('')
  })

  it('sends a page of a long list (written in pieces) whole, with its length, and HEAD without it', async () => {
    for (const n of ['Pieces 一', 'Pieces 二', 'Pieces 三']) await createCampaign(n)
    const path = api('/cms/v1/campaigns/list', { campaign_name: 'pieces', limit: '1,2' })
    const full = await get(path)
    expect(full.status).toBe(200)
    expect(full.json.map((c: { campaign_name: string }) => c.campaign_name)).toEqual(['Pieces 二', 'Pieces 三'])
    expect(full.headers['content-length']).toBe(String(Buffer.byteLength(full.text)))
    const head = await raw(door, { method: 'HEAD', path })
    expect([head.status, head.headers['content-length'], head.text]).toEqual([200, full.headers['content-length'], ''])
    // and the next request on the same connection is answered (the pieces ended the response)
    expect((await get(api('/cms/v1/campaigns/list', { campaign_name: 'pieces', callback: 'cb' }))).text).toMatch(/^\/\*\*\/cb\(\[\{/)
  })

  it('refuses a Host header that is not this server with 403 forbidden_host', async () => {
    for (const host of [`evil.example:${door.port}`, 'evil.example', `127.0.0.1:${door.port + 1}`, `localhost.evil.example:${door.port}`]) {
      const r = await get(api('/cms/v1/campaigns/list'), { host })
      expect(r.status, host).toBe(403)
      expect(r.headers['content-type']).toBe(JSON_TYPE)
      expect(r.json.error).toBe('forbidden_host')
    }
  })

  it('accepts the loopback names with our port in the Host header', async () => {
    for (const host of [`127.0.0.1:${door.port}`, `localhost:${door.port}`, `LOCALHOST:${door.port}`]) {
      expect((await get(api('/cms/v1/campaigns/list'), { host })).status, host).toBe(200)
    }
  })

  it('accepts an allowed name as given, and one given without a port also bare (as a TLS proxy in front forwards it)', async () => {
    const d = await open({ allowedHosts: ['ads.example.com', 'Other.LAN:9999'] })
    const status = async (host: string) => (await get(api('/cms/v1/campaigns/list'), { host }, d)).status
    expect(await status('ads.example.com')).toBe(200)
    expect(await status(`ads.example.com:${d.port}`)).toBe(200)
    expect(await status('other.lan:9999')).toBe(200)
    // a name given with a port is that port only; the loopback names keep our port
    expect(await status('other.lan')).toBe(403)
    expect(await status(`other.lan:${d.port}`)).toBe(403)
    expect(await status('127.0.0.1')).toBe(403)
  })

  it('refuses a cross-origin call with 403 and accepts a same-origin one', async () => {
    const foreign = await get(api('/cms/v1/campaigns/list'), { origin: 'http://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.json.error).toBe('forbidden_host')
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    const post = await raw(door, { method: 'POST', path: '/oauth/token', headers: { ...FORM, origin: 'http://evil.example' }, body: form({ grant_type: 'password', ...ACCOUNT }) })
    expect(post.status).toBe(403)
    const same = await get(api('/cms/v1/campaigns/list'), { origin: `http://127.0.0.1:${door.port}` })
    expect(same.status).toBe(200)
    expect(same.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('refuses an OPTIONS preflight from a foreign origin with 403', async () => {
    const r = await raw(door, {
      method: 'OPTIONS', path: '/cms/v1/campaigns/list',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(r.status).toBe(403)
    expect(r.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('lets an allowed origin in with its own name echoed (never *) when allowedOrigins lists it', async () => {
    const app = 'http://app.example:5173'
    const d = await open({ allowedOrigins: [app] })
    const pre = await raw(d, { method: 'OPTIONS', path: '/cms/v1/campaigns/list', headers: { origin: app, 'access-control-request-method': 'GET' } })
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-origin']).toBe(app)
    const r = await get(api('/cms/v1/campaigns/list'), { origin: app }, d)
    expect(r.status).toBe(200)
    expect(r.headers['access-control-allow-origin']).toBe(app)
    const other = await get(api('/cms/v1/campaigns/list'), { origin: 'http://other.example' }, d)
    expect(other.status).toBe(403)
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
    for (const x of [pre, r, other]) expect(x.headers['access-control-allow-origin']).not.toBe('*')
  })

  it('answers a body over the limit (64 MiB) with 413 payload_too_large when content-length announces it', async () => {
    expect(MAX_BODY_BYTES).toBe(64 * 1024 * 1024)
    const body = Buffer.alloc(MAX_BODY_BYTES + 1024, 'a')
    const r = await raw(door, { method: 'POST', path: `/local/v1/events/import?access_token=${token}`, headers: { 'content-type': 'application/x-ndjson' }, body })
    expect(r.status).toBe(413)
    expect(r.json.error).toBe('payload_too_large')
    // a form is read up to 8 MiB
    expect(FORM_BODY_BYTES).toBe(8 * 1024 * 1024)
    const form = await raw(door, { method: 'POST', path: `/cms/v1/campaigns/create?access_token=${token}`, headers: FORM, body: Buffer.alloc(FORM_BODY_BYTES + 1, 'a') })
    expect([form.status, form.json.error_description]).toEqual([413, `The request body is larger than ${FORM_BODY_BYTES} bytes, the most this endpoint reads.`])
  })

  it('reads a form without a token before its body only up to 256 KiB (its token may be in it), and a JSON batch not at all', async () => {
    expect(OPEN_BODY_BYTES).toBe(256 * 1024)
    const big = Buffer.alloc(OPEN_BODY_BYTES + 1, 'a')
    const form = await raw(door, { method: 'POST', path: '/cms/v1/campaigns/create', headers: FORM, body: big })
    expect([form.status, form.json.error_description]).toEqual([413, `The request body is larger than ${OPEN_BODY_BYTES} bytes, the most read before the access token is known: send it in the query or an Authorization header (a form may then hold up to ${FORM_BODY_BYTES} bytes).`])
    // a small form carrying its token is read and answered
    const small = await raw(door, { method: 'POST', path: '/cms/v1/campaigns/create', headers: FORM, body: Buffer.from(`access_token=${token}&campaign_name=`) })
    expect([small.status, small.json.error]).toEqual([400, 'invalid_campaign_name'])
    // the JSON batch never carries its token: refused before the body (not after reading and parsing 16 MiB)
    const batch = await raw(door, { method: 'POST', path: '/cms/v1/campaigns/batch_create_spot_with_plan', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(1 << 20, 'a') })
    expect([batch.status, batch.json.error, batch.headers.connection]).toEqual([400, 'token_required', 'close'])
    // the token endpoint's form is small
    const tokenForm = await raw(door, { method: 'POST', path: '/oauth/token', headers: FORM, body: big })
    expect([tokenForm.status, tokenForm.json.error]).toEqual([413, 'payload_too_large'])
  })

  it('reads no body for a path without an endpoint, nor a file without a good token (the connection closes)', async () => {
    const body = Buffer.alloc(1 << 20, 'a')
    const nowhere = await raw(door, { method: 'POST', path: '/no/such/path', headers: FORM, body })
    expect([nowhere.status, nowhere.json.error, nowhere.headers.connection]).toEqual([404, 'not_found', 'close'])
    const noToken = await raw(door, { method: 'POST', path: '/local/v1/events/import', headers: { 'content-type': 'application/x-ndjson' }, body })
    expect([noToken.status, noToken.json.error, noToken.headers.connection]).toEqual([400, 'token_required', 'close'])
    const badToken = await raw(door, { method: 'POST', path: '/local/v1/panels/persons/import?access_token=nope&panel_id=x', headers: { 'content-type': 'application/x-ndjson' }, body })
    expect([badToken.status, badToken.json.error]).toEqual([400, 'invalid_token'])
    // with a good token in the header, the file is read
    const good = await raw(door, { method: 'POST', path: '/local/v1/events/import?format=ndjson', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` }, body: Buffer.from('') })
    expect(good.status, good.text).toBe(200)
  })

  it('answers a body over the limit with 413 payload_too_large when it arrives chunked', async () => {
    const r = await new Promise<RawReply>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: door.port, method: 'POST', path: '/cms/v1/campaigns/create', headers: FORM }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) })
        })
      })
      req.on('error', reject)
      const mib = Buffer.alloc(1 << 20, 'a')
      for (let i = 0; i <= MAX_BODY_BYTES >> 20; i++) req.write(mib)
      req.end()
    })
    expect(r.status).toBe(413)
    expect(r.json.error).toBe('payload_too_large')
  })

  it('answers a URL past the 16 KiB of headers with a JSON 431, and bytes that are not HTTP with a JSON 400', async () => {
    const long = await get(`/x/k=1&p=1&o=${'a'.repeat(20_000)}`)
    expect([long.status, long.headers['content-type'], long.json?.error]).toEqual([431, JSON_TYPE, 'headers_too_large'])
    expect(long.json.error_description).toContain('16 KiB')
    const text = await new Promise<string>((resolve, reject) => {
      const s = connect(door.port, '127.0.0.1', () => s.end('HELLO THERE\r\n\r\n'))
      let got = ''
      s.on('data', (c) => (got += c))
      s.on('end', () => resolve(got))
      s.on('error', reject)
    })
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error).toBe('bad_http_request')
    // and the door goes on answering
    expect((await get('/openapi.json')).status).toBe(200)
  })

  it('still answers the next request after refusing an oversized body', async () => {
    const r = await get(api('/cms/v1/campaigns/list'))
    expect(r.status).toBe(200)
  })

  it('answers a JSON 500 instead of closing the connection when an answer holds a header node:http refuses', async () => {
    const bad = await startHttpDoor({ handle: async () => ({ status: 200, headers: { 'x-why': 'keyword 牛' }, body: 'ok' }) }, { port: 0 })
    doors.push(bad)
    const r = await raw(bad, { path: '/cms/v1/campaigns/list' })
    expect(r.status).toBe(500)
    expect(r.json.error).toBe('server_error')
    expect(r.json.error_description).toMatch(/^The answer could not be sent \(Invalid character in header content \["x-why"\]\)\.$/)
    // a 204 or a 302 refused so: the 500 has its own status text and its body (it was "500 Found", or a length without a body)
    for (const status of [204, 302]) {
      const other = await startHttpDoor({ handle: async () => ({ status, headers: { 'x-why': '牛', location: '/' }, body: '' }) }, { port: 0 })
      doors.push(other)
      const s = await new Promise<{ status: number; message: string; text: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: other.port, path: '/cms/v1/campaigns/list' }, (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, message: res.statusMessage ?? '', text }))
        })
        req.on('error', reject)
        req.end()
      })
      expect([s.status, s.message, JSON.parse(s.text).error]).toEqual([500, 'Internal Server Error', 'server_error'])
    }
  })

  it('sends tracking answers whose tags or landing pages hold any character (Location and reasons in ASCII)', async () => {
    const cid = await newCampaign(t)
    expect((await createSpot(t, cid, { landing_page: 'https://shop.example/牛奶?q=酸奶 x&r=1' })).status).toBe(200)
    // (a browser past its first contact: it brings its cookie)
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0)', cookie: `amid=${'c'.repeat(32)}` }
    const click = await get(`/r/k=${cid}&p=1&o=`, browser)
    expect(click.status).toBe(302)
    expect(click.headers.location).toBe('https://shop.example/%E7%89%9B%E5%A5%B6?q=%E9%85%B8%E5%A5%B6%20x&r=1')
    expect(new URL(click.headers.location as string).searchParams.get('q')).toBe('酸奶 x')
    expect(click.text).toBe('Found: https://shop.example/牛奶?q=酸奶 x&r=1')
    // a click not counted, whose reason quotes any character, still goes to its page (it was a 500 that had counted it)
    const unknown = await get(`/r/k=${cid}&p=1&af=%E7%89%9B&o=`, browser)
    expect([unknown.status, unknown.headers['x-admonitor-counted'], unknown.headers.location]).toEqual([302, '0; keyword %E7%89%9B is not a keyword of spot 1', click.headers.location])
    for (const [path, why] of [[`/x/k=${cid}&p=1&af=%E7%89%9B&o=`, '0; keyword %E7%89%9B is not a keyword of spot 1'], [`/x/k=${cid}&p=1&af=a%0Ab&o=`, '0; keyword a%0Ab is not a keyword of spot 1'], ['/e/m=%E7%89%9B&ev=1', '0; minisite %E7%89%9B does not exist']]) {
      const r = await get(path!, browser)
      expect([r.status, r.headers['x-admonitor-counted']]).toEqual([200, why])
    }
  })

  it('names ignored parameters with any character in X-AdMonitor-Ignored-Parameters, percent-encoded', async () => {
    const r = await get(`/cms/v1/campaigns/list?${form({ access_token: token, 牛奶: '1', 'a b': '2' })}`)
    expect(r.status).toBe(200)
    expect(r.headers['x-admonitor-ignored-parameters']).toBe('%E7%89%9B%E5%A5%B6,a b')
  })

  describe('with staticDir', () => {
    let web: HttpDoor
    beforeAll(async () => {
      web = await open({ staticDir })
    })

    it('serves index.html at /', async () => {
      const r = await get('/', {}, web)
      expect(r.status).toBe(200)
      expect(r.headers['content-type']).toMatch(/^text\/html/)
      expect(r.text).toContain('<title>AdMonitor Desk</title>')
      expect(r.headers['cache-control']).not.toMatch(/immutable/)
    })

    it('serves a built asset with an immutable cache header', async () => {
      const r = await get('/assets/app.js', {}, web)
      expect(r.status).toBe(200)
      expect(r.text).toBe('console.log("app")')
      expect(r.headers['content-type']).toMatch(/^text\/javascript/)
      expect(r.headers['cache-control']).toContain('immutable')
    })

    it("serves index.html for a browser's navigation to a path such as /campaigns/12", async () => {
      const r = await get('/campaigns/12', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, web)
      expect(r.status).toBe(200)
      expect(r.text).toContain('<title>AdMonitor Desk</title>')
    })

    it('answers the JSON 404 for any other unknown path: a missing file, a fetch that is no page, a tag written in capitals', async () => {
      const page = { accept: 'text/html' }
      for (const [path, headers] of [['/assets/nope.js', page], ['/x.png', page], ['/nope', {}], ['/X/k=1', {}], ['/campaigns/12', { accept: 'application/json' }]] as const) {
        const r = await get(path, headers, web)
        expect([path, r.status, r.headers['content-type'], r.json?.error]).toEqual([path, 404, JSON_TYPE, 'not_found'])
        expect(r.json.error_description).toBe(`There is nothing at ${path}: no file of the web interface, and no endpoint (the list is at /openapi.json).`)
      }
    })

    it('never serves a file outside the folder, however the path is encoded', async () => {
      const paths = [
        '/..%2fsecret.txt', '/..%2f..%2fetc/passwd', '/%2e%2e/secret.txt', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fsecret.txt',
        '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/..%2fwww-evil%2fx.txt', '/%2e%2e%2fwww-evil/x.txt', '/../secret.txt',
        '/..%252fsecret.txt', '/%2F..%2F..%2Fsecret.txt',
      ]
      for (const path of paths) {
        const r = await get(path, {}, web)
        expect(r.text, path).not.toContain('TOP-SECRET-OUTSIDE')
        expect(r.text, path).not.toContain('EVIL-SIBLING')
        expect(r.text, path).not.toMatch(/root:.*:0:0:/)
        expect([200, 400, 403, 404], path).toContain(r.status)
      }
    })

    it('still sends API paths to the engine', async () => {
      const r = await get('/cms/v1/nothing/here', {}, web)
      expect(r.status).toBe(404)
      expect(r.json.error).toBe('not_found')
      expect((await get(api('/cms/v1/campaigns/list'), {}, web)).status).toBe(200)
      // every form of a tracking tag, also with its parameters in the query only
      for (const path of ['/x?k=1&p=1&o=', '/x.gif?k=1&p=1', '/x/k=1&p=1&o=', '/e?m=1&ev=1']) {
        const r = await get(path, { cookie: `amid=${'c'.repeat(32)}` }, web)
        expect([path, r.headers['content-type']]).toEqual([path, 'image/gif'])
      }
      // and a page that only begins with the letter is the app's
      expect((await get('/xyz', { accept: 'text/html' }, web)).text).toContain('<title>AdMonitor Desk</title>')
    })

    it('serves the same files when staticDir is written with a trailing slash', async () => {
      const slashed = await open({ staticDir: `${staticDir}/` })
      const r = await get('/assets/app.js', {}, slashed)
      expect(r.status).toBe(200)
      expect(r.text).toBe('console.log("app")')
      expect(r.headers['cache-control']).toContain('immutable')
    })

    it('keeps index.html revalidated when the folder itself lies under a directory named assets', async () => {
      const nested = join(staticRoot, 'assets', 'renderer')
      mkdirSync(nested, { recursive: true })
      writeFileSync(join(nested, 'index.html'), '<!doctype html><title>Nested</title>')
      const d = await open({ staticDir: nested })
      const r = await get('/', {}, d)
      expect(r.status).toBe(200)
      expect(r.text).toContain('<title>Nested</title>')
      expect(r.headers['cache-control']).not.toMatch(/immutable/)
    })

    it('refuses a foreign Host for static files too', async () => {
      const r = await get('/', { host: `evil.example:${web.port}` }, web)
      expect(r.status).toBe(403)
      expect(r.text).not.toContain('AdMonitor Desk</title>')
    })
  })
})
