// engine/server/v8-flags.ts: the serving process runs with V8's allocation-site pretenuring off,
// whether node was started with the flag (npm run serve, the bench) or sets it at its start (the
// desktop app, `admonitor serve` from the sources): the two name the same flag, and node knows
// it both ways (a flag it does not know, set while it runs, is reported on stderr). Its effect
// on what scavenges promote is the bench's to show (bench/README.md, "What moved the new-query
// rows").
import { spawnSync } from 'node:child_process'
import { describe, expect, it, vi } from 'vitest'
import { SERVER_NODE_FLAGS } from '../../../scripts/server-flags.mjs'

const set = vi.hoisted(() => vi.fn())
vi.mock('node:v8', async (importOriginal) => ({ ...(await importOriginal<typeof import('node:v8')>()), setFlagsFromString: set }))

const { NO_PRETENURING, servingV8 } = await import('../../../engine/server/v8-flags')

describe('pretenuring off in the serving process', () => {
  it('servingV8 sets the flag the command line of npm run serve gives', () => {
    servingV8()
    expect(set).toHaveBeenCalledWith(NO_PRETENURING)
    expect(SERVER_NODE_FLAGS).toContain(NO_PRETENURING)
  })

  it('node knows the flag, on its command line and set while it runs', () => {
    const started = spawnSync(process.execPath, [NO_PRETENURING, '-e', 'console.log(1)'], { encoding: 'utf8' })
    expect(started.stderr).toBe('')
    expect(started.stdout.trim()).toBe('1')
    const running = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(NO_PRETENURING)}); console.log(1)`], { encoding: 'utf8' })
    expect(running.stderr).toBe('')
    expect(running.stdout.trim()).toBe('1')
    const unknown = spawnSync(process.execPath, ['--no-allocation-site-pretenurin', '-e', 'console.log(1)'], { encoding: 'utf8' })
    expect(unknown.status).not.toBe(0)
  })
})
