// renderer/src/sync/problems.ts: a remote problem said in the interface's language
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { REMOTE_PROBLEMS } from '../../../engine/contract/endpoints-sync'
import { problem } from '../../../engine/contract/problems'
import { messages } from '../../../renderer/src/i18n'
import { problemText } from '../../../renderer/src/sync/problems'
import { heard } from '../app-client'

const say = (lang: 'en' | 'zh', problem: string, message: string) => {
  const g = createI18n({ legacy: false, locale: lang, messages }).global
  return problemText(problem, message, (k, named) => (named ? g.t(k, named) : g.t(k)), lang)
}

describe('problemText', () => {
  it('says what each problem means in Chinese, then the engine\'s details (it showed only the English)', () => {
    expect(say('zh', 'unreachable', 'A failure of a new kind.')).toBe('无法连接远端服务：请检查基础地址和网络（A failure of a new kind.）')
    for (const p of REMOTE_PROBLEMS) {
      expect(messages.zh.sync.problem[p], p).toMatch(/[\u4e00-\u9fff]/)
      expect(messages.en.sync.problem[p], p).toBeTruthy()
    }
  })

  it('says a message whose problem the app was told in Chinese alone (it names the host and what to do)', () => {
    expect(say('zh', 'unreachable', heard(problem('remote.cannotReach', { host: '127.0.0.1:1', said: 'fetch failed' })))).toBe('无法连接 127.0.0.1:1：fetch failed。')
  })

  it("keeps the engine's sentence in English, and for a problem it does not know", () => {
    expect(say('en', 'unreachable', 'Cannot reach x.')).toBe('Cannot reach x.')
    expect(say('zh', 'something_new', 'Odd.')).toBe('Odd.')
  })
})
