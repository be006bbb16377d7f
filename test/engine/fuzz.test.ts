/**
 * Thousands of random and malformed requests at every endpoint (DESIGN §5): never a 5xx, never a
 * crash, nothing written by a refused request, and every 200 has the declared shape.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints, type EndpointId } from '../../engine/contract/endpoints'
import type { EngineRequest } from '../../engine/contract/envelope'
import { validate } from '../../engine/contract/schema'
import { makeEngine, type TestEngine } from '../helpers/make-engine'
import { seed, textBody, validParams, type Fixture } from '../fixtures/seed'
import { prng } from '../helpers/prng'


const NASTY = [
  '', ' ', '0', '-1', '1', '2', '99999999999999999999', '1e308', 'NaN', 'null', 'undefined', 'true', '[]', '{}', '[1,2]',
  "' OR 1=1 --", "'; DROP TABLE campaigns; --", '%00', '\u0000', '\ud800', 'ä'.repeat(3000), '😀', '<script>alert(1)</script>',
  '../../etc/passwd', ',', ',,', '1,', ',1', 'a^b>c', '^>', '>', '2025-13-45', '9999-12-31', '0000-00-00', '2025-01-11', 'S0+',
  'male&female', 'male,,', '0,0', '0,500', '5,2', '-1,5', 'display', 'impression click', 'https://example.com', 'javascript:x',
  'e', '4+bCF0', 'china-pc-2026', '000000000000001156440300', 'on', 'utm', 'mma,https,?', 'x'.repeat(70_000),
]

let t: TestEngine
let f: Fixture
let valid: ReturnType<typeof validParams>
const journalRecords = () => [...t.storage.segments.values()].reduce((n, s) => n + s.length, 0)

beforeAll(async () => {
  t = await makeEngine({ engine: { idleCheckpointMs: 1e9, checkpointBytes: 1 << 30 } })
  f = await seed(t)
  valid = validParams(f)
})

function randomRequest(id: EndpointId, rnd: () => number): EngineRequest {
  const def = endpoints[id]
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
  const params: Record<string, string | string[]> = { ...(valid[id]?.() ?? {}) }
  const names = [...Object.keys(def.params), 'bogus_param', 'callback', 'suppress_response_codes', 'access_token']
  for (let i = 1 + Math.floor(rnd() * 4); i > 0; i--) {
    const name = pick(names)
    const r = rnd()
    if (r < 0.2) delete params[name]
    else if (r < 0.3) params[name] = [pick(NASTY), pick(NASTY)]
    else params[name] = pick(NASTY)
  }
  if (!('access_token' in params) || rnd() < 0.9) params.access_token = t.token
  const method = rnd() < 0.05 ? pick(['GET', 'POST', 'PUT', 'DELETE']) : def.method
  if (method === 'GET') return { method, path: def.path, query: params }
  if (def.body === 'text') {
    // file endpoints: parameters in the query; the file valid, mangled, or nonsense
    const file = textBody(id, f) ?? ''
    const body = pick([file, file, `${file}\n${pick(NASTY)}`, pick(NASTY), file.replace(/"/g, pick(NASTY)), `${file}\n${file}`])
    return { method, path: def.path, query: params, body, headers: { 'content-type': pick(['application/x-ndjson', 'text/csv', 'text/plain', '']) } }
  }
  const type = rnd() < 0.1 ? pick(['text/plain', 'application/json', 'multipart/form-data', '']) : def.body === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'
  let body: string
  if (type === 'application/json') {
    const spots = rnd() < 0.5 ? [{ ...valid['campaigns.create_spot']!(), campaign_id: undefined, [pick(names)]: pick(NASTY) }] : pick([[], null, 'x', [1], [{}]])
    body = rnd() < 0.1 ? '{"broken":' : JSON.stringify(def.body === 'json' ? { campaign_id: rnd() < 0.7 ? f.campaign_id : pick(NASTY), spots } : params)
  } else {
    const form = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x)
    body = rnd() < 0.05 ? '%%%&&==' : form.toString()
  }
  return { method, path: def.path, query: rnd() < 0.5 ? { access_token: t.token } : {}, body, headers: { 'content-type': type } }
}

const ids = (Object.keys(endpoints) as EndpointId[]).filter((id) => id !== 'oauth.token')

describe('random and malformed input', () => {
  it.each(ids)('never answers 5xx, never writes when refusing, always answers 200 in shape: %s', async (id) => {
    const rnd = prng(id.length * 7919 + id.charCodeAt(0))
    const def = endpoints[id]
    const seen = { ok: 0, refused: 0 }
    for (let i = 0; i < 120; i++) {
      const req = randomRequest(id, rnd)
      const before = journalRecords()
      const res = await t.engine.handle(req)
      const what = `${req.method} ${req.path} ${JSON.stringify(req.query).slice(0, 200)} ${String(req.body).slice(0, 200)}`
      expect(res.status, what).toBeLessThan(500)
      const body: unknown = res.headers['content-type']?.startsWith('application/json') ? JSON.parse(res.body) : null
      if (res.status !== 200 || (body !== null && typeof body === 'object' && 'error' in body)) {
        expect(journalRecords(), `refused request wrote: ${what}`).toBe(before)
        seen.refused++
      } else {
        if (body !== null && id !== 'openapi.json') expect(validate(def.response, body), what).toEqual([])
        seen.ok++
        // signing out revokes the token the fuzz sends: a new one (the secrets may be rotated by now)
        if (id === 'account.sign_out') t.token = await t.engine.localToken()
      }
    }
    // The generator must reach both outcomes, or the test proves nothing.
    expect(seen.refused, JSON.stringify(seen)).toBeGreaterThan(0)
    if (valid[id]) expect(seen.ok, JSON.stringify(seen)).toBeGreaterThan(0)
  })

  it('survives malformed token requests (fewer: each checks a password hash)', async () => {
    const rnd = prng(42)
    for (let i = 0; i < 40; i++) {
      const req = randomRequest('oauth.token', rnd)
      const res = await t.engine.handle(req)
      expect(res.status).toBeLessThan(500)
    }
  })
})
