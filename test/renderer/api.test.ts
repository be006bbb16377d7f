// renderer/src/api: the bridge transports (IPC and HTTP) and the typed client over them (STYLE H5)
import { describe, expect, it } from 'vitest'
import type { EngineBridge, EngineRequest, EngineResponse } from '../../engine/contract/envelope'
import { ApiClient, buildRequest, readResponse } from '../../renderer/src/api/client'
import { httpTransport, ipcTransport } from '../../renderer/src/api/transport'
import { makeEngine } from '../helpers/make-engine'

const json = (status: number, body: unknown): EngineResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('buildRequest', () => {
  it('puts GET parameters in the query and leaves out empty ones', () => {
    const r = buildRequest('campaigns.list', { campaign_name: 'spring', limit: '0,20', advertiser_id: '', brand_id: undefined }, 'tok')
    expect(r).toMatchObject({ method: 'GET', path: '/cms/v1/campaigns/list', query: { campaign_name: 'spring', limit: '0,20' }, headers: { authorization: 'Bearer tok' } })
  })

  it('sends POST parameters as a form, text endpoints as text with their parameters in the query, the batch as JSON', () => {
    const form = buildRequest('campaigns.delete', { campaign_id: 7 }, null)
    expect(form).toMatchObject({ method: 'POST', body: 'campaign_id=7', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    const text = buildRequest('events.import', { format: 'csv', wait: 0 }, 't', { text: 'a,b\n1,2' })
    expect(text).toMatchObject({ query: { format: 'csv', wait: '0' }, body: 'a,b\n1,2' })
    const batch = buildRequest('campaigns.batch_create_spot_with_plan', { campaign_id: 3 }, 't', { json: { spots: [{ a: 1 }] } })
    expect(JSON.parse(batch.body!)).toEqual({ campaign_id: '3', spots: [{ a: 1 }] })
    expect(batch.headers!['content-type']).toBe('application/json')
  })

  it('keeps the empty values it is asked to keep (clearing a field on update)', () => {
    const r = buildRequest('campaigns.update', { campaign_id: 1, description: '' }, null, { keepEmpty: ['description'] })
    expect(new URLSearchParams(r.body).get('description')).toBe('')
  })
})

describe('readResponse', () => {
  it('rebuilds the engine error with its code and description', () => {
    expect(() => readResponse(json(400, { error: 'invalid_request', error_description: "The 'limit' is wrong." }))).toThrow("The 'limit' is wrong.")
    try {
      readResponse(json(400, { error: 'invalid_campaign_id', error_description: 'x' }))
    } catch (e) {
      expect((e as { body: { error: string } }).body.error).toBe('invalid_campaign_id')
    }
  })

  it('says so when an answer is not JSON', () => {
    expect(() => readResponse({ status: 502, headers: {}, body: '<html>' })).toThrow(/502.*not JSON/)
  })
})

describe('transports', () => {
  it('ipcTransport hands the request to the bridge as it is', async () => {
    const seen: EngineRequest[] = []
    const bridge: EngineBridge = { request: async (r) => (seen.push(r), json(200, [])), onEvent: () => () => undefined }
    const req: EngineRequest = { method: 'GET', path: '/x', query: { a: '1' } }
    expect((await ipcTransport(bridge)(req)).status).toBe(200)
    expect(seen).toEqual([req])
  })

  it('httpTransport builds the URL, sends method, headers and body, and returns status, headers and text', async () => {
    const calls: { url: string; init: RequestInit }[] = []
    const fake = (async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), init })
      return new Response('{"ok":1}', { status: 201, headers: { 'x-a': 'b' } })
    }) as unknown as typeof fetch
    const t = httpTransport('http://127.0.0.1:9', fake)
    const r = await t({ method: 'POST', path: '/p', query: { a: ['1', '2'], b: 'é' }, body: 'x=1', headers: { h: 'v' } })
    expect(calls[0]!.url).toBe('http://127.0.0.1:9/p?a=1&a=2&b=%C3%A9')
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: 'x=1', headers: { h: 'v' } })
    expect(r).toMatchObject({ status: 201, body: '{"ok":1}', headers: { 'x-a': 'b' } })
    await t({ method: 'GET', path: '/g', query: {}, body: 'ignored' })
    expect(calls[1]!.init.body).toBeUndefined()
  })
})

describe('ApiClient against an engine', () => {
  it('calls endpoints by id and signs in again on a refused token', async () => {
    const t = await makeEngine()
    const client = new ApiClient((r) => t.engine.handle(r))
    let refused = ''
    client.onUnauthorized = (e) => (refused = e.body.error)
    await expect(client.call('campaigns.list')).rejects.toThrow(/access token is required/)
    expect(refused).toBe('token_required')
    client.token = t.token
    expect(await client.call('campaigns.list')).toEqual([])
    client.token = 'expired-or-unknown'
    await expect(client.call('local.status')).rejects.toThrow()
    expect(refused).toBe('invalid_token')
  })
})
