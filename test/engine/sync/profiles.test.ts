// sync.profiles_*: remote profiles; secrets stored encrypted outside the database, never answered
import { describe, expect, it } from 'vitest'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

const FIELDS = { name: 'Miaozhen', base_url: 'https://api.cn.miaozhen.com/', username: 'john', password: 'p@ss w0rd!', client_id: 'acct', client_secret: 's3cr3t-client' }

async function create(t: TestEngine, extra: Record<string, string> = {}) {
  return t.post('/local/v1/sync/profiles/create', { ...FIELDS, ...extra })
}

const dbText = (t: TestEngine) => Buffer.concat([...(t.storage.snapshot ? [t.storage.snapshot] : []), ...[...t.storage.segments.values()].flat()]).toString('latin1')

describe('sync.profiles_create', () => {
  it('stores the profile; auth_url defaults to the origin of base_url; secrets only as has_*', async () => {
    const t = await makeEngine()
    const r = await create(t)
    expect(r.status, r.raw.body).toBe(200)
    expect(r.body).toEqual({
      profile_id: '1', name: 'Miaozhen', base_url: 'https://api.cn.miaozhen.com', auth_url: 'https://api.cn.miaozhen.com', username: 'john', client_id: 'acct',
      has_password: true, has_client_secret: true, created_at: '2025-01-10T04:00:00.000Z', updated_at: '2025-01-10T04:00:00.000Z', last_pull_at: '',
    })
    const list = await t.get('/local/v1/sync/profiles/list')
    expect(list.body).toEqual([r.body])
    await t.engine.flush()
    expect(dbText(t)).not.toContain(FIELDS.password)
    expect(dbText(t)).not.toContain(FIELDS.client_secret)
    expect(dbText(t)).toContain('api.cn.miaozhen.com')
  })

  it('keeps a path in base_url and takes a separate auth_url', async () => {
    const t = await makeEngine()
    const r = await create(t, { base_url: 'https://gw.example.com/admonitor-api/', auth_url: 'https://login.example.com' })
    expect([r.body.base_url, r.body.auth_url]).toEqual(['https://gw.example.com/admonitor-api', 'https://login.example.com'])
  })

  it('refuses a duplicate name, a URL that is not http(s), credentials, a query or a fragment in the URL and an empty secret', async () => {
    const t = await makeEngine()
    await create(t)
    const cases: [Record<string, string>, string][] = [
      [{}, "The 'name' is already the name of profile 1."],
      [{ name: 'b', base_url: 'ftp://x' }, "'base_url' must begin with http:// or https://"],
      [{ name: 'c', base_url: 'https://u:p@x.com' }, "'base_url' must not carry a user name or password"],
      [{ name: 'e', base_url: 'https://x.com/api?x=1' }, "The 'base_url' must not carry a query or a fragment, got 'https://x.com/api?x=1'; write the service's address only."],
      [{ name: 'f', base_url: 'https://x.com/api#top' }, "'base_url' must not carry a query or a fragment"],
      [{ name: 'd', password: '' }, "The 'password' should not be empty."],
    ]
    for (const [extra, message] of cases) {
      const r = await create(t, extra)
      expect(r.status).toBe(400)
      expect(r.body.error_description).toContain(message)
    }
    expect((await t.get('/local/v1/sync/profiles/list')).body).toHaveLength(1)
  })
})

describe('sync.profiles_update', () => {
  it('changes the given fields, keeps the secrets not sent, and refuses a name in use', async () => {
    const t = await makeEngine()
    const id = (await create(t)).body.profile_id
    await create(t, { name: 'Other' })
    t.clock.advance(60_000)
    const r = await t.post('/local/v1/sync/profiles/update', { profile_id: id, username: 'jane', password: 'new password' })
    expect(r.body).toMatchObject({ username: 'jane', client_id: 'acct', has_password: true, has_client_secret: true, updated_at: '2025-01-10T04:01:00.000Z' })
    const secrets = await t.engine.handle({ method: 'GET', path: '/local/v1/sync/profiles/list', query: { access_token: t.token } })
    expect(secrets.body).not.toContain('new password')
    const dup = await t.post('/local/v1/sync/profiles/update', { profile_id: id, name: 'Other' })
    expect(dup.body.error_description).toBe("The 'name' is already the name of profile 2.")
  })
})

describe('sync.profiles_update base_url', () => {
  it('moves a default auth_url along with base_url, and leaves a chosen one alone', async () => {
    const t = await makeEngine()
    const a = (await create(t)).body.profile_id
    const b = (await create(t, { name: 'B', auth_url: 'https://login.example.com' })).body.profile_id
    const moved = await t.post('/local/v1/sync/profiles/update', { profile_id: a, base_url: 'https://api.other.example/v1/' })
    expect([moved.body.base_url, moved.body.auth_url]).toEqual(['https://api.other.example/v1', 'https://api.other.example'])
    const kept = await t.post('/local/v1/sync/profiles/update', { profile_id: b, base_url: 'https://api.other.example' })
    expect(kept.body.auth_url).toBe('https://login.example.com')
  })
})

describe('sync.profiles_delete', () => {
  it('deletes the profile; its id then names nothing', async () => {
    const t = await makeEngine()
    const id = (await create(t)).body.profile_id
    expect((await t.post('/local/v1/sync/profiles/delete', { profile_id: id })).body).toEqual({ profile_id: id })
    expect((await t.get('/local/v1/sync/profiles/list')).body).toEqual([])
    const again = await t.post('/local/v1/sync/profiles/delete', { profile_id: id })
    expect([again.status, again.body.error_description]).toEqual([400, `The 'profile_id' names no remote profile (${id}).`])
  })
})

describe('sync.pull_status', () => {
  it('is idle for a profile never pulled', async () => {
    const t = await makeEngine()
    const id = (await create(t)).body.profile_id
    expect((await t.get('/local/v1/sync/pull/status', { profile_id: id })).body).toMatchObject({ pull_id: '', state: 'idle', counts: [] })
    expect((await t.get('/local/v1/sync/pulls/list', { profile_id: id })).body).toEqual([])
  })
})
