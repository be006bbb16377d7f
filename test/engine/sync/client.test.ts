// engine/sync/client.ts: login, re-login, pacing, retries and backoff, with a scripted fetch
import { describe, expect, it } from 'vitest'
import { RemoteClient, type ClientOptions } from '../../../engine/sync/client'
import { RemoteError } from '../../../engine/sync/remote-error'
import { FakeClock } from '../../helpers/make-engine'

const PROFILE = { base_url: 'https://api.example.test/base', auth_url: 'https://auth.example.test', username: 'john', client_id: 'cid' }
const SECRETS = async () => ({ password: 'pw', client_secret: 'cs' })

type Reply = Response | Error | (() => Response | Error | Promise<Response>)
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json;charset=UTF-8', ...headers } })
const token = (value = 'tok-1', expires_in = 3600) => json(200, { access_token: value, token_type: 'bearer', expires_in, scope: 'cms admonitor' })
const netError = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) })

/** A fetch that answers from a queue and records what was asked. */
function scripted(replies: Reply[]) {
  const calls: { url: URL; method: string; body: string }[] = []
  const fetch = (async (input: URL | RequestInfo, init?: RequestInit) => {
    const url = new URL(String(input))
    calls.push({ url, method: init?.method ?? 'GET', body: String(init?.body ?? '') })
    const r = replies.shift()
    if (!r) throw new Error(`unexpected request ${url.pathname}`)
    const out = typeof r === 'function' ? await r() : r
    if (out instanceof Error) throw out
    return out
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

function client(replies: Reply[], opts: ClientOptions = {}, signal?: AbortSignal) {
  const s = scripted(replies)
  const clock = new FakeClock('2025-01-10')
  const c = new RemoteClient(PROFILE, SECRETS, clock, { fetch: s.fetch, pacingMs: 0, backoffMs: 100, ...opts }, signal)
  return { c, clock, calls: s.calls }
}

const failure = async (p: Promise<unknown>): Promise<RemoteError> => {
  const err = await p.then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(RemoteError)
  return err as RemoteError
}

describe('RemoteClient login', () => {
  it('logs in with the password grant at <auth_url>/oauth/token and sends the token as access_token', async () => {
    const { c, calls } = client([token(), json(200, [])])
    await c.get('/cms/v1/campaigns/list', { limit: '0,1' })
    expect(calls[0]!.url.href).toBe('https://auth.example.test/oauth/token')
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.body))).toEqual({ grant_type: 'password', username: 'john', password: 'pw', client_id: 'cid', client_secret: 'cs' })
    expect(calls[1]!.url.pathname).toBe('/base/cms/v1/campaigns/list')
    expect(calls[1]!.url.searchParams.get('access_token')).toBe('tok-1')
    expect(c.scope).toBe('cms admonitor')
  })

  it.each([
    ['invalid_grant', 'bad_credentials', /username or password/],
    ['invalid_client', 'bad_client', /client id or client secret/],
    ['unsupported_grant_type', 'not_this_api', /password grant/],
  ])('names %s as %s and does not retry it', async (code, problem, message) => {
    const { c, calls } = client([json(400, { error: code, error_description: 'no' })])
    const e = await failure(c.login())
    expect([e.problem, calls.length]).toEqual([problem, 1])
    expect(e.message).toMatch(message)
  })

  it('says "not this API" for a 404 or a page that is not JSON', async () => {
    expect((await failure(client([new Response('nope', { status: 404 })]).c.login())).problem).toBe('not_this_api')
    expect((await failure(client([new Response('<html>hi</html>', { status: 200, headers: { 'content-type': 'text/html' } })]).c.login())).problem).toBe('not_this_api')
    expect((await failure(client([json(200, { hello: 'world' })]).c.login())).problem).toBe('not_this_api')
  })

  it('does not follow a redirect (the query carries the token) and names the target', async () => {
    const e = await failure(client([new Response('', { status: 301, headers: { location: 'https://elsewhere.test/oauth/token' } })]).c.login())
    expect(e.message).toContain('https://elsewhere.test/oauth/token')
  })

  it('never shows the query of a redirect target, which hands back the token it was sent (http to https)', async () => {
    const { c } = client([token('secret-token-1'), new Response('', { status: 302, headers: { location: 'https://remote.test/v2/cms/v1/campaigns/list?limit=0%2C500&access_token=secret-token-1' } })])
    const e = await failure(c.get('/cms/v1/campaigns/list'))
    expect(e.message).toContain('https://remote.test/v2/cms/v1/campaigns/list:')
    expect(e.message).not.toContain('secret-token-1')
    expect(e.message).not.toContain('limit=')
    // and whatever a message is made of, a token's value is cut out
    expect(new RemoteError('refused', 'see https://x.test/a?b=1&access_token=abc.def&c=2 or password=hunter2', false).message).toBe('see https://x.test/a?b=1&access_token=…&c=2 or password=…')
  })

  it('logs in again when the token is refused (invalid_token, token_required), once per request', async () => {
    const { c, calls } = client([token('a'), json(400, { error: 'invalid_token' }), token('b'), json(200, [1])])
    expect(await c.get('/x')).toEqual([1])
    expect(calls.map((x) => x.url.searchParams.get('access_token') ?? 'login')).toEqual(['login', 'a', 'login', 'b'])
    const again = client([token('a'), json(400, { error: 'token_required' }), token('b'), json(400, { error: 'invalid_token' })])
    expect((await failure(again.c.get('/x'))).code).toBe('invalid_token')
    expect(again.c.stats.logins).toBe(2)
  })

  it('logs in again before a request once the token is about to expire', async () => {
    const { c, clock, calls } = client([token('a', 3600), json(200, []), token('b'), json(200, [])])
    await c.get('/x')
    clock.advance(3600_000 - 30_000)
    await c.get('/x')
    expect(calls.map((x) => x.url.searchParams.get('access_token') ?? 'login')).toEqual(['login', 'a', 'login', 'b'])
  })
})

