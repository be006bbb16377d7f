// An event import's lines that are not JSON objects (docs/import.md, "What happens"): through the
// import API each is rejected by a problem key whose argument is the character where its JSON
// breaks, counted by hand here, never by the JavaScript engine's English parser message; the app
// says each in English and in Chinese, the Chinese with no English of the parser in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { endpoints } from '../../../engine/contract/endpoints'
import { PROBLEM_WANTED_HEADER, type Problem } from '../../../engine/contract/problems'
import { messages } from '../../../renderer/src/i18n'
import { rememberMessages } from '../../../renderer/src/api/problems'
import { lineErrorText } from '../../../renderer/src/server/line-errors'
import { makeEngine, type TestEngine } from '../../helpers/make-engine'

let t: TestEngine
beforeAll(async () => {
  t = await makeEngine()
})
afterAll(async () => {
  await t.engine.close()
})

const LINES = [
  '{not json',
  '{"type":"click","ts":1736496000000,}',
  '{"type":"impression","identity":"idfa:名字" "ts":1}',
  '{"type":"click","ts":17364960',
  '[{"type":"click"}]',
  '{"type":"click","identity":"a\tb"}',
]
/** Each line's problem, counted by hand: the 1-based character where its JSON cannot go on. */
const WANT: Problem[] = [
  { key: 'line.json', args: { char: 2 } },
  { key: 'line.json', args: { char: 36 } },
  { key: 'line.json', args: { char: 43 } },
  { key: 'line.jsonEnd', args: {} },
  { key: 'line.notObject', args: {} },
  { key: 'line.json', args: { char: 30 } },
]
const say = (lang: 'en' | 'zh') => {
  const g = createI18n({ legacy: false, locale: lang, messages }).global
  return (k: string, named?: Record<string, unknown>) => (named ? g.t(k, named) : g.t(k))
}

describe('an event import of lines that are not JSON objects', () => {
  it('rejects each by where its JSON breaks, a problem the app says in English and Chinese without the parser\'s words', async () => {
    const r = await t.engine.handle({
      method: 'POST', path: endpoints['events.import'].path, query: { access_token: t.token, format: 'ndjson', wait: '1' },
      body: LINES.join('\n'), headers: { 'content-type': 'application/x-ndjson', [PROBLEM_WANTED_HEADER]: '1' },
    })
    expect(r.status, r.body).toBe(200)
    const job = JSON.parse(r.body) as { rejected: number; errors: { line: number; error: string; error_problem: Problem }[] }
    expect(job.rejected).toBe(LINES.length)
    expect(job.errors.map((e) => [e.line, e.error_problem])).toEqual(WANT.map((p, i) => [i + 1, p]))
    expect(job.errors.map((e) => e.error)).toEqual([
      'is not a JSON object: its JSON breaks at character 2',
      'is not a JSON object: its JSON breaks at character 36',
      'is not a JSON object: its JSON breaks at character 43',
      'is not a JSON object: the line ends before its JSON does',
      'is JSON but not an object; each line is one JSON object',
      'is not a JSON object: its JSON breaks at character 30',
    ])
    // the app keeps each line's problem as its client reads the job, and says it
    rememberMessages(job)
    const en = job.errors.map((e) => lineErrorText(e.error, say('en'), 'en'))
    const zh = job.errors.map((e) => lineErrorText(e.error, say('zh'), 'zh'))
    expect(en).toEqual(job.errors.map((e) => e.error))
    expect(zh).toEqual([
      '不是 JSON 对象：其 JSON 在第 2 个字符处出错',
      '不是 JSON 对象：其 JSON 在第 36 个字符处出错',
      '不是 JSON 对象：其 JSON 在第 43 个字符处出错',
      '不是 JSON 对象：该行在 JSON 结束之前就结束了',
      '是 JSON，但不是对象；每行须为一个 JSON 对象',
      '不是 JSON 对象：其 JSON 在第 30 个字符处出错',
    ])
    // no word of a parser's English (Unexpected, Expected, position, token ...) in either language
    for (const text of [...en, ...zh, ...job.errors.map((e) => JSON.stringify(e))]) expect(text).not.toMatch(/xpected|position|token|literal|property|valid JSON/i)
    for (const text of zh) expect(text.replace(/JSON/g, '')).not.toMatch(/[A-Za-z]/)
  })
})
