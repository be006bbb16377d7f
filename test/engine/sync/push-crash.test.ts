// Issue 25 item 5: kill -9 during a push. A child process (push-crash-child.ts) pushes a draft to
// the vendor stand-in, which does the campaign create and holds its answer; the child is
// SIGKILLed then. Reopened on the same data directory, the outbox says the create's outcome is
// unknown (`sending`), and the next push finds the campaign instead of making it again.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../engine/index'
import { fileStorage } from '../../../engine/storage/adapters/file'
import { ACCOUNT, DATES, FakeClock, toReply } from '../../helpers/make-engine'
import { FAST } from './remote'
import { startVendor, type VendorRemote } from './vendor-remote'

const here = dirname(fileURLToPath(import.meta.url))
const root = mkdtempSync(join(tmpdir(), 'admonitor-push-kill-'))
let vendor: VendorRemote | undefined
afterAll(async () => {
  await vendor?.close()
  rmSync(root, { recursive: true, force: true })
})

/** Runs the child until the remote has done the campaign create, then SIGKILLs it; its output lines. */
function pushUntilCreated(dir: string, url: string, created: () => boolean): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'push-crash-child.ts'), dir, url], { cwd: resolve(here, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: string[] = []
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(l))
  const watch = setInterval(() => created() && child.kill('SIGKILL'), 5)
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000) // a hung child must not hang the suite
  return new Promise((done) => child.on('close', (_code, signal) => {
    clearInterval(watch)
    clearTimeout(limit)
    done({ lines, signal })
  }))
}

describe('sync.push_start killed with -9', () => {
  it('leaves the create it cut off as sending; after a restart the next push reconciles it: no duplicate at the remote', async () => {
    vendor = await startVendor()
    const v = vendor
    v.fault = (method, path) => (method === 'POST' && path === '/cms/v1/campaigns/create' ? 'hold' : 'none')
    const dir = join(root, 'data')
    const run = await pushUntilCreated(dir, v.url, () => v.data.campaigns.some((c) => c.f.campaign_name === 'Killed draft'))
    expect(run.signal, run.lines.join('\n')).toBe('SIGKILL')
    expect(run.lines.some((l) => l.startsWith('QUEUED '))).toBe(true)
    expect(run.lines.filter((l) => l.startsWith('PUSHED') || l.startsWith('ERR'))).toEqual([])
    v.fault = () => 'none'

    const engine = await createEngine({ storage: fileStorage(dir), clock: new FakeClock(DATES.today), account: ACCOUNT, sync: FAST, log: { error: () => undefined, info: () => undefined } })
    const call = async (method: 'GET' | 'POST', path: string, params: Record<string, string>) => {
      const fields = { ...params, access_token: await engine.localToken() }
      return toReply(await engine.handle(method === 'GET' ? { method, path, query: fields } : { method, path, query: {}, body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
    }
    const profileId = String(((await call('GET', '/local/v1/sync/profiles/list', {})).body as { profile_id: string }[])[0]!.profile_id)
    const ops = (await call('GET', '/local/v1/sync/outbox/list', { profile_id: profileId })).body as { kind: string; state: string }[]
    expect(ops.map((o) => [o.kind, o.state])).toEqual([['campaign', 'sending'], ['spot', 'pending'], ['target', 'pending']])
    const pushes = (await call('GET', '/local/v1/sync/pushes/list', { profile_id: profileId })).body as { state: string }[]
    expect(pushes.map((p) => p.state)).toEqual(['interrupted'])
    const r = await call('POST', '/local/v1/sync/push/start', { profile_id: profileId })
    expect(r.body.results.map((x: { outcome: string }) => x.outcome)).toEqual(['reconciled', 'created', 'created'])
    expect((await call('GET', '/local/v1/sync/outbox/list', { profile_id: profileId })).body).toEqual([])
    const made = v.data.campaigns.filter((c) => c.f.campaign_name === 'Killed draft')
    expect(made).toHaveLength(1)
    expect(made[0]!.spots.map((s) => s.f.guid)).toEqual(['g-kill'])
    expect(made[0]!.targets.map((t) => t.target_name)).toEqual(['Women'])
    await engine.close()
  }, 90_000)
})
