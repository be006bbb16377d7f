// spec §1.2: `callback` and `suppress_response_codes` apply to every response, also to the HTTP
// door's refusals made before a body is read (engine/server/http.ts): a missing or bad token on
// the JSON batch and the file uploads, a body over the limit.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROBLEM_HEADER, PROBLEM_WANTED_HEADER } from '../../../engine/contract/problems'
import { OPEN_BODY_BYTES } from '../../../engine/request'
import { startHttpDoor, type HttpDoor } from '../../../engine/server/http'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

interface Reply {
  status: number
  type: string
  text: string
}

let t: TestEngine
let door: HttpDoor

beforeAll(async () => {
  t = await makeEngine()
  door = await startHttpDoor(t.engine, { port: 0 })
})

afterAll(async () => {
  await door?.close()
  await t?.engine.close()
})

function post(path: string, type: string, body: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: door.port, method: 'POST', path, headers: { connection: 'close', 'content-type': type } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text: Buffer.concat(chunks).toString('utf8') }))
    })
    // (the door may answer and close before it reads the body)
    req.on('error', reject)
    req.end(body)
  })
}

/** The error named by a JSONP answer `/**\/name({...});`, or null when it is not one. */
function jsonpError(text: string, name: string): string | null {
  const prefix = `/**/${name}(`
  if (!text.startsWith(prefix) || !text.endsWith(');')) return null
  return (JSON.parse(text.slice(prefix.length, -2)) as { error: string }).error
}

const JSON_BODY = Buffer.from(JSON.stringify({ campaign_id: '1', spots: [] }))
const NDJSON = Buffer.from('{"campaign_id":"1"}\n')

describe('refusals before the body is read', () => {
  it('answer status 200 with suppress_response_codes and a JSONP body with callback: batch_create_spot_with_plan', async () => {
    const path = '/cms/v1/campaigns/batch_create_spot_with_plan'
    const none = await post(`${path}?suppress_response_codes=1&callback=cb`, 'application/json', JSON_BODY)
    expect([none.status, none.type, jsonpError(none.text, 'cb')]).toEqual([200, 'application/javascript;charset=UTF-8', 'token_required'])
    const bad = await post(`${path}?access_token=nope&suppress_response_codes`, 'application/json', JSON_BODY)
    expect([bad.status, JSON.parse(bad.text).error]).toEqual([200, 'invalid_token'])
    // each on its own: the status stays when only callback is given
    const wrapped = await post(`${path}?callback=my_func`, 'application/json', JSON_BODY)
    expect([wrapped.status, jsonpError(wrapped.text, 'my_func')]).toEqual([400, 'token_required'])
  })

  it('answer status 200 with suppress_response_codes: events/import (plain JSON, as /local/ never takes callback)', async () => {
    const path = '/local/v1/events/import'
    const none = await post(`${path}?suppress_response_codes=1&callback=cb`, 'application/x-ndjson', NDJSON)
    expect([none.status, none.type, JSON.parse(none.text).error]).toEqual([200, 'application/json;charset=UTF-8', 'token_required'])
    const bad = await post(`${path}?format=ndjson&access_token=nope&suppress_response_codes=`, 'application/x-ndjson', NDJSON)
    expect([bad.status, JSON.parse(bad.text).error]).toEqual([200, 'invalid_token'])
  })

  it('answer status 200 with suppress_response_codes: panels/persons/import', async () => {
    const path = '/local/v1/panels/persons/import?panel_id=x'
    const none = await post(`${path}&suppress_response_codes=1`, 'application/x-ndjson', NDJSON)
    expect([none.status, JSON.parse(none.text).error]).toEqual([200, 'token_required'])
    const bad = await post(`${path}&access_token=nope&suppress_response_codes=1&callback=cb`, 'application/x-ndjson', NDJSON)
    expect([bad.status, bad.type, JSON.parse(bad.text).error]).toEqual([200, 'application/json;charset=UTF-8', 'invalid_token'])
  })

  it('answer a body over the limit with status 200 and JSONP when asked in the query', async () => {
    const big = Buffer.alloc(OPEN_BODY_BYTES + 1, 'a')
    const r = await post('/cms/v1/campaigns/create?suppress_response_codes=1&callback=cb', 'application/x-www-form-urlencoded', big)
    expect([r.status, jsonpError(r.text, 'cb')]).toEqual([200, 'payload_too_large'])
  })

  it('keep their status and plain JSON without those parameters', async () => {
    const r = await post('/local/v1/events/import', 'application/x-ndjson', NDJSON)
    expect([r.status, r.type, JSON.parse(r.text).error]).toEqual([400, 'application/json;charset=UTF-8', 'token_required'])
  })
})

function getWith(path: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: door.port, method: 'GET', path, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('refusals of the door before any endpoint (a Host or an Origin that is not this server)', () => {
  it.each([
    ['a Host behind a proxy that is not allowed', { host: 'admonitor.lan:8366' }],
    ['an Origin that is not allowed', { origin: 'http://other.example' }],
  ])('answer %s with status 200 and JSONP when asked in the query', async (_, headers) => {
    const r = await getWith('/cms/v1/campaigns/list?suppress_response_codes=1&callback=cb', { host: `127.0.0.1:${door.port}`, ...headers })
    expect([r.status, r.type, jsonpError(r.text, 'cb')]).toEqual([200, 'application/javascript;charset=UTF-8', 'forbidden_host'])
    const plain = await getWith('/cms/v1/campaigns/list', { host: `127.0.0.1:${door.port}`, ...headers })
    expect([plain.status, JSON.parse(plain.text).error]).toEqual([403, 'forbidden_host'])
  })
})

describe('the problem of a Host or an Origin refused on an API path (docs/errors.md "Problem keys")', () => {
  /** The status, the problem header (decoded) and the body of a GET with `headers`. */
  const problemOf = (headers: Record<string, string>) =>
    new Promise<[number, string | undefined, string]>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: door.port, path: '/cms/v1/campaigns/list', headers: { connection: 'close', host: `127.0.0.1:${door.port}`, ...headers } }, (res) => {
        const chunks: Buffer[] = []
        const problem = res.headers[PROBLEM_HEADER]
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve([res.statusCode ?? 0, typeof problem === 'string' ? decodeURIComponent(problem) : undefined, Buffer.concat(chunks).toString('utf8')]))
      })
      req.on('error', reject)
      req.end()
    })

  it.each([
    ['a Host that is not this server', { host: 'admonitor.lan:8366' }, { key: 'door.host', args: { host: 'admonitor.lan:8366' } }],
    ['an Origin that is not allowed', { origin: 'http://other.example' }, { key: 'door.origin', args: { origin: 'http://other.example' } }],
  ])('is sent for %s to a client that asks, with the body a client that does not ask gets', async (_, headers, problem) => {
    const [status, sent, body] = await problemOf({ ...headers, [PROBLEM_WANTED_HEADER]: '1' })
    expect(status).toBe(403)
    expect(JSON.parse(sent ?? 'null')).toMatchObject(problem)
    expect(await problemOf(headers)).toEqual([403, undefined, body])
  })
})
