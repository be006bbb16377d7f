// `npm start` where Electron cannot run: a clear message pointing at `npm run serve`, exit 1
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

describe('npm start without Electron', () => {
  it('says the Electron runtime is missing and points at npm run serve', () => {
    const r = spawnSync(process.execPath, [resolve(__dirname, '../../scripts/start.mjs')], { env: { ...process.env, ADMONITOR_NO_ELECTRON: '1' }, encoding: 'utf8', timeout: 30_000 })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('Electron runtime is not installed')
    expect(r.stderr).toContain('npm run serve')
  })
})