describe('RemoteClient retries', () => {
  it('retries 5xx, resets and cut-short JSON with a doubling pause, then succeeds', async () => {
    const cut = new Response('[{"campaign_id":"1","campaign_na', { status: 200, headers: { 'content-type': 'application/json' } })
    const { c, clock } = client([token(), json(500, { error: 'server_error' }), netError('ECONNRESET'), cut, json(200, [{ campaign_id: '1' }])])
    expect(await c.get('/x')).toEqual([{ campaign_id: '1' }])
    expect(clock.slept).toEqual([100, 200, 400])
    expect(c.stats).toEqual({ requests: 5, logins: 1, retries: 3 })
  })

  it('gives up after `retries` and says why', async () => {
    const { c } = client([token(), json(502, {}), json(502, {}), json(502, {})], { retries: 2 })
    const e = await failure(c.get('/cms/v1/campaigns/show'))
    expect([e.problem, e.message]).toEqual(['server_error', 'The remote failed on /cms/v1/campaigns/show (HTTP 502).'])
  })

  it('does not retry a 4xx, and keeps the remote error code', async () => {
    const { c, calls } = client([token(), json(400, { error: 'invalid_campaign_id', error_description: 'The campaign 9 cannot be found.' })])
    const e = await failure(c.get('/cms/v1/campaigns/show'))
    expect([e.problem, e.code, calls.length]).toEqual(['refused', 'invalid_campaign_id', 2])
    expect(e.message).toContain('The campaign 9 cannot be found.')
  })

  it('waits as long as Retry-After asks on 429', async () => {
    const { c, clock } = client([token(), json(429, {}, { 'retry-after': '7' }), json(200, [])])
    await c.get('/x')
    expect(clock.slept).toEqual([7000])
  })

  it('times out a request whose answer never comes, and retries it', async () => {
    const hang = () => new Promise<Response>(() => undefined)
    const { c } = client([token(), hang, json(200, ['late'])], { timeoutMs: 50 })
    expect(await c.get('/x')).toEqual(['late'])
    const slow = client([token(), hang], { timeoutMs: 50, retries: 0 })
    const e = await failure(slow.c.get('/x'))
    expect(e.problem).toBe('timeout')
    expect(e.message).toBe('api.example.test did not answer within 50 ms (/base/x).')
  })

  it('paces requests to the minimum interval', async () => {
    const { c, clock } = client([token(), json(200, []), json(200, []), json(200, [])], { pacingMs: 250 })
    await c.get('/x')
    clock.advance(100)
    await c.get('/x')
    await c.get('/x')
    expect(clock.slept).toEqual([250, 150, 250])
  })

  it('stops at once when cancelled, even during a pause', async () => {
    const ctl = new AbortController()
    const { c } = client([token(), () => (ctl.abort(), json(500, {}))], {}, ctl.signal)
    expect((await failure(c.get('/x'))).problem).toBe('cancelled')
  })
})

describe('RemoteClient post', () => {
  it('sends the form with the token in the query, and repeats it only when it cannot have arrived', async () => {
    const { c, calls } = client([token(), netError('ECONNREFUSED'), json(429, { error: 'slow_down' }), json(200, { campaign_id: '7' })])
    expect(await c.post('/cms/v1/campaigns/create', { campaign_name: 'A b' })).toEqual({ campaign_id: '7' })
    expect(calls.map((x) => x.method)).toEqual(['POST', 'POST', 'POST', 'POST'])
    expect(calls[3]!.url.searchParams.get('access_token')).toBe('tok-1')
    expect(calls[3]!.body).toBe('campaign_name=A+b')
  })

  it.each([
    ['a 500', json(500, { error: 'server_error' }), 'server_error'],
    ['a reset', netError('ECONNRESET'), 'reset'],
    ['a cut-short answer', new Response('{"campaign_id":', { status: 200, headers: { 'content-type': 'application/json' } }), 'bad_response'],
  ])('does not repeat a write after %s (it may have been applied)', async (_what, reply, problem) => {
    const { c, calls } = client([token(), reply, json(200, { campaign_id: '7' })])
    expect((await failure(c.post('/cms/v1/campaigns/create', { campaign_name: 'A' }))).problem).toBe(problem)
    expect(calls).toHaveLength(2)
  })
})
