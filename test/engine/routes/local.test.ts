// Local namespace: status, the account and API client (show, rotate), the request log (docs/app.md)
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../../engine/contract/endpoints'
import { validate } from '../../../engine/contract/schema'
import { createEngine } from '../../../engine/index'
import { memory } from '../../../engine/storage/adapters/memory'
import { ACCOUNT, FakeClock, makeEngine, seededRandom } from '../../helpers/make-engine'

describe('local.status', () => {
  it('names the address the engine is served at', async () => {
    const t = await makeEngine({ engine: { publicUrl: 'http://127.0.0.1:9999' } })
    const r = await t.get('/local/v1/status')
    expect(r.status).toBe(200)
    expect(r.body.base_url).toBe('http://127.0.0.1:9999')
  })
})

describe('account.show', () => {
  it('hands the generated first-run secrets to the first caller only; stored secrets never', async () => {
    const engine = await createEngine({ storage: memory(), clock: new FakeClock('2025-01-10'), random: seededRandom(), log: { error: () => undefined, info: () => undefined } })
    const token = await engine.localToken()
    const show = async () => JSON.parse((await engine.handle({ method: 'GET', path: '/local/v1/account/show', query: { access_token: token } })).body)
    const first = await show()
    expect(first).toMatchObject({ username: engine.firstRun!.username, client_id: engine.firstRun!.client_id, first_run_password: engine.firstRun!.password, first_run_client_secret: engine.firstRun!.client_secret })
    const again = await show()
    expect(again.first_run_password).toBe('')
    expect(again.first_run_client_secret).toBe('')
    expect(JSON.stringify(again)).not.toContain(engine.firstRun!.password)
    await engine.close()
  })

  it('does not hand out secrets the caller preset', async () => {
    const t = await makeEngine()
    const r = await t.get('/local/v1/account/show')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ username: ACCOUNT.username, client_id: ACCOUNT.client_id, first_run_password: '', first_run_client_secret: '' })
  })

  it('needs a token', async () => {
    const t = await makeEngine()
    expect((await t.get('/local/v1/account/show', {}, null)).body.error).toBe('token_required')
  })
})

