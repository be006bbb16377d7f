/**
 * README.md is the front door of a clone: Quick start within its first 40 lines, every npm script
 * named, every file its map names existing, every link leading to a file of the repository (and a
 * heading in it), no path outside the repository, and present tense only (dated history lives in
 * the git log and bench/README.md).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const LINES = README.split('\n')

/** Whether a repository path exists; `<name>` stands for any one name, `*` for any characters in a name. */
function exists(path: string): boolean {
  const parts = path.split('/').filter((p) => p !== '')
  const walk = (at: string, i: number): boolean => {
    if (i === parts.length) return true
    const part = parts[i]!
    if (!/[<*]/.test(part)) return existsSync(join(ROOT, at, part)) && walk(join(at, part), i + 1)
    if (!existsSync(join(ROOT, at)) || !statSync(join(ROOT, at)).isDirectory()) return false
    const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '[^/]+').replace(/\*/g, '[^/]*')}$`)
    return readdirSync(join(ROOT, at)).some((n) => re.test(n) && walk(join(at, n), i + 1))
  }
  return walk('', 0)
}

/** GitHub's anchor of each heading of a Markdown text (a repeated one gets -1, -2, ...). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line)
    if (!m) continue
    const base = m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

describe('README.md', () => {
  it('has its Quick start within the first 40 lines, with the Node.js line and the four commands', () => {
    const start = LINES.findIndex((l) => l === '## Quick start')
    expect(start, 'a "## Quick start" heading').toBeGreaterThanOrEqual(0)
    const end = LINES.findIndex((l, i) => i > start && l.startsWith('## '))
    const quick = LINES.slice(start, end).join('\n')
    for (const command of ['eval "$(bash scripts/node.sh 24)"', 'npm install', 'npm run serve', 'npm start', 'npm test']) {
      const at = LINES.findIndex((l, i) => i > start && l.includes(command))
      expect(at, command).toBeGreaterThan(start)
      expect(at + 1, `${command} on line ${at + 1}`).toBeLessThanOrEqual(40)
    }
    expect(quick).toMatch(/Node\.js 22 \(22\.12 or later\) or 24/)
  })

  it('names every npm script of package.json', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    const unnamed = Object.keys(scripts)
      .filter((name) => !/^pre|^post/.test(name))
      .filter((name) => !README.includes(`npm run ${name}`) && !(['start', 'test'].includes(name) && README.includes(`npm ${name}`)))
    expect(unnamed).toEqual([])
  })

  it('links only to files of the repository, and to headings they have', () => {
    const broken: string[] = []
    for (const [, target] of README.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [path, anchor] = target!.split('#') as [string, string | undefined]
      const file = path === '' ? join(ROOT, 'README.md') : normalize(join(ROOT, path))
      if (!file.startsWith(ROOT) || !existsSync(file)) broken.push(`${target}: no such file`)
      else if (anchor !== undefined && !anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`)
    }
    expect(broken).toEqual([])
  })

  it("names in its map (Where things are) only files and folders that exist", () => {
    const start = LINES.findIndex((l) => l === '## Where things are')
    const end = LINES.findIndex((l, i) => i > start && l.startsWith('## '))
    expect(start, 'a "## Where things are" heading').toBeGreaterThanOrEqual(0)
    const missing: string[] = []
    for (const row of LINES.slice(start, end).filter((l) => l.startsWith('| ') && !l.startsWith('| to change'))) {
      // a name without a top folder of the repository is in the folder of the last one with it
      let dir = ''
      for (const [, name] of row.matchAll(/`([^`\s]+)`/g)) {
        if (name!.startsWith('/') || (!name!.includes('/') && !/\.(ts|vue|md)$/.test(name!))) continue
        const full = existsSync(join(ROOT, name!.split('/')[0]!)) && name!.includes('/')
        const path = full ? name! : join(dir, name!)
        if (!exists(path)) missing.push(`${name} (${path})`)
        if (full) dir = path.endsWith('/') ? path : dirname(path)
      }
    }
    expect(missing).toEqual([])
  })

  it('names no path outside the repository', () => {
    const outside = LINES.flatMap((l, i) => (/\.\.\/shared|(^|[\s(`])\/work\//.test(l) ? [`${i + 1}: ${l}`] : []))
    expect(outside).toEqual([])
  })

  it('says what is, without dates or the history of issues', () => {
    const dated = LINES.flatMap((l, i) => (/\b20\d\d-\d\d-\d\d\b|\bissue \d+|\b(until|since|as of|before|after) (20\d\d|issue|the change)\b/i.test(l) ? [`${i + 1}: ${l}`] : []))
    expect(dated).toEqual([])
  })
})

describe('anchors', () => {
  it("are GitHub's: lower case, punctuation dropped, spaces as hyphens, repeats numbered", () => {
    expect([...anchors('# bench/\n## Node.js 24\n### HTTP API: the latest run\n## What it measures (http)\n```\n# not a heading\n```\n#### HTTP API\n#### HTTP API')])
      .toEqual(['bench', 'nodejs-24', 'http-api-the-latest-run', 'what-it-measures-http', 'http-api', 'http-api-1'])
  })
})
