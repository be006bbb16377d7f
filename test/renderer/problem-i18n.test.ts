// The problem catalogue (engine/contract/problems.ts) and the renderer's i18n `problem.*`: English
// and Chinese say every key, the English entries are the engine's own words, and no renderer code
// says a catalogue refusal by reading its English (a refusal whose problem the client did not read
// is shown as the engine wrote it).
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { PROBLEMS, describe as describeProblem, type ProblemArgs, type ProblemKey } from '../../engine/contract/problems'
import { messages } from '../../renderer/src/i18n'
import { reportText } from '../../renderer/src/reports/refusals'
import { importMessageText, lineErrorText } from '../../renderer/src/server/line-errors'
import { refusalText } from '../../renderer/src/server/refusals'
import { rotateProblem } from '../../renderer/src/server/rotate'
import { syncText } from '../../renderer/src/sync/messages'
import { engineNotice } from '../../renderer/src/utils/engine-notice'
import { fieldMessage } from '../../renderer/src/utils/field-message'
import { formAlert } from '../../renderer/src/utils/form-alert'

const KEYS = Object.keys(PROBLEMS) as ProblemKey[]
const tr = (lang: 'en' | 'zh') => {
  const g = createI18n({ legacy: false, locale: lang, messages }).global
  return (k: string, named?: Record<string, unknown>) => (named ? g.t(k, named) : g.t(k))
}
const entry = (lang: 'en' | 'zh', key: string): unknown => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], messages[lang].problem)

/** The keys of the entries under messages[lang].problem, but the words problems' arguments hold. */
function entryKeys(lang: 'en' | 'zh'): string[] {
  const { word: _, ...byKey } = messages[lang].problem
  return Object.entries(byKey).flatMap(([group, o]) => Object.keys(o).map((k) => `${group}.${k}`))
}

/** Arguments that are a nested problem (its English stands inside the sentence, with or without its full stop). */
const NESTED: Readonly<Record<string, Record<string, { key: ProblemKey; args: ProblemArgs }>>> = {
  'outbox.badMember': { reason: { key: 'param.date', args: { param: 'start_date', got: 'soon' } } },
  'batch.item': { reason: { key: 'param.tooLong', args: { param: 'placement_name', max: 255 } } },
  'panel.notCsv': { reason: { key: 'panelFile.columnTwice', args: { column: 'weight' } } },
  'snapshot.refusedBy': { reason: { key: 'outbox.notParam', args: { param: 'params', member: 'bogus', path: 'basic/show' } } },
  'sync.then': { first: { key: 'sync.jobCancelled', args: { what: 'pull' } }, next: { key: 'pull.listSkipped', args: { records: 'region', reason: { key: 'remote.noPath', args: { path: '/cms/v1/regions/list' } } } } },
  'pull.campaignSkipped': { reason: { key: 'remote.refused', args: { path: '/cms/v1/campaigns/list_spots', said: 'HTTP 403' } } },
  'pull.listSkipped': { reason: { key: 'remote.noPath', args: { path: '/cms/v1/regions/list' } } },
  'push.and': { first: { key: 'push.created', args: { n: 1 } }, next: { key: 'push.failed', args: { n: 2 } } },
  'push.done': { outcomes: { key: 'push.created', args: { n: 1 } } },
  'push.stopped': { reason: { key: 'sync.jobCancelled', args: { what: 'push' } }, summary: { key: 'push.nothing', args: {} } },
  'secrets.undecryptable': { reason: { key: 'secrets.keyFileMissing', args: { path: '/d/sync.key' } } },
  'secrets.unstorable': { reason: { key: 'secrets.format', args: {} } },
  'measure.fullAnd': { first: { key: 'measure.fullCampaign', args: { id: 3, capacity: '1,000' } }, next: { key: 'measure.fullMinisite', args: { id: 2, capacity: '1,000' } } },
}

