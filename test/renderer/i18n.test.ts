// renderer/src/i18n: every message exists in English and Chinese, and every key a source file uses exists
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { messages } from '../../renderer/src/i18n'

function keys(o: unknown, prefix = ''): string[] {
  if (typeof o !== 'object' || o === null) return [prefix]
  return Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n)
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|vue)$/.test(n) ? [p] : []
  })
}

describe('messages', () => {
  it('has the same keys in both languages, none empty', () => {
    expect(keys(messages.zh).sort()).toEqual(keys(messages.en).sort())
    const empty = (o: unknown): string[] => keys(o).filter((k) => k.split('.').reduce<unknown>((a, p) => (a as Record<string, unknown>)[p], o) === '')
    expect(empty(messages.en)).toEqual([])
    expect(empty(messages.zh)).toEqual([])
  })

  it('defines every literal key the renderer uses with t()', () => {
    const all = new Set(keys(messages.en))
    const root = join(__dirname, '..', '..', 'renderer', 'src')
    const missing: string[] = []
    let used = 0
    for (const f of sources(root)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) {
        const k = m[1]!
        used++
        // a key may name a whole group (pluralised or looked up below it)
        if (!all.has(k) && ![...all].some((x) => x.startsWith(`${k}.`))) missing.push(`${f.slice(root.length + 1)}: ${k}`)
      }
    }
    expect(used).toBeGreaterThan(300)
    expect(missing).toEqual([])
  })
})
