/**
 * The layer rules of STYLE H1, checked on every import of every source file
 * (VS Code's layersChecker): a violation fails with its file and line.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
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

/** An import resolved to the file it names: one of `known`, as `.ts` or `/index.ts`. */
interface Edge {
  from: string
  to: string
  line: number
}

function edgesAmong(imps: readonly Import[], known: ReadonlySet<string>): Edge[] {
  return imps.flatMap((i) => {
    const to = i.target === null ? undefined : [`${i.target}.ts`, `${i.target}/index.ts`, i.target].find((f) => known.has(f))
    return to === undefined ? [] : [{ from: i.file, to, line: i.line }]
  })
}

/**
 * The import cycles of a graph: one per strongly connected component of more than one file (or a
 * file that imports itself), as the shortest way round from its first file, each step with the
 * line of its import: `a.ts:3 -> b.ts:7 -> a.ts`, then the component's files when there are more.
 */
function cycles(edges: readonly Edge[]): string[] {
  const out = new Map<string, Edge[]>()
  for (const e of edges) out.set(e.from, [...(out.get(e.from) ?? []), e])
  // Tarjan's strongly connected components
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const { to } of out.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(v, Math.min(low.get(v)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = ''; w !== v; ) {
      w = stack.pop()!
      onStack.delete(w)
      component.push(w)
    }
    components.push(component)
  }
  for (const v of [...out.keys()].sort()) if (!index.has(v)) visit(v)
  return components
    .filter((c) => c.length > 1 || (out.get(c[0]!) ?? []).some((e) => e.to === c[0]))
    .map((c) => {
      const inside = new Set(c)
      const start = [...c].sort()[0]!
      // breadth first from start, inside the component, back to start
      const via = new Map<string, Edge>()
      const queue = [start]
      for (let k = 0; k < queue.length && !via.has(start); k++) {
        for (const e of out.get(queue[k]!) ?? []) {
          if (!inside.has(e.to) || via.has(e.to)) continue
          via.set(e.to, e)
          queue.push(e.to)
        }
      }
      const steps: Edge[] = []
      for (let at = start; steps.length === 0 || at !== start; ) {
        const e = via.get(at)!
        steps.unshift(e)
        at = e.from
      }
      const way = `${steps.map((e) => `${e.from}:${e.line}`).join(' -> ')} -> ${start}`
      return c.length > steps.length ? `${way} (one way round ${c.length} files that all reach each other: ${[...c].sort().join(', ')})` : way
    })
}

/**
 * SQL in statement shape, upper-case as the code writes it: a statement's head (SELECT ... FROM,
 * INSERT INTO, UPDATE x SET, DELETE FROM, CREATE/DROP/ALTER TABLE, PRAGMA) or a clause of one
 * (ORDER BY, GROUP BY, JOIN x ON, WHERE column = / IN / IS / LIKE). English prose in strings
 * ("select from the list") is lower-case and passes.
 */
const SQL_SHAPE = new RegExp([
  String.raw`\bSELECT\b[\s\S]*?\bFROM\b`,
  String.raw`\b(INSERT|REPLACE)\s+(OR\s+[A-Z]+\s+)?INTO\b`,
  String.raw`\bUPDATE\s+[\w.]+\s+SET\b`,
  String.raw`\bDELETE\s+FROM\b`,
  String.raw`\b(CREATE|DROP|ALTER)\s+(TABLE|(UNIQUE\s+)?INDEX|VIEW|TRIGGER)\b`,
  String.raw`\bPRAGMA\s+\w`,
  String.raw`\b(ORDER|GROUP)\s+BY\b`,
  String.raw`\bJOIN\s+\w+(\s+\w+)?\s+ON\b`,
  String.raw`\bWHERE\s+[\w.()]+\s*(=|<>|!=|<|>|\bIN\b|\bIS\b|\bLIKE\b)`,
].join('|'))

/**
 * The string and template literals of a source file that hold SQL, as `file:line: text`. A
 * template's `${...}` parts read as `x`, so `UPDATE ${table} SET` is caught; comments are not literals.
 */
