// main/http-server.ts: the desktop app's port (ADMONITOR_PORT, desk.json, 8366) and its fallback to a free port
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_PORT, configuredPort, startHttpServer } from '../../main/http-server'
import { makeEngine } from '../helpers/make-engine'

const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

const userData = (desk?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'admonitor-desk-'))
  made.push(dir)
  if (desk !== undefined) writeFileSync(join(dir, 'desk.json'), typeof desk === 'string' ? desk : JSON.stringify(desk))
  return dir
}

describe('configuredPort', () => {
  it('takes ADMONITOR_PORT first, then desk.json, then the default', () => {
    expect(configuredPort(userData({ port: 9001 }), { ADMONITOR_PORT: '9002' })).toBe(9002)
    expect(configuredPort(userData({ port: 9001 }), {})).toBe(9001)
    expect(configuredPort(userData(), {})).toBe(DEFAULT_PORT)
  })

  it('ignores values that are not ports, and an unreadable desk.json', () => {
    expect(configuredPort(userData({ port: 70000 }), { ADMONITOR_PORT: 'abc' })).toBe(DEFAULT_PORT)
    expect(configuredPort(userData('{not json'), { ADMONITOR_PORT: '-1' })).toBe(DEFAULT_PORT)
    expect(configuredPort(userData({ port: 0 }), {})).toBe(0)
  })
})

describe('startHttpServer', () => {
  it('takes a free port when the configured one is in use', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const taken = (blocker.address() as AddressInfo).port
    const prev = process.env.ADMONITOR_PORT
    process.env.ADMONITOR_PORT = String(taken)
    const t = await makeEngine()
    try {
      const door = await startHttpServer(t.engine, userData())
      expect(door.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(door.url).not.toBe(`http://127.0.0.1:${taken}`)
      await door.close()
    } finally {
      if (prev === undefined) delete process.env.ADMONITOR_PORT
      else process.env.ADMONITOR_PORT = prev
      blocker.close()
    }
  })
})
