// scripts/ui-build.mjs, what `npm run serve` does when the web interface is missing or stale: the
// page that says it is being built, the finished build put in its place, a failed build said,
// and the electron-vite configuration that builds the renderer alone.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { buildInBackground, needsBuild } from '../../scripts/ui-build.mjs'

const base = mkdtempSync(join(tmpdir(), 'admonitor-ui-build-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** A stand-in for electron-vite: waits for the file `go`, then writes `<outDir>/renderer` (or fails, saying why). */
const fakeBuild = (go: string, fail = false) => [process.execPath, '-e', `
  const { existsSync, mkdirSync, writeFileSync } = require('node:fs')
  const out = process.argv.at(-1)
  const wait = setInterval(() => {
    if (!existsSync(${JSON.stringify(go)})) return
    clearInterval(wait)
    if (${fail}) { console.error('error: renderer/src/main.ts: boom'); process.exit(1) }
    mkdirSync(out + '/renderer/assets', { recursive: true })
    writeFileSync(out + '/renderer/assets/index-1.js', 'x')
    writeFileSync(out + '/renderer/index.html', 'BUILT')
  }, 20)`, '--']

describe('the web interface built in the background', () => {
  it('serves a page that says so and reloads, then puts the finished build in its place', async () => {
    const dir = join(base, 'ok', 'renderer')
    const source = join(base, 'ok', 'src')
    mkdirSync(source, { recursive: true })
    writeFileSync(join(source, 'main.ts'), '')
    utimesSync(join(source, 'main.ts'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'stale.js'), 'old')
    const favicon = join(base, 'favicon.ico')
    writeFileSync(favicon, 'ICO')
    expect(needsBuild(dir, [source])).toBe(true)

    const go = join(base, 'ok', 'go')
    const done = buildInBackground({ dir, command: fakeBuild(go), favicon })
    const waiting = readFileSync(join(dir, 'index.html'), 'utf8')
    expect(waiting).toContain('The web interface is being built')
    expect(waiting).toContain('正在构建网页界面')
    expect(waiting).toContain('<meta http-equiv="refresh" content="3" />')
    expect(readFileSync(join(dir, 'favicon.ico'), 'utf8')).toBe('ICO')
    expect(existsSync(join(dir, 'stale.js'))).toBe(false)
    // a server stopped now leaves the waiting page: the next start builds again
    expect(needsBuild(dir, [source])).toBe(true)

    writeFileSync(go, '')
    const r = await done
    expect(r.ok, r.output).toBe(true)
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe('BUILT')
    expect(readdirSync(dir).sort()).toEqual(['assets', 'index.html'])
    expect(readdirSync(join(base, 'ok')).sort()).toEqual(['go', 'renderer', 'src'])
    expect(needsBuild(dir, [source])).toBe(false)
    // a source changed after the build: built again
    writeFileSync(join(source, 'main.ts'), 'changed')
    utimesSync(join(source, 'main.ts'), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000))
    expect(needsBuild(dir, [source])).toBe(true)
  })

  it('says that a build failed, on the page and with the end of its output', async () => {
    const dir = join(base, 'bad', 'renderer')
    const go = join(base, 'go-bad')
    writeFileSync(go, '')
    const r = await buildInBackground({ dir, command: fakeBuild(go, true) })
    expect(r.ok).toBe(false)
    expect(r.output).toContain('error: renderer/src/main.ts: boom')
    const page = readFileSync(join(dir, 'index.html'), 'utf8')
    expect(page).toContain('The web interface could not be built')
    expect(page).not.toContain('refresh')
    expect(needsBuild(dir, [])).toBe(true)
  })
})

describe('electron.vite.config.ts', () => {
  it('has the renderer alone when ADMONITOR_BUILD=renderer (npm run serve), and all three parts otherwise', async () => {
    vi.resetModules()
    vi.stubEnv('ADMONITOR_BUILD', 'renderer')
    const serve = (await import('../../electron.vite.config')).default as Record<string, unknown>
    expect(Object.keys(serve)).toEqual(['renderer'])
    vi.resetModules()
    vi.stubEnv('ADMONITOR_BUILD', '')
    const app = (await import('../../electron.vite.config')).default as Record<string, unknown>
    expect(Object.keys(app).sort()).toEqual(['main', 'preload', 'renderer'])
    // (the same folder and input; the Vue plugin is made anew at each import)
    const part = (c: Record<string, unknown>) => ({ ...(c.renderer as Record<string, unknown>), plugins: undefined })
    expect(part(app)).toEqual(part(serve))
    vi.unstubAllEnvs()
  })
})
