// renderer/src/i18n/messages/server.ts: both languages, every key the server screens use
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { en, zh } from '../../../renderer/src/i18n/messages/server'

const root = join(__dirname, '../../../renderer/src')
const leaves = (o: object, path: string[] = []): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[[...path, k].join('.'), v] as [string, string]] : leaves(v as object, [...path, k])))
const sources = [
  ...['FirstRunDialog.vue', 'SecretsModal.vue', 'CopyField.vue'].map((f) => join(root, 'components', f)),
  join(root, 'views/server/index.vue'),
  ...readdirSync(join(root, 'views/server/modules')).map((f) => join(root, 'views/server/modules', f)),
].map((f) => readFileSync(f, 'utf8'))

describe('server messages', () => {
  it('has the same keys in English and Chinese', () => {
    expect(leaves(zh).map(([k]) => k)).toEqual(leaves(en).map(([k]) => k))
  })

  it('has no characters vue-i18n would read as syntax (linked messages, plurals, HTML)', () => {
    for (const [key, text] of [...leaves(en), ...leaves(zh)]) expect(text, key).not.toMatch(/[@|<>]/)
  })

  it('defines every literal key the screens ask for', () => {
    const known = new Set(leaves(en).map(([k]) => `server.${k}`))
    const used = sources.flatMap((s) => [...s.matchAll(/t\(\s*'(server\.[\w.]+)'/g)].map((m) => m[1]!))
    expect(used.length).toBeGreaterThan(50)
    expect(used.filter((k) => !known.has(k))).toEqual([])
  })
})
