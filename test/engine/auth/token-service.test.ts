// spec §4.1, §5, §7.1; RFC 6749 §4.3, §5.1, §5.2
import { beforeAll, describe, expect, it } from 'vitest'
import { validate } from '../../../engine/contract/schema'
import { TokenResponse } from '../../../engine/contract/models'
import { EXPIRED_KEPT_MS, TOKEN_LIFETIME_S } from '../../../engine/auth/token-service'
import { MemoryStorage } from '../../../engine/storage/adapters/memory'
import { Db } from '../../../engine/storage/db'
import { ACCOUNT, makeEngine, type TestEngine } from '../../helpers/make-engine'

let t: TestEngine
const grant = (extra: Record<string, string> = {}) => t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, ...extra }, null)

beforeAll(async () => {
  t = await makeEngine()
})

describe('oauth.token', () => {
  it('issues a bearer token for the password grant with the spec and vendor members', async () => {
    const r = await grant()
    expect(r.status).toBe(200)
    expect(validate(TokenResponse, r.body)).toEqual([])
    expect(r.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'cms admonitor local', uname: ACCOUNT.username })
    expect(r.body.refresh_token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(r.body.access_token).toMatch(/^2\./)
  })

  it('sends Cache-Control: no-store and Pragma: no-cache, on success and on error', async () => {
    for (const r of [await grant(), await grant({ password: 'wrong' })]) {
      expect(r.headers['cache-control']).toBe('no-store')
      expect(r.headers.pragma).toBe('no-cache')
      expect(r.headers['content-type']).toBe('application/json;charset=UTF-8')
    }
  })

  it('refuses a missing grant_type with invalid_request', async () => {
    const r = await t.post('/oauth/token', { ...ACCOUNT }, null)
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ error: 'invalid_request', error_description: "The 'grant_type' is required." })
  })

  it('refuses missing or wrong client credentials with invalid_client', async () => {
    expect((await grant({ client_secret: 'nope' })).body.error).toBe('invalid_client')
    expect((await grant({ client_id: 'nobody' })).body.error).toBe('invalid_client')
    const { client_secret: _s, ...noSecret } = ACCOUNT
    expect((await t.post('/oauth/token', { grant_type: 'password', ...noSecret }, null)).body.error).toBe('invalid_client')
  })

  it('answers unsupported_grant_type for the grants marked unavailable and for unknown ones', async () => {
    for (const g of ['client_credentials', 'refresh_token', 'authorization_code', 'magic']) {
      const r = await grant({ grant_type: g })
      expect(r.status).toBe(400)
      expect(r.body.error).toBe('unsupported_grant_type')
      expect(r.body.error_description).toContain(g)
    }
  })

  it('refuses a missing username or password with invalid_request, a wrong one with invalid_grant', async () => {
    const { username: _u, ...noUser } = ACCOUNT
    expect((await t.post('/oauth/token', { grant_type: 'password', ...noUser }, null)).body.error).toBe('invalid_request')
    expect((await grant({ password: 'wrong' })).body.error).toBe('invalid_grant')
    expect((await grant({ username: 'ghost' })).body.error).toBe('invalid_grant')
  })

  it('grants the asked scopes and refuses unknown ones with invalid_scope', async () => {
    expect((await grant({ scope: 'cms' })).body.scope).toBe('cms')
    expect((await grant({ scope: 'admonitor cms' })).body.scope).toBe('cms admonitor')
    expect((await grant({ scope: 'cms root' })).body.error).toBe('invalid_scope')
  })

  it('takes client credentials from an Authorization: Basic header (RFC 6749 §2.3.1)', async () => {
    const basic = Buffer.from(`${ACCOUNT.client_id}:${ACCOUNT.client_secret}`).toString('base64')
    const body = new URLSearchParams({ grant_type: 'password', username: ACCOUNT.username, password: ACCOUNT.password }).toString()
    const r = await t.engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` } })
    expect(r.status).toBe(200)
    // both ways at once: served when they agree, and the difference named when they do not
    const both = (extra: string) => t.engine.handle({ method: 'POST', path: '/oauth/token', query: {}, body: `${body}&${extra}`, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` } })
    expect((await both(`client_id=${ACCOUNT.client_id}`)).status).toBe(200)
    const other = await both('client_id=another')
    expect([other.status, JSON.parse(other.body).error_description]).toEqual([400, "The 'client_id' in the request differs from the one in the Authorization: Basic header; send the client's credentials one way."])
    expect(JSON.parse((await both(`client_id=${ACCOUNT.client_id}&client_secret=wrong`)).body).error_description).toContain("'client_secret' in the request differs")
  })

  it('answers GET with 405 method_not_allowed', async () => {
    const r = await t.get('/oauth/token', {}, null)
    expect(r.status).toBe(405)
    expect(r.body.error).toBe('method_not_allowed')
  })
})

