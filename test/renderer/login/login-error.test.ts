// renderer/src/views/login/login-error.ts: why a sign-in was refused, in the interface's language
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { messages } from '../../../renderer/src/i18n'
import { loginErrorText } from '../../../renderer/src/views/login/login-error'
import { ACCOUNT, makeEngine, type TestEngine } from '../../helpers/make-engine'
import { asAppClient, clientRefusal } from '../app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const say = (r: { error: string; error_description: string }, lang: 'en' | 'zh' = 'zh') =>
  loginErrorText(r.error, r.error_description, (k, named) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k)), lang)

describe('loginErrorText: the refusals of /oauth/token', () => {
  let e: TestEngine
  /** The body of the token endpoint's refusal of the form's request with `form` changed. */
  const refusal = async (form: Record<string, string>) => {
    const r = await e.post('/oauth/token', { grant_type: 'password', ...ACCOUNT, ...form }, null)
    expect(r.status, r.raw.body).toBeGreaterThanOrEqual(400)
    return { error: r.body.error as string, error_description: clientRefusal(r) }
  }
  beforeAll(async () => {
    e = asAppClient(await makeEngine())
  })
  afterAll(() => e.engine.close())

  it('says a wrong password and an unknown client in the interface language', async () => {
    expect(say(await refusal({ password: 'wrong' }))).toBe('用户名或密码错误。')
    expect(say(await refusal({ username: 'nobody' }))).toBe('用户名或密码错误。')
    expect(say(await refusal({ client_secret: 'wrong' }))).toBe('客户端 ID 或客户端密钥错误。')
    expect(say(await refusal({ client_id: 'other' }), 'en')).toBe('The client id or client secret is wrong.')
  })

  it("says a field the endpoint's codecs refuse in Chinese, named by the form's label", async () => {
    expect(say(await refusal({ username: 'x'.repeat(256) }))).toBe('用户名：不能超过 255 个字符')
    expect(say(await refusal({ client_id: 'x'.repeat(256) }))).toBe('客户端 ID：不能超过 255 个字符')
    expect(say(await refusal({ client_secret: 'x'.repeat(1025) }))).toBe('客户端密钥：不能超过 1024 个字符')
    expect(say(await refusal({ password: 'a\u0001b' }))).toBe('密码：不能包含制表符或换行')
    expect(say(await refusal({ password: '' }))).toBe('密码：必填')
  })

  it("keeps the engine's sentence in English, and one it does not know", async () => {
    const long = await refusal({ username: 'x'.repeat(256) })
    expect(say(long, 'en')).toBe(long.error_description)
    expect(say({ error: 'temporarily_unavailable', error_description: 'Something new.' })).toBe('Something new.')
  })
})
