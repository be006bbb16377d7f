// scripts/server-flags.mjs: `npm run serve` and the bench's engine server start node with the same
// V8 flags and malloc settings, so the bench measures the server users run; and node starts with
// them (a flag V8 does not know stops node before the server is reached).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { childEnv, script } from '../../bench/children'
import { bundleFile } from '../../scripts/server-build.mjs'
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const MALLOC = Object.keys(SERVER_ENV)

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }

describe('the server V8 flags', () => {
  it('npm run serve starts node with them', () => {
    expect(pkg.scripts.serve).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} scripts/serve.mjs`)
  })

  it("the bench's engine server starts with them, before its bundle", () => {
    expect(script('server-engine.ts')).toEqual([...SERVER_NODE_FLAGS, bundleFile('bench')])
  })

  it('node accepts them and bounds the young generation', () => {
    const probe = "let a=[];for(let i=0;i<3e6;i++){a.push({i});if(a.length>2e5)a=[]}console.log(require('v8').getHeapSpaceStatistics().find(s=>s.space_name==='new_space').space_size)"
    const run = (flags: readonly string[]) => spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' })
    const bounded = run(SERVER_NODE_FLAGS)
    expect(bounded.status, bounded.stderr).toBe(0)
    const semi = Number(/--max-semi-space-size=(\d+)/.exec(SERVER_NODE_FLAGS.join(' '))![1])
    expect(Number(bounded.stdout)).toBeLessThanOrEqual(2 * semi * 1048576)
    expect(Number(run([]).stdout)).toBeGreaterThan(2 * semi * 1048576)
  })
})

/** The environment of this process without SERVER_ENV's variables, plus `extra`. */
function envWithout(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env }
  for (const k of MALLOC) delete env[k]
  return { ...env, ...extra }
}

describe('the server malloc settings', () => {
  it("the bench's engine server starts with them; its other children and a variable set by hand are left alone", () => {
    const saved = { ...process.env }
    try {
      for (const k of MALLOC) delete process.env[k]
      expect(childEnv('server-engine.ts')).toMatchObject(SERVER_ENV)
      for (const k of MALLOC) expect(childEnv('load.ts')[k]).toBeUndefined()
      process.env[MALLOC[0]!] = '65536'
      expect(childEnv('server-engine.ts')[MALLOC[0]!]).toBe('65536')
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k]
      Object.assign(process.env, saved)
    }
  })

  it.runIf(process.platform === 'linux')('npm run serve runs the server with them, in the process it started (same pid, same flags)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admonitor-flags-'))
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/serve.mjs', '--port', '0', '--data-dir', dir], { cwd: ROOT, env: envWithout({ ADMONITOR_SKIP_UI_BUILD: '1' }), stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      let out = ''
      child.stdout!.setEncoding('utf8').on('data', (t: string) => (out += t))
      const deadline = Date.now() + 30_000
      while (!/is serving http/.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50))
      expect(out).toMatch(/is serving http/)
      const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0')
      for (const [k, v] of Object.entries(SERVER_ENV)) expect(environ).toContain(`${k}=${v}`)
      expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS, join(ROOT, 'scripts', 'serve.mjs'), '--data-dir', dir]))
    } finally {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      rmSync(dir, { recursive: true, force: true })
    }
  }, 40_000)

  it.runIf(process.platform === 'linux')('keep blocks of 2 MiB out of the brk heap after larger ones were freed (where glibc alone puts them in it)', () => {
    // (blocks of 1-8 MiB freed raise glibc's own threshold to 8 MiB; sixteen blocks of 2 MiB follow)
    const probe = `
      const heapRss = () => { let on = false, kb = 0; for (const l of require('fs').readFileSync('/proc/self/smaps', 'utf8').split('\\n')) { if (/^[0-9a-f]+-/.test(l)) on = l.endsWith('[heap]'); else if (on && l.startsWith('Rss:')) kb += Number(l.split(/\\s+/)[1]) } return kb >> 10 }
      for (const size of [1, 2, 4, 8]) { let big = Buffer.alloc(size << 20, 1); big = null; gc() }
      setTimeout(() => { gc(); setTimeout(() => { const keep = []; for (let i = 0; i < 16; i++) keep.push(Buffer.alloc(2 << 20, 1)); console.log(heapRss()) }, 100) }, 100)`
    const heapMiB = (env: NodeJS.ProcessEnv) => {
      const r = spawnSync(process.execPath, ['--expose-gc', '-e', probe], { encoding: 'utf8', env })
      expect(r.status, r.stderr).toBe(0)
      return Number(r.stdout)
    }
    expect(heapMiB(envWithout())).toBeGreaterThanOrEqual(30)
    expect(heapMiB(envWithout(SERVER_ENV))).toBeLessThan(8)
  })
})
