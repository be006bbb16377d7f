// DESIGN §5: the built main and preload bundles never weaken the window's isolation.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { regionsFromPackages } from '../../engine/reference/regions'
import { buildApp } from '../helpers/build'

let out = ''
const read = (dir: string) => readdirSync(join(out, dir)).filter((f) => /\.(c?js|mjs)$/.test(f)).map((f) => readFileSync(join(out, dir, f), 'utf8')).join('\n')

beforeAll(() => {
  out = buildApp()
}, 180_000)

describe('built bundles', () => {
  it('main and preload contain no nodeIntegration: true, contextIsolation: false or sandbox: false', () => {
    for (const dir of ['main', 'preload']) {
      const code = read(dir)
      expect(code.length).toBeGreaterThan(100)
      expect(code).not.toMatch(/nodeIntegration\s*:\s*(true|!0)/)
      expect(code).not.toMatch(/contextIsolation\s*:\s*(false|!1)/)
      expect(code).not.toMatch(/sandbox\s*:\s*(false|!1)/)
    }
  })

  it('the window asks for sandbox, context isolation and no Node integration explicitly', () => {
    const main = read('main')
    expect(main).toMatch(/sandbox\s*:\s*(true|!0)/)
    expect(main).toMatch(/contextIsolation\s*:\s*(true|!0)/)
    expect(main).toMatch(/nodeIntegration\s*:\s*(false|!1)/)
  })

  it('the preload exposes one bridge and no generic invoke', () => {
    const preload = read('preload')
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1)
    expect(preload).toContain('engine:request')
    expect(preload).not.toMatch(/invoke\(\s*[a-zA-Z_$][\w$]*\s*,/)
  })

  it('the renderer page carries a strict Content-Security-Policy', () => {
    const html = readFileSync(join(out, 'renderer', 'index.html'), 'utf8')
    expect(html).toMatch(/http-equiv="Content-Security-Policy"/)
    expect(html).toContain("script-src 'self'")
    expect(html).not.toMatch(/unsafe-eval/)
  })

  it('main carries the region table computed at build time, the rows the sources build from the packages', () => {
    const main = read('main')
    // the JSON text as a string literal, which the bundler may write with quotes or backticks
    const built = /BUILT_REGIONS\s*=\s*JSON\.parse\(("(?:[^"\\]|\\.)*"|`(?:[^`\\$]|\\.)*`)\)/.exec(main)
    expect(built).not.toBeNull()
    const text = new Function(`return ${built![1]!}`)() as string
    expect(JSON.parse(text)).toEqual(regionsFromPackages())
  })
})
