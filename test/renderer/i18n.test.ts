// renderer/src/i18n: every message exists in English and Chinese, none uses vue-i18n syntax, and every key a source file uses exists
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createI18n } from 'vue-i18n'
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

  it('lists the keys of every module in the same order in both languages', () => {
    for (const m of Object.keys(messages.en) as (keyof typeof messages.en)[]) expect(keys(messages.zh[m]), m).toEqual(keys(messages.en[m]))
  })

  it('shows every message as written: no text that vue-i18n reads as syntax (linked @, plural |, unescaped braces)', () => {
    const text = (o: unknown, k: string): string => String(k.split('.').reduce<unknown>((a, p) => (a as Record<string, unknown>)[p], o))
    for (const lang of ['en', 'zh'] as const) {
      const i18n = createI18n({ legacy: false, locale: lang, messages: { [lang]: messages[lang] }, missingWarn: false, fallbackWarn: false })
      const wrong: string[] = []
      for (const k of keys(messages[lang])) {
        const raw = text(messages[lang], k)
        // placeholders {name} and literals {'x'} are the only syntax a message may use
        const expected = raw.replace(/\{'([^']*)'\}/g, '$1')
        if (/\{\s*\w+\s*\}/.test(expected)) continue
        let shown: string
        try {
          shown = i18n.global.t(k)
        } catch (err) {
          shown = `compile error: ${(err as Error).message.split('\n')[0]}`
        }
        if (shown !== expected) wrong.push(`${k}: ${JSON.stringify(shown)}`)
      }
      expect(wrong, lang).toEqual([])
    }
  })

  it('writes English counts in the singular for one (a plural message, called with the count)', () => {
    const en = createI18n({ legacy: false, locale: 'en', messages: { en: messages.en } }).global
    const zh = createI18n({ legacy: false, locale: 'zh', messages: { zh: messages.zh } }).global
    for (const [key, one, two] of [['campaign.spots.count', '1 spot', '2 spots'], ['campaign.codes.count', '1 code', '2 codes'], ['campaign.minisites.eventCount', '1 event', '2 events'], ['campaign.bulk.created', '1 spot created.', '2 spots created.']] as const) {
      expect([en.t(key, { n: 1 }, 1), en.t(key, { n: 2 }, 2)]).toEqual([one, two])
      expect(zh.t(key, { n: 1 }, 1)).toContain('1')
    }
    expect(zh.t('campaign.spots.count', { n: 2 }, 2)).toBe('2 个广告位')
  })

  it('defines every literal key the renderer uses with t()', () => {
    const all = new Set(keys(messages.en))
    const root = join(__dirname, '..', '..', 'renderer', 'src')
    const missing: string[] = []
    let used = 0
    const byModule = new Map<string, number>()
    for (const f of sources(root)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) {
        const k = m[1]!
        used++
        byModule.set(k.split('.')[0]!, (byModule.get(k.split('.')[0]!) ?? 0) + 1)
        // a key may name a whole group (pluralised or looked up below it)
        if (!all.has(k) && ![...all].some((x) => x.startsWith(`${k}.`))) missing.push(`${f.slice(root.length + 1)}: ${k}`)
      }
    }
    expect(used).toBeGreaterThan(300)
    expect(byModule.get('sync')).toBeGreaterThan(60)
    expect(byModule.get('server')).toBeGreaterThan(50)
    expect(missing).toEqual([])
  })
})
