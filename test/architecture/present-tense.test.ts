/**
 * Code comments and docs say what is; the git log keeps what was. This test reads the prose of the
 * repository and fails on phrases that date or narrate a change, naming file, line and phrase.
 *
 * What is read: the comments of every source file under engine/, renderer/src/, bin/, main/,
 * preload/, scripts/, bench/ and test/ (string and template literals are left out: what the
 * product prints is not commentary), the titles of the tests (it, describe, test: what a failing
 * run prints), and the whole text of docs/*.md, the
 * folder READMEs, README.md and bench/README.md. Left out: bench/README.md's "Benchmark history"
 * section (its dated runs are records of measurements, the figure with its date is the point),
 * and test/fixtures/ (the vendor's spec, quoted as it is).
 *
 * What fails (PATTERNS): a date given as the moment of a change or of a run ("until", "since",
 * "before" or "after" a date; an audit or session of a date; a dated list item); an audit as the
 * reason for a rule; an issue or deliverable number as the origin of code; "after issue"/"before
 * commit"; a regression tag; "used to", "previously", "formerly". Words that also describe
 * the data's own state ("the remote no longer has it", "the record now", "earlier versions wrote")
 * are not patterns: they are read by hand. ALLOWED lists each phrase that matches a pattern but
 * says what is, with its reason.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prose } from './comment-text'

const ROOT = join(__dirname, '..', '..')

const DATE = String.raw`\b20\d\d-\d\d-\d\d\b`

/** The history phrases, each with what it catches. Words are joined by `\s+`, so a phrase broken over two comment lines is found too. */
const PATTERNS: ReadonlyArray<{ what: string; re: RegExp }> = [
  { what: 'a change dated', re: new RegExp(String.raw`\b(until|since|before|after|as of|added|fixed|changed)\s+${DATE}`, 'gi') },
  { what: 'a dated audit, session or run', re: new RegExp(String.raw`\b(audits?|sessions?|runs?|soak test|review)\s+(of|on)\s+${DATE}`, 'gi') },
  { what: 'a dated list item', re: new RegExp(String.raw`^[ \t]*[-*][ \t]+${DATE}\s*:`, 'gm') },
  { what: 'an audit as a reason', re: /(?<![-\w])audit(s|ed|or|or's|'s)?\b/gi },
  { what: 'an issue number as origin', re: /\b(issues?\s+#?\d+|deliverables?\s+\d+)/gi },
  { what: 'a change by issue or commit', re: /\b(before|after|since|until)\s+(issue\s+\d+|commit\s+[0-9a-f]{7}|the\s+(fix|rewrite|refactor)\b)/gi },
  { what: 'a regression tag', re: /\bregression:/gi },
  { what: 'a past habit', re: /\b((it|they|this|that|which)\s+used\s+to|used\s+to\s+(be|stay|come|wait|make|answer|give|have|take|show|count))\b/gi },
  { what: 'a past state', re: /\b(previously|formerly|these days|as it was before|was changed to)\b/gi },
]

/** Phrases that match a pattern and still say what is: `file` and a text on the flagged line. */
const ALLOWED: ReadonlyArray<{ file: string; text: string; why: string }> = [
  { file: 'scripts/icons.mjs', text: '--no-audit', why: "npm's flag in the command line the comment gives" },
  { file: 'docs/decisions.md', text: '4 days before 2026-12-05', why: "the engine's refusal quoted: plan days before a campaign's start date" },
  { file: 'docs/decisions.md', text: '16 days after 2027-01-15', why: "the engine's refusal quoted: plan days after a campaign's end date" },
]

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`
    if (statSync(join(ROOT, rel)).isDirectory()) return name === 'node_modules' || rel === 'test/fixtures' ? [] : walk(rel)
    return /\.(ts|mts|cts|js|mjs|cjs|vue|sh|md)$/.test(name) && !name.endsWith('.d.ts') ? [rel] : []
  })
}

/** Every file read: sources by their folders, docs by name. */
const FILES = [
  ...['engine', 'renderer/src', 'bin', 'main', 'preload', 'scripts', 'bench', 'test'].flatMap(walk),
  ...readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`),
  'README.md',
].filter((f) => f !== 'test/architecture/present-tense.test.ts')