function sqlStrings(file: string, text = readFileSync(join(root, file), 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.vue') ? ts.ScriptKind.TS : undefined)
  const out: string[] = []
  const visit = (node: ts.Node): void => {
    let literal: string | undefined
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literal = node.text
    else if (ts.isTemplateExpression(node)) literal = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('x')
    if (literal !== undefined && SQL_SHAPE.test(literal)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
      out.push(`${file}:${line}: ${literal.replace(/\s+/g, ' ').slice(0, 100)}`)
    }
    // a template's own spans hold expressions that may be literals of their own
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

/** The script of a .vue file (its template holds no SQL either, but reads as markup, not code). */
const scriptOf = (file: string): string => {
  const text = readFileSync(join(root, file), 'utf8')
  return file.endsWith('.vue') ? [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text
}

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

  it('has no import cycle in engine/, type imports included', () => {
    const engine = all.filter((i) => i.file.startsWith('engine/'))
    const found = cycles(edgesAmong(engine, new Set(engine.map((i) => i.file))))
    expect(found, `import cycles in engine/ (each file:line imports the next):\n${found.join('\n')}`).toEqual([])
  })

  it('lets the measurement not import the reports, which read it', () => {
    const bad = all.filter((i) => i.file.startsWith('engine/measure/') && inside(i, 'engine/reports'))
    expect(bad.map(where)).toEqual([])
  })

  it('finds an import cycle and names its files and lines (self-check of the cycle finder)', () => {
    const edge = (from: string, to: string, line: number): Edge => ({ from, to, line })
    const edges = [edge('a.ts', 'b.ts', 1), edge('b.ts', 'c.ts', 2), edge('c.ts', 'a.ts', 3), edge('c.ts', 'd.ts', 4), edge('d.ts', 'd.ts', 5), edge('e.ts', 'a.ts', 6)]
    expect(cycles(edges).sort()).toEqual(['a.ts:1 -> b.ts:2 -> c.ts:3 -> a.ts', 'd.ts:5 -> d.ts'])
    const knot = [edge('a.ts', 'b.ts', 1), edge('b.ts', 'a.ts', 2), edge('b.ts', 'c.ts', 3), edge('c.ts', 'b.ts', 4)]
    expect(cycles(knot)).toEqual(['a.ts:1 -> b.ts:2 -> a.ts (one way round 3 files that all reach each other: a.ts, b.ts, c.ts)'])
    const typeOnly = edgesAmong(imports('engine/services.ts'), new Set(files('engine')))
    expect(typeOnly.length, 'type imports are edges too').toBeGreaterThan(3)
  })

  it('keeps SQL in engine/storage: no SQL string anywhere else', () => {
    const sources = ['engine', 'main', 'preload', 'renderer/src', 'bin'].flatMap(files).filter((f) => !f.startsWith('engine/storage/'))
    expect(sources.length).toBeGreaterThan(100)
    const found = sources.flatMap((f) => sqlStrings(f, scriptOf(f)))
    expect(found, `SQL outside engine/storage (move it to a repository under engine/storage/repos):\n${found.join('\n')}`).toEqual([])
  })

  it('finds SQL in strings and templates, not in comments or prose (self-check of the SQL finder)', () => {
    const sample = [
      "const a = db.query('SELECT spot_id FROM spots WHERE campaign_id = ?', [id])",
      '// SELECT spot_id FROM spots: a comment, not a literal',
      'const b = `UPDATE ${table} SET ${cols} WHERE id = ?`',
      "const c = 'select the spots from the list, then order by name'",
      "const d = ' ORDER BY ' + column",
      'const e = `INSERT OR IGNORE INTO sync_pull_campaigns (pull_id) VALUES (?)`',
      "const f = 'FROM spots s JOIN publishers p ON p.publisher_id = s.publisher_id'",
      "const g = 'DELETE FROM tokens WHERE token_hash = ?'",
      "const h = 'Where the database lives'",
    ].join('\n')
    expect(sqlStrings('sample.ts', sample).map((s) => s.split(':')[1])).toEqual(['1', '3', '5', '6', '7', '8'])
    expect(sqlStrings('sample.ts', sample)[0]).toBe('sample.ts:1: SELECT spot_id FROM spots WHERE campaign_id = ?')
    expect(sqlStrings('engine/storage/repos/spots.ts').length, 'the repositories hold SQL the finder sees').toBeGreaterThan(10)
  })

  it('reports a violation with file and line (self-check of the scanner)', () => {
    const fake = imports('test/architecture/layers.test.ts').filter((i) => i.spec === 'vitest')
    expect(fake[0]).toMatchObject({ line: expect.any(Number), typeOnly: false })
  })
})
