// renderer/src/i18n/messages/sync.ts: both languages, every key the Sync page uses
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { en, zh } from '../../../renderer/src/i18n/messages/sync'

const root = join(__dirname, '../../../renderer/src/views/sync')
const leaves = (o: object, path: string[] = []): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[[...path, k].join('.'), v] as [string, string]] : leaves(v as object, [...path, k])))
const files = [...readdirSync(root).filter((f) => /\.(vue|ts)$/.test(f)).map((f) => join(root, f)), ...readdirSync(join(root, 'modules')).map((f) => join(root, 'modules', f))]
const sources = files.map((f) => readFileSync(f, 'utf8'))

describe('sync messages', () => {
  it('has the same keys in English and Chinese', () => {
    expect(leaves(zh).map(([k]) => k)).toEqual(leaves(en).map(([k]) => k))
  })

  it('has no characters vue-i18n would read as syntax (linked messages, plurals, HTML)', () => {
    for (const [key, text] of [...leaves(en), ...leaves(zh)]) expect(text, key).not.toMatch(/[@|<>]/)
  })

  it('defines every literal key the page asks for', () => {
    const known = new Set(leaves(en).map(([k]) => `sync.${k}`))
    const used = sources.flatMap((s) => [...s.matchAll(/t\(\s*'(sync\.[\w.]+)'/g)].map((m) => m[1]!))
    expect(used.length).toBeGreaterThan(60)
    expect(used.filter((k) => !known.has(k))).toEqual([])
  })
})
