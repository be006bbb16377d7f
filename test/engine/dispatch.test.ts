// The shared conventions of every endpoint: vendor-notes §1.2 (callback, suppress_response_codes),
// §0.13 (/report/ alias), spec §1 (JSON, AND, lists), DESIGN §5 (400s, never 500s)
import { beforeAll, describe, expect, it } from 'vitest'
import { validate } from '../../engine/contract/schema'
import { SCHEMA_VERSION } from '../../engine/storage/migrations'
import { CHUNK } from '../../engine/result-sets'
import { DATES, makeEngine, type TestEngine } from '../helpers/make-engine'

let t: TestEngine
const raw = (method: string, path: string, query: Record<string, string | string[]> = {}, body?: string, contentType?: string) =>
  t.engine.handle({ method, path, query: { access_token: t.token, ...query }, ...(body === undefined ? {} : { body }), headers: contentType ? { 'content-type': contentType } : {} })

beforeAll(async () => {
  t = await makeEngine()
})

describe('dispatch', () => {
  it('answers an unknown path with a JSON 404 not_found', async () => {
    const r = await raw('GET', '/cms/v1/nothing/here')
    expect(r.status).toBe(404)
    expect(JSON.parse(r.body)).toMatchObject({ error: 'not_found' })
    expect(r.headers['content-type']).toBe('application/json;charset=UTF-8')
  })

  it('answers a known path with the wrong method with 405', async () => {
    expect((await raw('POST', '/cms/v1/campaigns/list')).status).toBe(405)
    expect((await raw('GET', '/cms/v1/campaigns/create')).status).toBe(405)
  })

  it('wraps the answer in a JSONP callback, keeping only [A-Za-z0-9_] of its name', async () => {
    const r = await raw('GET', '/cms/v1/campaigns/list', { callback: 'my.func<script>' })
    expect(r.body).toBe('/**/myfuncscript([]);')
    expect(r.headers['content-type']).toBe('application/javascript;charset=UTF-8')
    const err = await raw('GET', '/cms/v1/campaigns/show', { callback: 'cb' })
    expect(err.body).toMatch(/^\/\*\*\/cb\(\{"error":"invalid_request"/)
  })

  it('ignores a callback that has no usable character', async () => {
    expect((await raw('GET', '/cms/v1/campaigns/list', { callback: '<>' })).body).toBe('[]')
  })

  it('answers 200 for every outcome when suppress_response_codes is present', async () => {
    const r = await raw('GET', '/cms/v1/campaigns/show', { suppress_response_codes: '' })
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body).error).toBe('invalid_request')
    const nf = await raw('GET', '/cms/v1/bogus', { suppress_response_codes: '1' })
    expect(nf.status).toBe(200)
  })

  it('refuses a parameter given twice', async () => {
    const r = await raw('GET', '/cms/v1/campaigns/list', { status: ['1', '2'] })
    expect(JSON.parse(r.body)).toMatchObject({ error: 'invalid_request', error_description: "The 'status' is given more than once." })
  })

  it('reports undeclared parameters in a header instead of refusing them', async () => {
    const r = await raw('GET', '/cms/v1/campaigns/list', { campain_name: 'typo', _: '123' })
    expect(r.status).toBe(200)
    expect(r.headers['x-admonitor-ignored-parameters']).toBe('campain_name')
  })

  it('takes a form body, a JSON object body and query parameters on POST', async () => {
    const form = await raw('POST', '/cms/v1/campaigns/create', {}, new URLSearchParams({ campaign_name: 'Form', start_date: DATES.tomorrow, end_date: DATES.nextWeek }).toString(), 'application/x-www-form-urlencoded; charset=UTF-8')
    expect(form.status).toBe(200)
    const json = await raw('POST', '/cms/v1/campaigns/create', {}, JSON.stringify({ campaign_name: 'Json', start_date: DATES.tomorrow, end_date: DATES.nextWeek, frequency_limit: 5, linked_tvcaids: [1, 2] }), 'application/json')
    expect(json.status).toBe(200)
    const shown = await t.get('/cms/v1/campaigns/show', { campaign_id: JSON.parse(json.body).campaign_id, pmo_info: 1, dm_info: 1 })
    expect(shown.body).toMatchObject({ frequency_limit: 5, linked_tvcaids: [1, 2] })
    const query = await raw('POST', '/cms/v1/campaigns/create', { campaign_name: 'Query', start_date: DATES.tomorrow, end_date: DATES.nextWeek })
    expect(query.status).toBe(200)
  })

  it('reads a JSON array as the comma list a form sends, and refuses an entry holding a comma', async () => {
    const json = (o: object) => raw('POST', '/local/v1/minisites/create', {}, JSON.stringify(o), 'application/json')
    const site = await json({ minisite_name: 'Json list', events: ['home', 'buy now', 2] })
    expect(site.status, site.body).toBe(200)
    const listed = (await t.get('/local/v1/minisites/list')).body as { minisite_id: string; events: { event_name: string }[] }[]
    expect(listed.find((m) => m.minisite_id === JSON.parse(site.body).minisite_id)!.events.map((e) => e.event_name)).toEqual(['home', 'buy now', '2'])
    const comma = await json({ minisite_name: 'Json comma', events: ['a,b'] })
    expect([comma.status, JSON.parse(comma.body).error_description]).toEqual([400, "The 'events' is a list whose entries hold commas; a list is written as entries without commas."])
  })

  it('refuses the same parameter in the query and the body', async () => {
    const r = await raw('POST', '/cms/v1/campaigns/delete', { campaign_id: '1' }, 'campaign_id=2', 'application/x-www-form-urlencoded')
    expect(JSON.parse(r.body).error_description).toContain('more than once')
  })

  it('answers 400 for malformed JSON and 415 for other body types', async () => {
    const bad = await raw('POST', '/cms/v1/campaigns/create', {}, '{"campaign_name":', 'application/json')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error_description).toContain("'body'")
    const arrayBody = await raw('POST', '/cms/v1/campaigns/create', {}, '[1,2]', 'application/json')
    expect(arrayBody.status).toBe(400)
    expect((await raw('POST', '/cms/v1/campaigns/create', {}, '<x/>', 'text/xml')).status).toBe(415)
    expect((await raw('POST', '/cms/v1/campaigns/batch_create_spot_with_plan', {}, 'a=1', 'application/x-www-form-urlencoded')).status).toBe(415)
  })

  it('serves /admonitor/v1/report/... as /admonitor/v1/reports/... (vendor index spelling)', async () => {
    // Both spellings reach the same lookup: an unknown report path answers the same 404 under both.
    const a = await raw('GET', '/admonitor/v1/report/none/show')
    const b = await raw('GET', '/admonitor/v1/reports/none/show')
    expect([a.status, JSON.parse(a.body).error]).toEqual([b.status, JSON.parse(b.body).error])
  })

  it('shows a write in the next read (the response cache follows every commit)', async () => {
    const before = (await t.get('/cms/v1/campaigns/list', { campaign_name: 'Cache probe' })).body
    expect(before).toEqual([])
    await t.post('/cms/v1/campaigns/create', { campaign_name: 'Cache probe', start_date: DATES.tomorrow, end_date: DATES.nextWeek })
    expect((await t.get('/cms/v1/campaigns/list', { campaign_name: 'Cache probe' })).body).toHaveLength(1)
  })

  it('pages a list from its result set: every page as the whole list cut, and a write shows on the next page', async () => {
    const e = await makeEngine()
    for (let i = 0; i < CHUNK + 40; i++)
      await e.post('/cms/v1/campaigns/create', { campaign_name: `Paged ${String(i).padStart(3, '0')} 春`, start_date: DATES.tomorrow, end_date: DATES.nextWeek })
    const query = { order_desc: 'campaign_name', campaign_name: 'paged' }
    const whole = (await e.get('/cms/v1/campaigns/list', { ...query, limit: '0,100000' })).body as { campaign_id: string; campaign_name: string; description: string }[]
    expect(whole).toHaveLength(CHUNK + 40)
    expect(whole[0]!.campaign_name).toBe(`Paged ${CHUNK + 39} 春`)
    for (const [m, n] of [[0, 10], [CHUNK - 3, 7], [CHUNK + 35, 10], [5, CHUNK + 20], [CHUNK + 40, 5]] as const) {
      const r = await e.get('/cms/v1/campaigns/list', { ...query, limit: `${m},${n}` })
      expect(r.body).toEqual(whole.slice(m, m + n))
      expect(Buffer.concat(r.raw.parts!).toString('utf8')).toBe(r.raw.body)
    }
    await e.post('/cms/v1/campaigns/update', { campaign_id: whole[CHUNK + 1]!.campaign_id, description: 'Paged and changed' })
    const after = (await e.get('/cms/v1/campaigns/list', { ...query, limit: `${CHUNK},3` })).body as { description: string }[]
    expect(after.map((c) => c.description)).toEqual([whole[CHUNK]!.description, 'Paged and changed', whole[CHUNK + 2]!.description])
    // JSONP of a page
    expect((await e.get('/cms/v1/campaigns/list', { ...query, limit: '0,1', callback: 'cb' })).raw.body).toBe(`/**/cb(${JSON.stringify(whole.slice(0, 1))});`)
  })

  it('recomputes status when the day changes even without writes', async () => {
    const e = await makeEngine()
    await e.post('/cms/v1/campaigns/create', { campaign_name: 'Tomorrow', start_date: DATES.tomorrow, end_date: DATES.tomorrow })
    expect((await e.get('/cms/v1/campaigns/list', { status: 1 })).body).toHaveLength(1)
    e.clock.advance(86_400_000)
    e.token = await e.login()
    expect((await e.get('/cms/v1/campaigns/list', { status: 1 })).body).toHaveLength(0)
  })

  it('serves the OpenAPI document without a token, listing every endpoint', async () => {
    const r = await t.get('/openapi.json', {}, null)
    expect(r.status).toBe(200)
    expect(r.body.openapi).toBe('3.1.0')
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(['/oauth/token', '/cms/v1/campaigns/list', '/cms/v1/regions/list', '/cms/v1/campaigns/batch_create_spot_with_plan']))
    expect(r.body.paths['/cms/v1/campaigns/create'].post.requestBody.content['application/x-www-form-urlencoded'].schema.required).toEqual(['campaign_name', 'start_date', 'end_date'])
  })

  it('answers the local status endpoint with the engine identity', async () => {
    const r = await t.get('/local/v1/status')
    expect(r.body).toMatchObject({ name: 'AdMonitor Desk', schema_version: SCHEMA_VERSION, time_zone: 'Asia/Shanghai', today: DATES.today })
    const { ServerStatus } = await import('../../engine/contract/models')
    expect(validate(ServerStatus, r.body)).toEqual([])
  })

  it('sends a report written as bytes (basic/show) alike fresh and from the cache, and wraps it for JSONP', async () => {
    const c = await t.post('/cms/v1/campaigns/create', { campaign_name: 'Bytes probe 北京', start_date: DATES.today, end_date: DATES.nextWeek })
    const q = { campaign_id: c.body.campaign_id as string, date: DATES.today, with_null: '1' }
    const fresh = await raw('GET', '/admonitor/v1/reports/basic/show', q)
    const cached = await raw('GET', '/admonitor/v1/reports/basic/show', q)
    expect(fresh.status).toBe(200)
    expect(fresh.parts).toBeDefined()
    expect(cached.parts).toBeDefined()
    expect(cached.body).toBe(fresh.body)
    expect(Buffer.concat(cached.parts!).toString('utf8')).toBe(fresh.body)
    expect(JSON.parse(fresh.body).campaign_id).toBe(Number(c.body.campaign_id))
    for (const callback of [undefined, 'cb']) {
      const again = await raw('GET', '/admonitor/v1/reports/basic/show', { ...q, ...(callback ? { callback } : {}) })
      if (callback) expect(again.body).toBe(`/**/cb(${fresh.body});`)
      else expect(again.body).toBe(fresh.body)
    }
  })

  it('refuses new requests once the engine is closing', async () => {
    const e = await makeEngine()
    await e.engine.close()
    const r = await e.get('/cms/v1/campaigns/list')
    expect(r.status).toBe(503)
    expect(r.body.error).toBe('temporarily_unavailable')
  })
})

