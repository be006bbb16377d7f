// sync.profiles_test: "Test connection" against real sockets, each failure named in plain words
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCOUNT, makeEngine, type TestEngine } from '../../helpers/make-engine'
import { startRemote, stopRemote, type Remote } from './remote'

let remote: Remote
let local: TestEngine
const servers: Server[] = []

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const s = createServer(handler)
  servers.push(s)
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return (s.address() as AddressInfo).port
}

async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const port = (s.address() as AddressInfo).port
  await new Promise((r) => s.close(r))
  return port
}

let n = 0
async function testWith(fields: Record<string, string>, on = local) {
  const created = await on.post('/local/v1/sync/profiles/create', { name: `p${++n}`, ...ACCOUNT, ...fields })
  expect(created.status, created.raw.body).toBe(200)
  const r = await on.post('/local/v1/sync/profiles/test', { profile_id: created.body.profile_id })
  expect(r.status).toBe(200)
  return r.body as { ok: boolean; problem: string; message: string; scope: string }
}

beforeAll(async () => {
  remote = await startRemote(1)
  local = await makeEngine()
})

afterAll(async () => {
  await stopRemote(remote)
  for (const s of servers) s.closeAllConnections?.(), s.close()
})

describe('sync.profiles_test', () => {
  it('logs in and reads the campaign list when everything is right', async () => {
    const r = await testWith({ base_url: remote.url })
    expect(r).toMatchObject({ ok: true, problem: '', scope: 'cms admonitor local' })
    expect(r.message).toMatch(/^Logged in as tester at 127\.0\.0\.1:\d+/)
  })

  it('says the address is unreachable when nothing listens there', async () => {
    const r = await testWith({ base_url: `http://127.0.0.1:${await closedPort()}` })
    expect(r).toMatchObject({ ok: false, problem: 'unreachable' })
    expect(r.message).toMatch(/Nothing answers at 127\.0\.0\.1:\d+ \(connection refused\)/)
  })

  it('says the name cannot be found (DNS)', async () => {
    const r = await testWith({ base_url: 'http://no-such-host.invalid' })
    expect(r).toMatchObject({ ok: false, problem: 'unreachable' })
    expect(r.message).toMatch(/The address no-such-host\.invalid cannot be found \(DNS/)
  })

  it('names a TLS failure (https to a server that does not speak it)', async () => {
    const port = await listen((_req, res) => res.end('plain'))
    const r = await testWith({ base_url: `https://127.0.0.1:${port}` })
    expect(r).toMatchObject({ ok: false, problem: 'tls' })
    expect(r.message).toMatch(/secure connection to 127\.0\.0\.1:\d+ failed \(TLS/)
  })

  it('names a timeout when the server never answers', async () => {
    const port = await listen(() => undefined)
    const impatient = await makeEngine({ engine: { sync: { timeoutMs: 300 } } })
    const r = await testWith({ base_url: `http://127.0.0.1:${port}` }, impatient)
    expect(r).toMatchObject({ ok: false, problem: 'timeout' })
    expect(r.message).toMatch(/did not answer within 300 ms \(\/oauth\/token\)/)
  })

  it('names bad credentials and a bad client', async () => {
    expect(await testWith({ base_url: remote.url, password: 'wrong' })).toMatchObject({ ok: false, problem: 'bad_credentials', message: 'The username or password was refused (invalid_grant).' })
    expect(await testWith({ base_url: remote.url, client_secret: 'wrong' })).toMatchObject({ ok: false, problem: 'bad_client', message: 'The client id or client secret was refused (invalid_client).' })
  })

  it('says "not this API" for a web site, and for an API without the campaign paths', async () => {
    const site = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>'))
    expect(await testWith({ base_url: `http://127.0.0.1:${site}` })).toMatchObject({ ok: false, problem: 'not_this_api' })
    const wrongBase = await testWith({ base_url: `${remote.url}/api`, auth_url: remote.url })
    expect(wrongBase).toMatchObject({ ok: false, problem: 'not_this_api' })
    expect(wrongBase.message).toMatch(/no \/cms\/v1\/campaigns\/list/)
  })
})
