/**
 * The layer rules of STYLE H1, checked on every import of every source file
 * (VS Code's layersChecker): a violation fails with its file and line.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(__dirname, '..', '..')

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = join(dir, name)
    if (statSync(join(root, rel)).isDirectory()) return files(rel)
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [rel] : []
  })
}

interface Import {
  file: string
  line: number
  spec: string
  typeOnly: boolean
  /** The import resolved to a repository path when it is relative. */
  target: string | null
}

function imports(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8')
  const out: Import[] = []
  const re = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4] ?? m[5] ?? ''
    const line = text.slice(0, m.index).split('\n').length
    const target = spec.startsWith('.') ? relative(root, resolve(join(root, file, '..'), spec)).split(sep).join('/') : null
    out.push({ file, line, spec, typeOnly: Boolean(m[2]), target })
  }
  return out
}

const all = ['engine', 'main', 'preload', 'renderer/src', 'bin'].flatMap(files).flatMap(imports)
const where = (i: Import) => `${i.file}:${i.line} imports '${i.spec}'`
const inside = (i: Import, dir: string) => i.target !== null && (i.target === dir || i.target.startsWith(`${dir}/`))

describe('layers', () => {
  it('finds the imports it checks', () => {
    expect(all.length).toBeGreaterThan(100)
  })

  it('keeps engine/contract pure: only imports from itself', () => {
    const bad = all.filter((i) => i.file.startsWith('engine/contract/') && !inside(i, 'engine/contract'))
    expect(bad.map(where)).toEqual([])
  })

  it('keeps electron, vue and ?asset out of engine/', () => {
    const bad = all.filter((i) => i.file.startsWith('engine/') && (/^(electron|vue|pinia|naive-ui|echarts)(\/|$)/.test(i.spec) || i.spec.includes('?asset') || inside(i, 'main') || inside(i, 'renderer') || inside(i, 'preload')))
    expect(bad.map(where)).toEqual([])
  })

  it('lets preload import only electron and types of engine/contract', () => {
    const bad = all.filter((i) => i.file.startsWith('preload/') && !(i.spec === 'electron' || (i.typeOnly && inside(i, 'engine/contract'))))
    expect(bad.map(where)).toEqual([])
  })

  it('lets the renderer import only engine/contract from the engine, and no Node or Electron', () => {
    const bad = all.filter(
      (i) => i.file.startsWith('renderer/') && (/^(node:|electron)/.test(i.spec) || (inside(i, 'engine') && !inside(i, 'engine/contract')) || inside(i, 'main') || inside(i, 'preload')),
    )
    expect(bad.map(where)).toEqual([])
  })

  it('keeps main/ out of the renderer and the preload', () => {
    const bad = all.filter((i) => i.file.startsWith('main/') && (inside(i, 'renderer') || inside(i, 'preload')))
    expect(bad.map(where)).toEqual([])
  })

  it('reports a violation with file and line (self-check of the scanner)', () => {
    const fake = imports('test/architecture/layers.test.ts').filter((i) => i.spec === 'vitest')
    expect(fake[0]).toMatchObject({ line: expect.any(Number), typeOnly: false })
  })
})
