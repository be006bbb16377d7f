/**
 * docs/architecture.md's diagram of the engine's layers against the code: every file of engine/
 * is in one of its boxes, and every import between boxes follows its arrows (down, directly or
 * through boxes between), but the upward imports that the page names.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(__dirname, '..', '..')
const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')

/** The upward imports the page names in its Layers section (importer, imported), relative to engine/. */
const NAMED_UPWARD: readonly (readonly [string, string])[] = [['index.ts', 'server/http.ts'], ['sync/setup.ts', 'server/paths.ts']]

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = join(dir, name)
    if (statSync(join(root, rel)).isDirectory()) return sources(rel)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [rel.split(sep).join('/')] : []
  })
}

/** The diagram's boxes (id: the engine paths its label names, a folder ending in /) and arrows. */
function diagram(): { boxes: Map<string, string[]>; below: Map<string, Set<string>> } {
  const block = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1] ?? ''
  const boxes = new Map<string, string[]>()
  for (const m of block.matchAll(/^\s*(\w+)\["([^"]*)"\]/gm)) boxes.set(m[1]!, m[2]!.split(/[\s·,()]+/).filter((w) => w.endsWith('/') || w.endsWith('.ts')))
  const arrows = new Map<string, Set<string>>()
  for (const line of block.split('\n').filter((l) => l.includes('-->'))) {
    const steps = line.split('-->').map((s) => s.split('&').map((id) => id.trim()))
    for (let i = 1; i < steps.length; i++) for (const from of steps[i - 1]!) for (const to of steps[i]!) arrows.set(from, (arrows.get(from) ?? new Set()).add(to))
  }
  // what each box reaches by following the arrows
  const below = new Map<string, Set<string>>()
  for (const id of boxes.keys()) {
    const seen = new Set<string>()
    const todo = [...(arrows.get(id) ?? [])]
    while (todo.length) {
      const next = todo.pop()!
      if (!seen.has(next)) (seen.add(next), todo.push(...(arrows.get(next) ?? [])))
    }
    below.set(id, seen)
  }
  return { boxes, below }
}

/** The box of engine file `file` (relative to engine/): the one naming the file, else its nearest folder. */
function boxOf(file: string, boxes: Map<string, string[]>): string | undefined {
  let best: [string, number] | undefined
  for (const [id, paths] of boxes) {
    for (const p of paths) {
      const score = p === file ? Infinity : p.endsWith('/') && file.startsWith(p) ? p.length : -1
      if (score >= 0 && (!best || score > best[1])) best = [id, score]
    }
  }
  return best?.[0]
}

describe("docs/architecture.md's diagram of the layers", () => {
  const { boxes, below } = diagram()
  const files = sources('engine').map((f) => f.slice('engine/'.length))
  const known = new Set(files)

  it('has a box for every file of engine/', () => {
    expect(boxes.size).toBeGreaterThan(5)
    expect(files.filter((f) => boxOf(f, boxes) === undefined)).toEqual([])
  })

  it("has every import between boxes follow its arrows, but the upward ones it names", () => {
    const wrong: string[] = []
    for (const file of files) {
      const text = readFileSync(join(root, 'engine', file), 'utf8')
      for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm)) {
        const target = relative(join(root, 'engine'), resolve(join(root, 'engine', file, '..'), m[1] ?? m[2]!)).split(sep).join('/')
        const to = [`${target}.ts`, `${target}/index.ts`, target].find((f) => known.has(f))
        if (to === undefined) continue
        const [a, b] = [boxOf(file, boxes), boxOf(to, boxes)]
        if (a === undefined || b === undefined || a === b || below.get(a)!.has(b)) continue
        if (NAMED_UPWARD.some(([x, y]) => x === file && y === to)) continue
        wrong.push(`engine/${file} (${a}) imports engine/${to} (${b})`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('names each upward import it allows', () => {
    for (const [from, to] of NAMED_UPWARD) expect(page).toMatch(new RegExp(`\`${from}\`[^.]*\`${to}\``))
  })
})