describe('input at the edges of what a client sends', () => {
  const form = 'application/x-www-form-urlencoded'
  const create = (body: string, contentType = form) => raw('POST', '/cms/v1/campaigns/create', {}, `${body}&start_date=${DATES.tomorrow}&end_date=${DATES.nextWeek}`, contentType)
  const said = (r: { status: number; body: string }) => [r.status, JSON.parse(r.body).error_description]

  it('refuses text that is not UTF-8, naming the parameter, and a body in another charset', async () => {
    // GBK bytes of 牛奶, percent-encoded: decoded as UTF-8 they are replacement characters
    expect(said(await create('campaign_name=%C5%A3%C4%CC'))).toEqual([400, "The 'campaign_name' is not UTF-8 text: it holds bytes that are not UTF-8 (shown as U+FFFD); send UTF-8, percent-encoded in a query string or form."])
    expect(said(await create('campaign_name=x&description=%FF%FE'))[1]).toContain("The 'description' is not UTF-8 text")
    expect(said(await create('campaign_name=ok', `${form}; charset=GBK`))).toEqual([415, "The body's charset 'GBK' is not accepted; send UTF-8."])
    expect((await create('campaign_name=%E7%89%9B%E5%A5%B6', `${form}; charset=UTF-8`)).status).toBe(200)
  })

  it('refuses a nested JSON object as a parameter, and clears linked_tvcaids with an empty array', async () => {
    const json = (o: object) => raw('POST', '/cms/v1/campaigns/create', {}, JSON.stringify({ start_date: DATES.tomorrow, end_date: DATES.nextWeek, ...o }), 'application/json')
    expect(said(await json({ campaign_name: { a: 1 } }))).toEqual([400, "The 'campaign_name' is a JSON object or an array of them; a parameter is text, a number, a boolean or an array of those."])
    expect((await json({ campaign_name: 'objects in a list', wares: [{ a: 1 }] })).status).toBe(400)
    const id = JSON.parse((await json({ campaign_name: 'TV ids', linked_tvcaids: [1, 2] })).body).campaign_id as string
    const tvcaids = async () => (await t.get('/cms/v1/campaigns/show', { campaign_id: id, pmo_info: 1 })).body.linked_tvcaids
    expect(await tvcaids()).toEqual([1, 2])
    expect((await raw('POST', '/cms/v1/campaigns/update', {}, JSON.stringify({ campaign_id: id, linked_tvcaids: [] }), 'application/json')).status).toBe(200)
    expect(await tvcaids()).toEqual([])
    expect((await raw('POST', '/cms/v1/campaigns/update', {}, `campaign_id=${id}&linked_tvcaids=3`, form)).status).toBe(200)
    expect((await raw('POST', '/cms/v1/campaigns/update', {}, `campaign_id=${id}&linked_tvcaids=`, form)).status).toBe(200)
    expect(await tvcaids()).toEqual([])
  })

  it('answers no JSONP on /local/ (a script tag of any page could read the account with a token it learned)', async () => {
    const r = await raw('GET', '/local/v1/account/show', { callback: 'steal' })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('application/json;charset=UTF-8')
    expect(r.body.startsWith('{')).toBe(true)
    expect((await raw('GET', '/cms/v1/campaigns/list', { callback: 'cb' })).body).toMatch(/^\/\*\*\/cb\(/)
  })

  it('takes suppress_response_codes and callback from a POST body too', async () => {
    const r = await raw('POST', '/cms/v1/campaigns/update', {}, 'campaign_id=99999&suppress_response_codes=1&callback=cb', form)
    expect(r.status).toBe(200)
    expect(r.body).toMatch(/^\/\*\*\/cb\(\{"error":"invalid_campaign_id"/)
  })
})
