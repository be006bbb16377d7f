// bin/sync.ts: `admonitor sync profile add|list|test|remove`, `sync pull`, the outbox and `sync push` as real processes
// on a real data directory, against a second engine serving as the remote (docs/sync.md)
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCOUNT } from '../helpers/make-engine'
import { startRemote, stopRemote, type Remote } from '../engine/sync/remote'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let remote: Remote
let dir: string

/** How long a command that should exit at once may take on a loaded machine before it is taken to wait for something. */
const EXIT_BOUND_MS = 60_000

/**
 * Runs the CLI (asynchronously: the remote answers from this process). `input` null: stdin stays
 * open (like `sleep 25 | admonitor ...`); a command still running after EXIT_BOUND_MS is ended,
 * `hung` then saying so.
 */
function cli(args: string[], env: Record<string, string> = {}, input: string | null = ''): Promise<{ status: number | null; stdout: string; stderr: string; hung: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/admonitor.ts', ...args, '--data-dir', join(dir, 'data')], {
      cwd: ROOT, env: { ...process.env, ADMONITOR_KEY_FILE: join(dir, 'keys', 'remote.key'), ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    let hung = false
    const bound = setTimeout(() => {
      hung = true
      child.kill()
    }, EXIT_BOUND_MS)
    child.on('close', (status) => {
      clearTimeout(bound)
      resolve({ status, stdout, stderr, hung })
    })
    if (input === null) return
    child.stdin.end(input)
  })
}

const files = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : [join(d, n)]))

beforeAll(async () => {
  remote = await startRemote(2)
  dir = mkdtempSync(join(tmpdir(), 'admonitor-sync-cli-'))
})
afterAll(async () => {
  await stopRemote(remote)
  rmSync(dir, { recursive: true, force: true })
})

