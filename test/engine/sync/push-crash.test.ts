// kill -9 during a push. A child process (push-crash-child.ts) pushes a draft to
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
  type Made = VendorRemote['data']['campaigns'][number] | undefined
  const killed: [string, string, (c: Made) => boolean, string[][]][] = [
    ['the campaign create', '/cms/v1/campaigns/create', (c) => c !== undefined, [['campaign', 'sending'], ['spot', 'pending'], ['target', 'pending']]],
    ['the spot create', '/cms/v1/campaigns/create_spot', (c) => (c?.spots.length ?? 0) > 0, [['spot', 'sending'], ['target', 'pending']]],
    ['the target create', '/cms/v1/campaigns/publish_target', (c) => (c?.targets.length ?? 0) > 0, [['target', 'sending']]],
  ]
  it.each(killed)('leaves %s it cut off as sending; after a restart the next push reconciles it: no duplicate at the remote', async (_, path, arrived, left) => {
    vendor = await startVendor()
    const v = vendor
    v.fault = (method, p) => (method === 'POST' && p === path ? 'hold' : 'none')
    const dir = join(root, path.split('/').pop()!)
    const made = () => v.data.campaigns.find((c) => c.f.campaign_name === 'Killed draft')
    const run = await pushUntilCreated(dir, v.url, () => arrived(made()))
    expect(run.signal, run.lines.join('\n')).toBe('SIGKILL')
    expect(run.lines.some((l) => l.startsWith('QUEUED '))).toBe(true)
    expect(run.lines.filter((l) => l.startsWith('PUSHED') || l.startsWith('ERR'))).toEqual([])
    v.fault = () => 'none'

    const engine = await createEngine({ storage: fileStorage(dir), clock: new FakeClock(DATES.today), account: ACCOUNT, sync: FAST, log: { error: () => undefined, info: () => undefined } })
    const call = async (method: 'GET' | 'POST', p: string, params: Record<string, string>) => {
      const fields = { ...params, access_token: await engine.localToken() }
      return toReply(await engine.handle(method === 'GET' ? { method, path: p, query: fields } : { method, path: p, query: {}, body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
    }
    const profileId = String(((await call('GET', '/local/v1/sync/profiles/list', {})).body as { profile_id: string }[])[0]!.profile_id)
    const ops = (await call('GET', '/local/v1/sync/outbox/list', { profile_id: profileId })).body as { kind: string; state: string }[]
    expect(ops.map((o) => [o.kind, o.state])).toEqual(left)
    const pushes = (await call('GET', '/local/v1/sync/pushes/list', { profile_id: profileId })).body as { state: string }[]
    expect(pushes.map((x) => x.state)).toEqual(['interrupted'])
    const r = await call('POST', '/local/v1/sync/push/start', { profile_id: profileId })
    expect(r.body.results.map((x: { outcome: string }) => x.outcome)).toEqual(['reconciled', ...left.slice(1).map(() => 'created')])
    expect((await call('GET', '/local/v1/sync/outbox/list', { profile_id: profileId })).body).toEqual([])
    expect(v.data.campaigns.filter((c) => c.f.campaign_name === 'Killed draft')).toHaveLength(1)
    expect(made()!.spots.map((x) => x.f.guid)).toEqual(['g-kill'])
    expect(made()!.targets.map((x) => x.target_name)).toEqual(['Women'])
    await engine.close()
    await v.close()
    vendor = undefined
  }, 90_000)
})