/** A Markdown text with the section under `heading` (to the next heading of its level or above) blanked, lines kept. */
function withoutSection(text: string, heading: string): string {
  const lines = text.split('\n')
  const level = /^#+/.exec(heading)![0].length
  let inside = false
  return lines
    .map((line) => {
      const h = /^(#+) /.exec(line)
      if (h && h[1]!.length <= level) inside = line.trim() === heading
      return inside ? '' : line
    })
    .join('\n')
}

/** The prose of a file as the header says. */
function textOf(file: string): string {
  const src = readFileSync(join(ROOT, file), 'utf8')
  return file === 'bench/README.md' ? withoutSection(src, '## Benchmark history') : prose(file, src)
}

/** The history phrases of a text: `file:line: phrase (what)`, allowed ones left out. */
function historyOf(file: string, text: string): string[] {
  const lines = text.split('\n')
  return PATTERNS.flatMap(({ what, re }) =>
    [...text.matchAll(re)].flatMap((m) => {
      const line = text.slice(0, m.index).split('\n').length
      const shown = m[0].replace(/\s+/g, ' ')
      const allowed = ALLOWED.some((a) => a.file === file && lines[line - 1]!.includes(a.text))
      return allowed ? [] : [`${file}:${line}: "${shown}" (${what})`]
    }),
  )
}

describe('present tense', () => {
  it('reads the comments and docs it names', () => {
    expect(FILES.length).toBeGreaterThan(500)
    for (const f of ['engine/dispatch.ts', 'docs/architecture.md', 'bench/README.md', 'README.md']) expect(FILES).toContain(f)
  })

  it('finds no dated history or change narrative in comments and docs', () => {
    const found = FILES.flatMap((f) => historyOf(f, textOf(f)))
    expect(found).toEqual([])
  })

  it('finds none in the titles of the tests either (a title is what a failing run prints)', () => {
    // (it.each([...])('title') too, its table on the same line)
    const title = /\b(?:it|describe|test)(?:\.\w+)?(?:\([^()]*\))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g
    const found = FILES.filter((f) => f.startsWith('test/') && /\.(ts|mts)$/.test(f)).flatMap((f) => {
      const src = readFileSync(join(ROOT, f), 'utf8')
      // (each title on the line it starts, so the line numbers are the file's)
      const titles = src.split('\n').map((line) => [...line.matchAll(title)].map((m) => m[2]).join(' '))
      return historyOf(f, titles.join('\n'))
    })
    expect(found).toEqual([])
  })

  it('allows only phrases that are still there', () => {
    const stale = ALLOWED.filter((a) => !readFileSync(join(ROOT, a.file), 'utf8').includes(a.text))
    expect(stale).toEqual([])
  })
})

describe('the benchmark history', () => {
  it('is the one section of bench/README.md left out, its lines kept', () => {
    const md = '# bench/\n## How\nuntil 2026-11-26\n## Benchmark history\n### Node.js 24\nuntil 2026-11-26\n## After\nuntil 2026-11-27\n'
    const left = withoutSection(md, '## Benchmark history').split('\n')
    expect(left).toEqual(['# bench/', '## How', 'until 2026-11-26', '', '', '', '## After', 'until 2026-11-27', ''])
    expect(readFileSync(join(ROOT, 'bench/README.md'), 'utf8').split('\n')).toContain('## Benchmark history')
  })
})

describe('the patterns', () => {
  /** Sample sentences and whether a pattern flags them. */
  const SAMPLES: ReadonlyArray<[string, boolean]> = [
    ['refused (until 2026-11-26 it was\n  accepted)', true],
    ['an audit of 2026-11-26 saw them kept', true],
    ['- 2026-11-26: bodies are limited', true],
    ['(found by a security audit)', true],
    ['Campaign detail (issue 4, deliverable 4)', true],
    ['counted as valid by the code before issue 24', true],
    ['Regression: flush() once resolved early', true],
    ['the calendar used to come after the table', true],
    ['it previously answered 200', true],
    ['a hit that arrives before the cookie check ends', false],
    ['clocks go from 02:00 to 03:00 on 2025-03-09', false],
    ['the remote no longer has it', false],
    ['the key used to sign tokens', false],
    ['the text earlier versions wrote for the address', false],
    ['npm install --no-audit', false],
    ['`from_date=2025-01-01`', false],
  ]
  it.each(SAMPLES)('%j flagged: %s', (text, flagged) => {
    expect(historyOf('x.md', text).length > 0).toBe(flagged)
  })
})

describe('comment text', () => {
  it('keeps comments and masks strings, templates and regular expressions', () => {
    const src = "const a = 'until 2026-11-26' // a comment\n/**\n * until 2026-11-26\n */\nconst r = /issue 4/g; const t = `used to ${x} // no`\n"
    const text = prose('x.ts', src)
    expect(historyOf('x.ts', text)).toEqual(['x.ts:3: "until 2026-11-26" (a change dated)'])
    expect(text.split('\n')[0]).toContain('a comment')
  })
  it('reads the comments of a Vue file in its template, script and style', () => {
    const src = '<template>\n  <!-- issue 4 -->\n  <p>issue 5</p>\n</template>\n<script setup lang="ts">\n// issue 6\nconst s = "issue 7"\n</script>\n<style>\n/* issue 8 */\n</style>\n'
    expect(historyOf('x.vue', prose('x.vue', src)).map((h) => h.split(':')[1])).toEqual(['2', '6', '10'])
  })
})