describe('admonitor sync', () => {
  it('adds profiles (secrets from the environment or stdin), lists, tests, pulls and removes them', async () => {
    const add = ['sync', 'profile', 'add', '--base-url', remote.url, '--username', ACCOUNT.username, '--client-id', ACCOUNT.client_id]
    const a = await cli([...add, '--name', 'main'], { ADMONITOR_REMOTE_PASSWORD: ACCOUNT.password, ADMONITOR_REMOTE_CLIENT_SECRET: ACCOUNT.client_secret })
    expect(a.status, a.stderr).toBe(0)
    expect(a.stdout).toContain(`profile 1 'main': ${remote.url} (token endpoint ${remote.url}/oauth/token)`)
    const b = await cli([...add, '--name', 'typo'], {}, `${ACCOUNT.password}\nnot-the-secret\n`)
    expect(b.status, b.stderr).toBe(0)

    const list = await cli(['sync', 'profile', 'list'])
    expect(list.stdout).toMatch(/^main\t.*secrets stored\tlast pull: never$/m)

    const ok = await cli(['sync', 'profile', 'test', 'main'])
    expect([ok.status, ok.stdout]).toEqual([0, expect.stringMatching(/^ok \(\d+ ms\): Logged in as tester/)])
    const bad = await cli(['sync', 'profile', 'test', 'typo'])
    expect([bad.status, bad.stderr.trim()]).toEqual([1, 'failed: bad_client: The client id or client secret was refused (invalid_client).'])

    const pull = await cli(['sync', 'pull', '--profile', 'main'])
    expect(pull.status, pull.stderr).toBe(0)
    expect(pull.stdout).toMatch(/^ {2}campaign {7}\+2 ~0 -0 =0$/m)
    expect(pull.stdout).toContain('pull done: 2/2 campaigns')

    const snap = await cli(['sync', 'snapshot', '--profile', 'main', '--report', 'basic_show', '--params', `campaign_id=${remote.campaignIds[0]}&date=2025-01-11`, '--to', '2025-01-12'])
    expect(snap.status, snap.stderr).toBe(0)
    expect(snap.stdout).toMatch(/^snapshot 1\t2025-01-11\tV1\.0\tprogress .*\t0 items\tfirst$/m)
    expect(snap.stdout.trim().split('\n')).toHaveLength(2)

    const removed = await cli(['sync', 'profile', 'remove', 'typo'])
    expect(removed.stdout).toContain("removed profile 'typo'")
    const unknown = await cli(['sync', 'profile', 'test', 'typo'])
    expect([unknown.status, unknown.stderr.trim()]).toEqual([2, "admonitor: no remote profile is named 'typo' (admonitor sync profile list)"])

    for (const f of files(join(dir, 'data'))) {
      const bytes = readFileSync(f)
      for (const s of [ACCOUNT.password, ACCOUNT.client_secret]) expect(bytes.includes(Buffer.from(s)), `${s} in ${f}`).toBe(false)
    }
    if (process.platform !== 'win32') expect(statSync(join(dir, 'keys', 'remote.key')).mode & 0o777).toBe(0o600)
  })

  it('adds a profile with both secrets in the environment and exits while stdin stays open', async () => {
    const env = { ADMONITOR_REMOTE_PASSWORD: ACCOUNT.password, ADMONITOR_REMOTE_CLIENT_SECRET: ACCOUNT.client_secret }
    const a = await cli(['sync', 'profile', 'add', '--name', 'open-stdin', '--base-url', remote.url, '--username', ACCOUNT.username, '--client-id', ACCOUNT.client_id], env, null)
    // its own exit, not the bound's: a command reading the open stdin would never end by itself
    expect(a.hung, a.stderr).toBe(false)
    expect(a.status, a.stderr).toBe(0)
    expect(a.stdout).toContain("'open-stdin'")
  }, EXIT_BOUND_MS + 30_000)

  it('queues an operation, lists the outbox, pushes it and reports per operation', async () => {
    const env = { ADMONITOR_REMOTE_PASSWORD: ACCOUNT.password, ADMONITOR_REMOTE_CLIENT_SECRET: ACCOUNT.client_secret }
    const a = await cli(['sync', 'profile', 'add', '--name', 'pushy', '--base-url', remote.url, '--username', ACCOUNT.username, '--client-id', ACCOUNT.client_id], env)
    expect(a.status, a.stderr).toBe(0)
    const params = 'campaign_name=From the CLI&start_date=2027-01-01&end_date=2027-01-31'
    const add = await cli(['sync', 'outbox', 'add', '--profile', 'pushy', '--kind', 'campaign', '--op', 'create', '--params', params])
    expect(add.status, add.stderr).toBe(0)
    const list = await cli(['sync', 'outbox', 'list', '--profile', 'pushy'])
    expect(list.stdout).toMatch(/^\d+\tpending\tcreate campaign\tFrom the CLI$/m)
    const push = await cli(['sync', 'push', '--profile', 'pushy'])
    expect(push.status, push.stderr).toBe(0)
    expect(push.stdout).toMatch(/^ {2}\d+\tcreated\tcreate campaign -> remote \d+\tFrom the CLI$/m)
    expect(push.stdout).toContain('push done: 1 created.')
    expect((await remote.t.get('/cms/v1/campaigns/list', { campaign_name: 'From the CLI' })).body).toHaveLength(1)
    expect((await cli(['sync', 'outbox', 'list', '--profile', 'pushy'])).stdout.trim()).toBe('the outbox is empty')
    const mode = await cli(['sync', 'mode', 'set', 'reports', 'offline', '--profile', 'pushy'])
    expect(mode.status, mode.stderr).toBe(0)
    expect(mode.stdout).toMatch(/^reports {4}offline {2}pushy \(0 recorded\)$/m)
    expect(mode.stdout).toMatch(/^campaigns {2}local$/m)
  })

  it("shows what a push would send, and the remote's records to choose for a name that matches none; takes the choice", async () => {
    const params = 'campaign_name=Chosen in the CLI&start_date=2027-01-01&end_date=2027-01-31&advertiser_name=Nowhere Inc'
    const add = await cli(['sync', 'outbox', 'add', '--profile', 'pushy', '--kind', 'campaign', '--op', 'create', '--params', params])
    expect(add.status, add.stderr).toBe(0)
    const opId = /^(\d+)\t/.exec(add.stdout)![1]!
    const push = await cli(['sync', 'push', '--profile', 'pushy'])
    expect(push.status).toBe(1)
    expect(push.stdout).toMatch(new RegExp(`^ {2}${opId}\tchoose\tcreate campaign\tChosen in the CLI\tChoose the remote's record: no advertiser at the remote is named exactly 'Nowhere Inc'`, 'm'))
    const show = await cli(['sync', 'outbox', 'show', opId])
    expect(show.stdout).toContain("  choose advertiser_id for 'Nowhere Inc' (no_match):")
    expect(show.stdout).toMatch(/^ {4}advertiser_id=1\t宝洁 Procter & Gamble$/m)
    expect(show.stdout).toMatch(/^ {4}advertiser_id=\? \(Nowhere Inc\)$/m)
    // typed wrongly: a space for the '=', the member given twice; the operation still waits
    for (const [args, said] of [
      [['advertiser_id', '1'], "advertiser_id has no '=' (advertiser_id=REMOTE_ID chooses a record, advertiser_id= chooses none)"],
      [['advertiser_id=1', 'advertiser_id='], 'advertiser_id is given twice'],
    ] as const) {
      const typo = await cli(['sync', 'outbox', 'choose', opId, ...args])
      expect(typo.status, typo.stdout).not.toBe(0)
      expect(typo.stderr).toContain(said)
    }
    expect((await cli(['sync', 'outbox', 'show', opId])).stdout).toContain("  choose advertiser_id for 'Nowhere Inc' (no_match):")
    const chosen = await cli(['sync', 'outbox', 'choose', opId, 'advertiser_id=1'])
    expect(chosen.status, chosen.stderr).toBe(0)
    expect(chosen.stdout).toMatch(/^ {4}advertiser_id=1 \(宝洁 Procter & Gamble\)$/m)
    expect((await cli(['sync', 'push', '--profile', 'pushy'])).stdout).toContain('push done: 1 created.')
    const [made] = (await remote.t.get('/cms/v1/campaigns/list', { campaign_name: 'Chosen in the CLI' })).body as { advertiser_name: string }[]
    expect(made!.advertiser_name).toBe('宝洁 Procter & Gamble')
  })
})
