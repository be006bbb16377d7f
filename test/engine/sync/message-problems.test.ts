// What a pull, a push and "Test connection" store and answer (engine/sync/said.ts): each message
// with its problem, told as message_problem to a client that asks for problems (as the app does)
// and to no other client, whose answers stay as the spec writes them.
import { createServer } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { describeProblem, PROBLEM_WANTED_HEADER, type Problem } from '../../../engine/contract/problems'
import { toReply, type TestEngine } from '../../helpers/make-engine'
import { FAST, localWithProfile, startRemote, stopRemote, type Remote } from './remote'

/** A port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** `path` asked as the app asks (the problem header), and as another client asks. */
async function bothWays(t: TestEngine, method: 'GET' | 'POST', path: string, params: Record<string, string>) {
  const ask = async (headers: Record<string, string>) => {
    const query = { ...params, access_token: t.token }
    const r = method === 'GET' ? await t.engine.handle({ method, path, query, headers }) : await t.engine.handle({ method, path, query: { access_token: t.token }, body: new URLSearchParams(params).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } })
    return toReply(r)
  }
  return { app: await ask({ [PROBLEM_WANTED_HEADER]: '1' }), other: await ask({}) }
}

type Told = { message: string; message_problem?: Problem }

describe('stored messages and their problems', () => {
  let remote: Remote | undefined
  afterAll(async () => {
    if (remote) await stopRemote(remote)
  })

  it('tells a failed pull, push and connection test by problem only to a client that asks', async () => {
    const port = await closedPort()
    const { local, profileId } = await localWithProfile(`http://127.0.0.1:${port}`)
    try {
      const host = `127.0.0.1:${port}`
      const refused = `Nothing answers at ${host} (connection refused); check base_url and that the service is up.`
      const pull = await bothWays(local, 'POST', '/local/v1/sync/pull/start', { profile_id: profileId })
      expect(pull.app.body).toMatchObject({ state: 'failed', message: refused, message_problem: { key: 'remote.connRefused', args: { host } } })
      const status = await bothWays(local, 'GET', '/local/v1/sync/pull/status', { profile_id: profileId })
      expect(status.other.raw.body).not.toContain('_problem')
      expect(status.other.body.message).toBe(refused)
      expect(status.app.body.message_problem).toEqual({ key: 'remote.connRefused', args: { host } })

      const push = await bothWays(local, 'POST', '/local/v1/sync/push/start', { profile_id: profileId })
      const said = `${refused} Nothing to send. What was not sent stays in the outbox; push again to go on.`
      for (const r of [push.app, push.other]) expect(r.body).toMatchObject({ state: 'failed', message: said })
      expect(push.other.raw.body).not.toContain('_problem')
      const told = push.app.body as Told
      expect(told.message_problem?.key).toBe('push.stopped')
      expect(describeProblem(told.message_problem!)).toBe(said)

      const test = await bothWays(local, 'POST', '/local/v1/sync/profiles/test', { profile_id: profileId })
      expect(test.other.raw.body).not.toContain('_problem')
      expect(test.app.body).toMatchObject({ ok: false, message: refused, message_problem: { key: 'remote.connRefused', args: { host } } })
    } finally {
      await local.engine.close()
    }
  })

  it('keeps the problem of what a pull skipped with its stored row, and of each push result', async () => {
    remote = await startRemote(1)
    const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      if (url.pathname === '/cms/v1/extensiontype/list') return new Response('{"error":"not_found"}', { status: 404 })
      return globalThis.fetch(input, init)
    }) as typeof globalThis.fetch
    const { local, profileId } = await localWithProfile(remote.url, { ...FAST, fetch })
    try {
      expect((await local.post('/local/v1/sync/pull/start', { profile_id: profileId })).body.state).toBe('done')
      const pulls = await bothWays(local, 'GET', '/local/v1/sync/pulls/list', { profile_id: profileId })
      const skipped = 'extensiontype list skipped: The remote has no /cms/v1/extensiontype/list (HTTP 404): base_url does not point at this API.'
      expect((pulls.other.body as Told[])[0]).toEqual(expect.objectContaining({ message: skipped }))
      expect(pulls.other.raw.body).not.toContain('_problem')
      const row = (pulls.app.body as Told[])[0]!
      expect(row.message_problem).toEqual({ key: 'pull.listSkipped', args: { records: 'extensiontype', reason: { key: 'remote.noPath', args: { path: '/cms/v1/extensiontype/list' } } } })

      // a pushed update of a record the remote no longer has
      const campaign = remote.campaignIds[0]!
      expect((await local.post('/local/v1/sync/outbox/add', { profile_id: profileId, kind: 'campaign', op: 'update', remote_id: campaign, params: 'description=new' })).status).toBe(200)
      expect((await remote.t.post('/cms/v1/campaigns/delete', { campaign_id: campaign })).status).toBe(200)
      const push = await bothWays(local, 'POST', '/local/v1/sync/push/start', { profile_id: profileId })
      const gone = `The remote no longer has campaign ${campaign}.`
      expect(push.app.body).toMatchObject({ state: 'done', message: '1 failed.', message_problem: { key: 'push.done', args: { outcomes: { key: 'push.failed', args: { n: 1 } } } } })
      expect((push.app.body as { results: Told[] }).results[0]).toMatchObject({ message: gone, message_problem: { key: 'push.gone', args: { kind: 'campaign', id: campaign } } })
      const outbox = await bothWays(local, 'GET', '/local/v1/sync/outbox/list', { profile_id: profileId })
      expect((outbox.app.body as Told[])[0]).toMatchObject({ message: gone, message_problem: { key: 'push.gone' } })
      expect(outbox.other.raw.body).not.toContain('_problem')
      expect((outbox.other.body as Told[])[0]!.message).toBe(gone)
    } finally {
      await local.engine.close()
    }
  })
})
