// bench/felt-serve.ts starts the server as `npm run serve` does, for the rows of what the user
// feels: with the V8 flags package.json's serve script gives node (scripts/server-flags.mjs), and
// the malloc settings scripts/serve.mjs restarts itself with; else those rows measure a server
// with no early collections (engine/server/collect.ts) and V8's own young generation.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bundleReady, serveOn } from '../../bench/felt-serve'
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-flags.mjs'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }

describe('the felt rows\' server', () => {
  it.runIf(process.platform === 'linux')('runs under the flags and environment of npm run serve', async () => {
    const nodeFlags = pkg.scripts.serve!.split(' ').filter((w) => w.startsWith('--'))
    expect(nodeFlags).toEqual([...SERVER_NODE_FLAGS])
    await bundleReady()
    const dir = mkdtempSync(join(tmpdir(), 'admonitor-felt-flags-'))
    const s = await serveOn(dir)
    try {
      const cmdline = readFileSync(`/proc/${s.proc.pid}/cmdline`, 'utf8').split('\0')
      const script = cmdline.findIndex((a) => a.endsWith('serve.mjs'))
      expect(cmdline.slice(1, script)).toEqual(nodeFlags)
      const environ = readFileSync(`/proc/${s.proc.pid}/environ`, 'utf8').split('\0')
      for (const [k, v] of Object.entries(SERVER_ENV)) expect(environ).toContain(`${k}=${v}`)
    } finally {
      await s.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
