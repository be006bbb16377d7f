/**
 * No renderer code reads the engine's English: the app says the engine's
 * refusals and messages by their problem keys (renderer/src/utils/problem-text.ts), so a reworded
 * sentence cannot silently break the Chinese interface. Every regular expression of renderer/src
 * (a literal, or the text given to `new RegExp`; read with the TypeScript parser, so comments do
 * not count) is checked for English prose: three words in a row, as a sentence of the engine's
 * has and a field's value check has not. A finding names file:line and the pattern.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** The script of a .vue file, else the file's text. */
const scriptOf = (file: string, text: string): string =>
  file.endsWith('.vue') ? [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text

/** Three words of letters in a row, spaces between (escapes and groups' syntax taken out first). */
export function readsProse(pattern: string): boolean {
  // (alternatives stay apart: a list of codes `pc|pm|pmo` is no prose)
  const bare = pattern.replace(/\\[a-zA-Z]/g, ' ').replace(/\|/g, '#').replace(/\(\?[:=!<]+|[()[\]^$*+?{}\\.]/g, ' ')
  return /\b[A-Za-z']{2,} [A-Za-z']{2,} [A-Za-z']{2,}\b/.test(bare)
}

/** The regular expressions of `text`: literals, and string or template texts given to RegExp. */
export function regexpsOf(file: string, text: string): { line: number; pattern: string }[] {
  const source = ts.createSourceFile(file, scriptOf(file, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const out: { line: number; pattern: string }[] = []
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) out.push({ line: at(node), pattern: node.text })
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const first = node.arguments?.[0]
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first))) out.push({ line: at(first), pattern: first.getText() })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

describe("the renderer reads no engine English", () => {
  it('checks itself: a sentence pattern is found, a value check and a comment are not', () => {
    const sample = [
      "// /^The remote failed on (\\S+) \\((.*)\\)\\.$/ in a comment",
      "const a = /^The remote failed on (\\S+) \\((.*)\\)\\.$/s",
      "const b = new RegExp(`^(.+?) (Nothing to send|\\\\d+ created)\\\\. What was not sent stays in the outbox`)",
      "const c = /^\\d{4}-\\d{2}-\\d{2}$/",
      "const d = /\\{(\\w+)\\}/g",
      "const e = /^china-(pc|pm|pmo)-(\\d{4})$/",
    ].join('\n')
    const found = regexpsOf('sample.ts', sample).filter((r) => readsProse(r.pattern)).map((r) => r.line)
    expect(found).toEqual([2, 3])
  })

  it('has no regular expression over English sentences, and no table of them', () => {
    const findings = filesUnder(join(ROOT, 'renderer', 'src')).flatMap((file) => {
      const text = readFileSync(file, 'utf8')
      const name = relative(ROOT, file)
      const tables = /\b(SentenceRule|sayKnown)\b/.test(text) ? [`${name}: a table of engine sentences (SentenceRule, sayKnown)`] : []
      return [...tables, ...regexpsOf(file, text).filter((r) => readsProse(r.pattern)).map((r) => `${name}:${r.line}: ${r.pattern}`)]
    })
    expect(findings).toEqual([])
  })
})