describe('account.rotate', () => {
  it('replaces the password: the new one logs in, the old one no longer does', async () => {
    const t = await makeEngine()
    t.clock.advance(60_000)
    const r = await t.post('/local/v1/account/rotate', { what: 'password' })
    expect(r.status).toBe(200)
    expect(r.body.password).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(r.body.client_secret).toBe('')
    const login = (password: string, secret = ACCOUNT.client_secret) =>
      t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, password, client_secret: secret }, null)
    expect((await login(ACCOUNT.password)).body.error).toBe('invalid_grant')
    expect((await login(r.body.password)).status).toBe(200)
    const shown = await t.get('/local/v1/account/show')
    expect(shown.body.password_rotated_at).not.toBe(shown.body.created_at)
    expect(shown.body.client_secret_rotated_at).toBe(shown.body.created_at)
  })

  it("replaces both secrets at once; every other token issued is revoked, the caller's stays valid", async () => {
    const t = await makeEngine()
    const other = await t.login()
    expect((await t.get('/local/v1/status', {}, other)).status).toBe(200)
    const r = await t.post('/local/v1/account/rotate', { what: 'both' })
    expect(r.body.password).not.toBe('')
    expect(r.body.client_secret).not.toBe('')
    expect((await t.get('/local/v1/status')).status).toBe(200)
    const revoked = await t.get('/local/v1/status', {}, other)
    expect([revoked.status, revoked.body.error]).toEqual([400, 'invalid_token'])
    const ok = await t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, password: r.body.password, client_secret: r.body.client_secret }, null)
    expect(ok.status).toBe(200)
    const old = await t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, password: r.body.password }, null)
    expect(old.body.error).toBe('invalid_client')
  })

  it('asks the current password through the HTTP door, slowing wrong ones as failed logins are but apart from sign-ins; IPC and in-process callers are not asked', async () => {
    const t = await makeEngine()
    const viaHttp = async (form: Record<string, string>) => {
      const body = new URLSearchParams({ ...form, access_token: t.token }).toString()
      const r = await t.engine.handle({ method: 'POST', path: '/local/v1/account/rotate', query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, remoteAddress: '127.0.0.1', door: 'http' })
      return { status: r.status, body: JSON.parse(r.body) }
    }
    const missing = await viaHttp({ what: 'client_secret' })
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request'])
    expect(missing.body.error_description).toMatch(/^The 'password' is required: the account's current password/)
    const wrong = await viaHttp({ what: 'both', password: 'not-it' })
    expect([wrong.status, wrong.body.error_description]).toEqual([400, "The 'password' is not the account's current password."])
    // nothing was replaced: the old secrets still log in
    expect((await t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT }, null)).status).toBe(200)
    // wrong passwords slow the next attempts as failed logins do: after three, each waits
    await viaHttp({ what: 'both', password: 'not-it-either' })
    await viaHttp({ what: 'both', password: 'still-not' })
    const before = t.clock.slept.length
    expect((await viaHttp({ what: 'both', password: 'and-again' })).status).toBe(400)
    expect(t.clock.slept.slice(before)).toEqual([250])
    // the owner's sign-in is not slowed by them
    const signIn = t.clock.slept.length
    expect((await t.post('/oauth/token', { grant_type: 'password', ...ACCOUNT }, null)).status).toBe(200)
    expect(t.clock.slept.length).toBe(signIn)
    t.clock.advance(16 * 60_000)
    const right = await viaHttp({ what: 'client_secret', password: ACCOUNT.password })
    expect(right.status).toBe(200)
    expect(right.body.client_secret).not.toBe('')
    // the desktop app's window (IPC) is the owner's already
    const ipc = await t.engine.handle({ method: 'POST', path: '/local/v1/account/rotate', query: {}, body: new URLSearchParams({ what: 'client_secret', access_token: t.token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, door: 'ipc' })
    expect(ipc.status).toBe(200)
  })

  it('signs out: the token the request carries stops working, the others do not', async () => {
    const t = await makeEngine()
    const other = await t.login()
    const r = await t.post('/local/v1/account/sign_out', {})
    expect([r.status, r.body]).toEqual([200, { revoked: 1 }])
    expect(validate(endpoints['account.sign_out'].response, r.body)).toEqual([])
    const after = await t.get('/local/v1/status')
    expect([after.status, after.body.error]).toEqual([400, 'invalid_token'])
    expect((await t.get('/local/v1/status', {}, other)).status).toBe(200)
  })

  it('refuses a missing or unknown choice, naming the parameter', async () => {
    const t = await makeEngine()
    for (const form of [{}, { what: 'token' }] as Record<string, string>[]) {
      const r = await t.post('/local/v1/account/rotate', form)
      expect(r.status).toBe(400)
      expect(r.body.error_description).toContain("'what'")
    }
  })
})

describe('requests.list', () => {
  it('lists answered requests oldest first, with path (no query), status and door; not itself', async () => {
    const t = await makeEngine()
    await t.get('/cms/v1/campaigns/list')
    await t.get('/cms/v1/campaigns/show', { campaign_id: 424242 })
    const r = await t.get('/local/v1/requests/list')
    expect(r.status).toBe(200)
    const tail = r.body.slice(-2)
    expect(tail.map((e: { path: string }) => e.path)).toEqual(['/cms/v1/campaigns/list', '/cms/v1/campaigns/show'])
    expect(tail.map((e: { status: number }) => e.status)).toEqual([200, 400])
    expect(tail[0]).toMatchObject({ method: 'GET', door: 'internal' })
    expect(JSON.stringify(r.body)).not.toContain(t.token)
    expect(r.body.some((e: { path: string }) => e.path === '/local/v1/requests/list')).toBe(false)
  })

  it('answers only newer entries after a seq, and at most limit (the newest)', async () => {
    const t = await makeEngine()
    for (let i = 0; i < 5; i++) await t.get('/local/v1/status')
    const all = (await t.get('/local/v1/requests/list')).body as { seq: number }[]
    const last = all[all.length - 1]!.seq
    expect((await t.get('/local/v1/requests/list', { after: last })).body).toEqual([])
    const two = (await t.get('/local/v1/requests/list', { limit: 2 })).body as { seq: number }[]
    expect(two.map((e) => e.seq)).toEqual([last - 1, last])
  })

  it('marks the door a request came through', async () => {
    const t = await makeEngine()
    await t.engine.handle({ method: 'GET', path: '/local/v1/status', query: { access_token: t.token }, door: 'ipc' })
    await t.engine.handle({ method: 'GET', path: '/local/v1/status', query: { access_token: t.token }, remoteAddress: '127.0.0.1' })
    const r = await t.get('/local/v1/requests/list', { limit: 2 })
    expect(r.body.map((e: { door: string }) => e.door)).toEqual(['ipc', 'http'])
  })
})
