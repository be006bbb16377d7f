// The command line as a shell user meets it (README, "Command line"): exit codes, failures on
// stderr with their reason, an import's progress in a log and on a terminal, a flag named as a
// flag, and Ctrl-C during an import. Real processes on a real data directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { campaignWithSpot } from '../helpers/cli-data'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const base = mkdtempSync(join(tmpdir(), 'admonitor-shell-'))
const dataDir = join(base, 'data')
const ENV = {
  ...process.env,
  ADMONITOR_USERNAME: 'sh', ADMONITOR_PASSWORD: 'sh-Password-1', ADMONITOR_CLIENT_ID: 'sh-client', ADMONITOR_CLIENT_SECRET: 'sh-Secret-12',
  ADMONITOR_KEY_FILE: join(base, 'remote.key'),
}
const CLI = [process.execPath, '--import', 'tsx', 'bin/admonitor.ts']
let campaign = ''
let spot = ''

afterAll(() => rmSync(base, { recursive: true, force: true }))

beforeAll(async () => {
  ;({ campaign, spot } = await campaignWithSpot(dataDir, 'Shell'))
}, 60_000)

/** The command with stdout and stderr apart, neither of them a terminal. */
function run(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(CLI[0]!, [...CLI.slice(1), ...args, '--data-dir', dataDir], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: ENV })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** The command on a pseudo-terminal (util-linux `script`): what a user at a terminal sees, stdout and stderr together. */
function onTerminal(...args: string[]): { code: number | null; seen: string } {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`
  const line = [...CLI, ...args, '--data-dir', dataDir].map(quote).join(' ')
  const r = spawnSync('script', ['-qec', line, '/dev/null'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: ENV })
  return { code: r.status, seen: r.stdout }
}

/**
 * Resolves once `ready()` holds, looked at whenever a file in `dir` changes (no polling); rejects
 * when `child` exits first, or after `ms`, a bound far above what a loaded machine takes.
 */
function whenReady(dir: string, ready: () => boolean, child: ChildProcess, ms = 90_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir)
    let settled = false
    const settle = (err?: Error) => {
      if (settled) return
      settled = true
      watcher.close()
      clearTimeout(bound)
      child.off('exit', exited)
      if (err) reject(err)
      else resolve()
    }
    const exited = (code: number | null) => settle(new Error(`the command exited (${code}) before ${dir} changed as awaited`))
    const bound = setTimeout(() => settle(new Error(`${dir} did not change as awaited within ${ms} ms`)), ms)
    watcher.on('change', () => ready() && settle())
    child.on('exit', exited)
    if (ready()) settle()
  })
}

const event = (i: number) => JSON.stringify({ type: 'impression', ts: new Date(Date.now() - 1_000).toISOString(), campaign_id: Number(campaign), spot_id: Number(spot), identity: `idfa:shell-${i}` })
const rawEvents = () => Number(/rebuilt from (\d+) raw events/.exec(run('rebuild').out)?.[1])

describe('import', () => {
  it('exits 1 when every line was rejected, naming each', () => {
    const file = join(base, 'bad.ndjson')
    writeFileSync(file, ['{not json', JSON.stringify({ type: 'impression' }), '[1]'].join('\n'))
    const r = run('import', file)
    expect(r.code, r.err).toBe(1)
    expect(r.err).toContain('0 events imported, 3 rejected')
    expect(r.err).toMatch(/^ {2}line 1: /m)
    expect(r.err).toMatch(/^ {2}line 3: /m)
  })

  it('exits 1 when some lines were rejected, having imported the others; 0 when none was', () => {
    const file = join(base, 'some.ndjson')
    writeFileSync(file, [event(1), '{not json', event(2)].join('\n'))
    const some = run('import', file)
    expect([some.code, some.err]).toEqual([1, expect.stringContaining('2 events imported, 1 rejected')])
    writeFileSync(file, [event(3), event(4)].join('\n'))
    const all = run('import', file)
    expect([all.code, all.err]).toEqual([0, expect.stringContaining('2 events imported, 0 rejected')])
  })

  it('says why a file cannot be read: missing, or a directory', () => {
    const missing = run('import', join(base, 'nofile'))
    expect([missing.code, missing.err.trim()]).toEqual([2, `admonitor: import: cannot read ${join(base, 'nofile')}: no such file`])
    const dir = run('import', base)
    expect([dir.code, dir.err.trim()]).toEqual([2, `admonitor: import: ${base} is a directory; name an event file`])
  })

  it('writes its progress to a log without carriage returns, the summary once', () => {
    const file = join(base, 'log.ndjson')
    writeFileSync(file, Array.from({ length: 50 }, (_, i) => event(100 + i)).join('\n'))
    const r = run('import', file)
    expect(r.code, r.err).toBe(0)
    expect(r.err).not.toContain('\r')
    expect(r.err.match(/50 events imported/g)).toHaveLength(1)
    // nothing but the summary: an import of less than 5 s gives a log no progress line
    expect(r.err.trim().split('\n')).toHaveLength(1)
  })

  it('rewrites one progress line in place on a terminal, by the bytes read, and ends it before the summary', () => {
    // three pieces of 4 MiB on a worker
    const file = join(base, 'tty.ndjson')
    writeFileSync(file, Array.from({ length: 80_000 }, (_, i) => event(200 + i)).join('\n'))
    const r = onTerminal('import', file, '--workers', '1')
    expect(r.code, r.seen).toBe(0)
    const progress = [...r.seen.matchAll(/\r {2}(\d+)% {2}\d+ imported/g)].map((m) => Number(m[1]))
    expect(progress.length).toBeGreaterThanOrEqual(3)
    expect(progress[0]).toBeLessThan(50)
    expect(progress).toEqual([...progress].sort((x, y) => x - y))
    // (a terminal shows \n as \r\n)
    expect(r.seen).toMatch(/\r {2}100% {2}80000 imported, 0 rejected\r\n80000 events imported, 0 rejected/)
  }, 120_000)

  it('ends the progress of a CRLF CSV file at 100%', () => {
    const file = join(base, 'crlf.csv')
    const rows = Array.from({ length: 50 }, (_, i) => `impression,${Date.now() - 1_000},${campaign},${spot},oaid:crlf-${i}`)
    writeFileSync(file, `type,ts,campaign_id,spot_id,identity\r\n${rows.join('\r\n')}\r\n`)
    const r = onTerminal('import', file)
    expect(r.code, r.seen).toBe(0)
    expect(r.seen).toMatch(/\r {2}100% {2}50 imported, 0 rejected\r\n50 events imported/)
  })

  it('stops at Ctrl-C after the part under way, keeps it, releases the lock and names the last line read', async () => {
    // pieces of 4 MiB on a worker: about seven of them
    const lines = Array.from({ length: 250_000 }, (_, i) => event(10_000 + i))
    const file = join(base, 'big.ndjson')
    writeFileSync(file, lines.join('\n'))
    const before = rawEvents()
    const child = spawn(CLI[0]!, [...CLI.slice(1), 'import', file, '--workers', '1', '--data-dir', dataDir], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    // Ctrl-C once the first events of the file are recorded (written to the event log), while
    // the pieces after them are still to come
    const logged = () => readdirSync(join(dataDir, 'events')).filter((n) => n !== 'checkpoint.bin').reduce((n, f) => n + statSync(join(dataDir, 'events', f)).size, 0)
    const start = logged()
    await whenReady(join(dataDir, 'events'), () => logged() !== start, child)
    child.kill('SIGINT')
    expect(await exited, err).toBe(130)
    expect(existsSync(join(dataDir, 'LOCK'))).toBe(false)
    const m = new RegExp(`^admonitor: import: stopped by SIGINT after line (\\d+) of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (\\d+) events imported, 0 rejected; the lines after it were not imported`, 'm').exec(err)
    expect(m, err).not.toBeNull()
    const [last, imported] = [Number(m![1]), Number(m![2])]
    expect(last).toBeGreaterThan(0)
    expect(last).toBeLessThan(lines.length)
    expect(imported).toBe(last)
    expect(rawEvents() - before).toBe(last)
    // the lines after it complete the file: every line once
    const rest = join(base, 'rest.ndjson')
    writeFileSync(rest, lines.slice(last).join('\n'))
    expect(run('import', rest).code).toBe(0)
    expect(rawEvents() - before).toBe(lines.length)
  }, 180_000)
})

describe('simulate', () => {
  it('names --append as the option that is missing, not as a value', () => {
    // the import tests recorded events today, the campaign's one day
    const r = run('simulate', '--campaign', campaign)
    expect(r.code).toBe(2)
    expect(r.err).toMatch(new RegExp(`^admonitor: invalid_request: --append is needed to simulate \\S+\\.\\.\\S+: campaign ${campaign} already has \\d+ events on those days`))
    expect(r.err).not.toContain('must be 1')
  })
})

describe('sync pull', () => {
  it('says on stderr that it failed and exits 1, stdout keeping only what was pulled', () => {
    const env = { ...ENV, ADMONITOR_REMOTE_PASSWORD: 'x', ADMONITOR_REMOTE_CLIENT_SECRET: 'y' }
    // a port nothing listens on
    const add = spawnSync(CLI[0]!, [...CLI.slice(1), 'sync', 'profile', 'add', '--name', 'gone', '--base-url', 'http://127.0.0.1:9', '--username', 'u', '--client-id', 'c', '--data-dir', dataDir], { cwd: ROOT, encoding: 'utf8', env, input: '' })
    expect(add.status, add.stderr).toBe(0)
    const r = run('sync', 'pull', '--profile', 'gone')
    expect(r.code, r.err).toBe(1)
    expect(r.err).toMatch(/^pull failed: /m)
    expect(r.out).not.toContain('failed')
  }, 120_000)
})
