// renderer/src/server/rotate.ts: what the account card says when the engine refuses to replace a
// secret through the HTTP API (the current password missing or wrong), with the engine's own sentences
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { messages } from '../../../renderer/src/i18n'
import { rotateProblem } from '../../../renderer/src/server/rotate'
import { makeEngine, toReply } from '../../helpers/make-engine'
import { asAppClient, clientRefusal } from '../app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const said = (lang: 'en' | 'zh', description: string) => rotateProblem(description, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)))

describe('rotateProblem', () => {
  it("says a missing or wrong current password in the interface's language, and any other refusal as the engine did", async () => {
    const t = asAppClient(await makeEngine())
    const refusal = async (form: Record<string, string>) => {
      const body = new URLSearchParams({ ...form, access_token: t.token }).toString()
      const r = await t.engine.handle({ method: 'POST', path: '/local/v1/account/rotate', query: {}, body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, remoteAddress: '127.0.0.1' })
      expect(r.status).toBe(400)
      return clientRefusal(toReply(r))
    }
    const missing = await refusal({ what: 'client_secret' })
    const wrong = await refusal({ what: 'client_secret', password: 'not-it' })
    const other = await refusal({ what: 'everything', password: 'not-it' })
    expect(said('zh', missing)).toBe('请输入当前密码后再重置。')
    expect(said('en', missing)).toBe('Enter the current password to replace a secret.')
    expect(said('zh', wrong)).toBe('当前密码不正确（多次输错会放慢后续尝试）。')
    expect(said('en', wrong)).toBe('That is not the current password (repeated wrong attempts are slowed down).')
    expect(said('zh', other)).toBe(other)
    expect(other).toContain("The 'what'")
  })
})