describe('tokens on other endpoints', () => {
  it('refuses a missing token with token_required', async () => {
    const r = await t.get('/cms/v1/campaigns/list', {}, null)
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('token_required')
  })

  it('refuses an unknown token with invalid_token and a WWW-Authenticate header', async () => {
    const r = await t.get('/cms/v1/campaigns/list', {}, '2.not-a-token')
    expect(r.body.error).toBe('invalid_token')
    expect(r.headers['www-authenticate']).toContain('invalid_token')
  })

  it('accepts a token until 3600 s have passed and refuses it afterwards', async () => {
    const e = await makeEngine()
    e.clock.advance(3599_000)
    expect((await e.get('/cms/v1/campaigns/list')).status).toBe(200)
    e.clock.advance(1_000)
    const r = await e.get('/cms/v1/campaigns/list')
    expect(r.body.error).toBe('invalid_token')
    expect(r.body.error_description).toContain('expired')
  })

  it('accepts the token as a form parameter and as Authorization: Bearer', async () => {
    const bearer = await t.engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list', query: {}, headers: { authorization: `Bearer ${t.token}` } })
    expect(bearer.status).toBe(200)
    expect((await t.post('/cms/v1/campaigns/delete', { campaign_id: 999 })).body.error).toBe('invalid_campaign_id')
  })

  it('refuses two different tokens in one request', async () => {
    const r = await t.engine.handle({ method: 'GET', path: '/cms/v1/campaigns/list', query: { access_token: t.token }, headers: { authorization: 'Bearer 2.other' } })
    expect(JSON.parse(r.body).error).toBe('invalid_request')
  })

  it('refuses a token whose scope lacks the endpoint category with access_denied', async () => {
    const r = await grant({ scope: 'admonitor' })
    const res = await t.get('/cms/v1/campaigns/list', {}, r.body.access_token)
    expect(res.body.error).toBe('access_denied')
    expect(res.body.error_description).toContain('cms')
  })

  it('keeps tokens across a restart of the engine', async () => {
    const e = await makeEngine()
    await e.engine.close()
    const again = await makeEngine({ storage: e.storage })
    expect((await again.get('/cms/v1/campaigns/list', {}, e.token)).status).toBe(200)
  })
})

describe('login throttling', () => {
  it('waits before checking once three attempts failed, longer each time, and resets on success', async () => {
    const e = await makeEngine()
    const bad = () => e.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, password: 'bad' }, null)
    for (let i = 0; i < 3; i++) await bad()
    expect(e.clock.slept).toEqual([])
    await bad()
    await bad()
    expect(e.clock.slept).toEqual([250, 500])
    await e.login()
    e.clock.slept.length = 0
    await bad()
    expect(e.clock.slept).toEqual([])
  })
})

describe('first run', () => {
  it('creates one account with the preset credentials and never stores the secrets in clear', async () => {
    const e = await makeEngine()
    expect(e.engine.firstRun).toMatchObject(ACCOUNT)
    await e.engine.flush()
    const image = Buffer.from(e.storage.snapshot!).toString('latin1')
    expect(image).not.toContain(ACCOUNT.password)
    expect(image).not.toContain(ACCOUNT.client_secret)
    expect(image).not.toContain(e.token)
    expect(image).toContain('scrypt$')
  })

  it('generates random secrets when none are preset, and creates none on the next start', async () => {
    const { createEngine } = await import('../../../engine/index')
    const { memory } = await import('../../../engine/storage/adapters/memory')
    const storage = memory()
    const e = await createEngine({ storage, log: { error: () => undefined, info: () => undefined } })
    expect(e.firstRun?.password.length).toBeGreaterThanOrEqual(20)
    expect(e.firstRun?.client_secret.length).toBeGreaterThanOrEqual(40)
    await e.close()
    const again = await createEngine({ storage })
    expect(again.firstRun).toBeNull()
    await again.close()
  })
})

describe('token rows', () => {
  const count = async (e: TestEngine, where = '1'): Promise<number> => {
    await e.engine.close()
    const db = await Db.open(e.storage.snapshot)
    return db.scalar<number>(`SELECT COUNT(*) FROM tokens WHERE ${where}`) ?? -1
  }

  it('keeps a token only as long as its access token lives (the refresh grant is unavailable)', async () => {
    const e = await makeEngine()
    for (let i = 0; i < 5; i++) await e.login()
    const old = e.token
    // an hour after its expiry it is still refused as expired, not as unknown
    e.clock.advance(TOKEN_LIFETIME_S * 1000 + 1)
    expect((await e.get('/cms/v1/campaigns/list', {}, old)).body.error_description).toContain('expired')
    e.clock.advance(EXPIRED_KEPT_MS)
    await e.login()
    // a row kept for its refresh token's 30 days would make 7 rows here
    expect(await count(e)).toBe(1)
  })

  it('sweeps, at the first token issued, the rows an earlier run kept for 30 days', async () => {
    const e = await makeEngine()
    await e.engine.close()
    const db = await Db.open(e.storage.snapshot)
    const now = e.clock.now()
    db.tx(() => db.run("INSERT INTO tokens(token_hash, user_id, client_id, scope, expires_at, refresh_hash, refresh_expires_at) SELECT 'old', user_id, client_id, scope, ?, 'r', ? FROM tokens LIMIT 1", [now - 2 * EXPIRED_KEPT_MS, now + 29 * 86_400_000]))
    const storage = new MemoryStorage()
    storage.snapshot = db.export()
    const again = await makeEngine({ storage })
    await again.login()
    expect(await count(again, "token_hash = 'old'")).toBe(0)
  })
})