/** A value as real refusals have it: a number, a date, a parameter's name, or a word. */
function value(name: string): string {
  if (/^(id|n|max|min|index|days|dates|status|owner|spot|panel|campaign|own|chosen|persons|events|capacity|line|size|bytes|digits|perms|got|header|keyword|minisite|event)$/.test(name)) return '17'
  if (name === 'device') return 'idfa:ABC'
  if (/^(date|start|end|today|begin|last|otherDate|from|to|at)$/.test(name)) return '2025-01-12'
  if (name === 'param' || name.endsWith('Param')) return 'end_date'
  return 'Spring'
}

/** Sample arguments for `key`: each placeholder of its English entry, and `param`; `shown` as the entries are given them, a nested problem with and without its full stop. */
function sample(key: ProblemKey): { args: ProblemArgs; shown: Record<string, string>[] } {
  const names = [...String(entry('en', key)).matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const plain: Record<string, string> = Object.fromEntries(['param', ...names].map((n) => [n, value(n)]))
  const nested = Object.entries(NESTED[key] ?? {})
  const args = { ...plain, ...Object.fromEntries(nested) }
  const full = Object.fromEntries(nested.map(([name, p]) => [name, describeProblem(p.key, p.args as never)]))
  const stopless = Object.fromEntries(Object.entries(full).map(([name, text]) => [name, text.replace(/\.$/, '')]))
  return { args, shown: [{ ...plain, ...full }, { ...plain, ...stopless }] }
}

describe('the problem catalogue in the interface', () => {
  it('has an English and a Chinese entry for every key, and none for a key it does not have', () => {
    for (const lang of ['en', 'zh'] as const) {
      expect(KEYS.filter((k) => typeof entry(lang, k) !== 'string'), lang).toEqual([])
      expect(entryKeys(lang).filter((k) => !(k in PROBLEMS)), lang).toEqual([])
    }
  })

  it("has the engine's own words in English: a parameter's problem follows \"The '<param>' \"", () => {
    const en = tr('en')
    for (const key of KEYS) {
      const { args, shown } = sample(key)
      const text = describeProblem(key, args as never)
      const said = shown.map((s) => en(`problem.${key}`, s)).map((e) => (text.startsWith("The 'end_date' ") ? `The 'end_date' ${e}.` : e))
      expect(said, key).toContain(text)
    }
  })

  it("says each key in Chinese with every argument's value", () => {
    const zh = tr('zh')
    for (const key of KEYS) {
      const said = zh(`problem.${key}`, sample(key).shown[0])
      expect(said, key).not.toMatch(/\{\w+\}|problem\./)
      // an entry that only joins nested problems (sync.then, push.and ...) has no words of its own
      if (/[\p{L}]/u.test(String(entry('zh', key)).replace(/\{\w+\}/g, ''))) expect(said, key).toMatch(/[\u4e00-\u9fff]/)
    }
  })

  it("leaves a refusal whose problem the client did not read as the engine wrote it: no screen reads the catalogue's English", () => {
    const zh = tr('zh')
    const none = () => undefined
    const screens: [string, (text: string) => string][] = [
      ['fieldMessage', (s) => fieldMessage(s, zh, 'zh')],
      ['formAlert', (s) => formAlert(s, zh, 'zh', none)],
      ['engineNotice', (s) => engineNotice(s, zh, 'zh', none)],
      ['syncText', (s) => syncText(s, zh, 'zh')],
      ['reportText', (s) => reportText(s, zh, 'zh')],
      ['refusalText', (s) => refusalText(s, zh, 'zh')],
      ['lineErrorText', (s) => lineErrorText(s, zh, 'zh')],
      ['importMessageText', (s) => importMessageText(s, zh, 'zh')],
      ['rotateProblem', (s) => rotateProblem(s, zh)],
    ]
    const read = KEYS.flatMap((key) => {
      const text = describeProblem(key, sample(key).args as never)
      return screens.filter(([, say]) => say(text) !== text).map(([name]) => `${name}: ${key}`)
    })
    expect(read).toEqual([])
  })
})
