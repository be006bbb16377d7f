// renderer/src/sync/messages.ts and problems.ts: why the stored secrets cannot be read, said in Chinese
import { chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { RemoteError } from '../../../engine/sync/remote-error'
import { toldOf } from '../../../engine/sync/said'
import { SecretVault, SecretsError, keyFileCipher } from '../../../engine/sync/secrets'
import { messageOf } from '../../../renderer/src/api/problems'
import { messages } from '../../../renderer/src/i18n'
import { syncText } from '../../../renderer/src/sync/messages'
import { problemText } from '../../../renderer/src/sync/problems'
import { heard } from '../app-client'

const i18n = (lang: 'en' | 'zh') => createI18n({ legacy: false, locale: lang, messages }).global
const tr = (lang: 'en' | 'zh') => (k: string, named?: Record<string, unknown>) => (named ? i18n(lang).t(k, named) : i18n(lang).t(k))
const say = (text: string, lang: 'en' | 'zh' = 'zh') => syncText(text, tr(lang), lang)

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const posix = process.platform !== 'win32'

/**
 * A data directory whose vault holds one profile's secrets, encrypted with the key file `key`;
 * `spoil` then changes the key file or the vault, and the message is what the vault's get() throws
 * (what a pull's status and "Test connection" carry: engine/sync/service.ts).
 */
async function readFailure(spoil: (key: string, secrets: string) => void): Promise<{ message: string; key: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'admonitor-secret-messages-'))
  dirs.push(dir)
  const key = join(dir, 'secret.key')
  const secrets = join(dir, 'data', 'secrets.json')
  const vault = new SecretVault(keyFileCipher(key), secrets)
  await vault.open(new Set())
  await vault.put('r', { password: 'pw', client_secret: 'cs' })
  spoil(key, secrets)
  const again = new SecretVault(keyFileCipher(key), secrets)
  await again.open(new Set(['r']))
  const err = await again.get('r').then(() => null, (e: unknown) => e as Error)
  expect(err).toBeInstanceOf(SecretsError)
  // what a pull's status and "Test connection" answer the app (engine/sync/service.ts)
  return { message: heard(toldOf(new RemoteError('no_secret', { text: err!.message, keyed: (err as SecretsError).problem }, false))), key }
}

describe('syncText: the stored secrets that cannot be read (engine/sync/secrets.ts)', () => {
  it.skipIf(!posix)('says a key file other users can read in Chinese, with its mode and the command', async () => {
    const { message, key } = await readFailure((k) => chmodSync(k, 0o644))
    expect(say(message)).toBe(`无法解密已保存的密钥（密钥文件 ${key} 可被其他用户读取（权限 644）；请运行：chmod 600 "${key}"）；请重新输入密码和客户端密钥。`)
  })

  it.skipIf(!posix)('says the secrets_unavailable refusal of storing them (a key file other users can read) in Chinese', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admonitor-secret-messages-'))
    dirs.push(dir)
    const key = join(dir, 'secret.key')
    writeFileSync(key, `${'ab'.repeat(32)}\n`)
    chmodSync(key, 0o644)
    const vault = new SecretVault(keyFileCipher(key), join(dir, 'data', 'secrets.json'))
    const err = await vault.put('r', { password: 'pw' }).then(() => null, (e: unknown) => e as Error)
    expect(say(messageOf(err))).toBe(`无法保存密钥：密钥文件 ${key} 可被其他用户读取（权限 644）；请运行：chmod 600 "${key}"。`)
  })

  it('says a key file of the wrong size in Chinese, with its sizes', async () => {
    const { message, key } = await readFailure((k) => writeFileSync(k, 'abcd\n', { mode: 0o600 }))
    expect(say(message)).toBe(`无法解密已保存的密钥（密钥文件 ${key} 中不是 32 字节的密钥（应为 64 位十六进制数字，该文件有 5 字节）。文件保持原样：请放回正确的密钥文件，或将此文件移走后重新输入密钥）；请重新输入密码和客户端密钥。`)
  })

  it('says a missing key file in Chinese', async () => {
    const { message, key } = await readFailure((k) => unlinkSync(k))
    expect(say(message)).toBe(`无法解密已保存的密钥（密钥文件 ${key} 不存在，无法读取已保存的密钥；请重新输入）；请重新输入密码和客户端密钥。`)
  })

  it("keeps the OS error of a key file that cannot be read as it is, in the Chinese sentence", async () => {
    const { message } = await readFailure((k) => {
      unlinkSync(k)
      mkdirSync(k, { mode: 0o700 })
    })
    const os = /^the stored secrets cannot be decrypted \((.*)\); enter/.exec(message)![1]!
    expect(os).toMatch(/^E[A-Z]+: /)
    expect(say(message)).toBe(`无法解密已保存的密钥（${os}）；请重新输入密码和客户端密钥。`)
  })

  it('says a stored secret of an unknown format in Chinese', async () => {
    const { message } = await readFailure((_, s) => writeFileSync(s, JSON.stringify({ format: 1, entries: { r: { password: 'eHg=', client_secret: 'eHg=' } } })))
    expect(say(message)).toBe('无法解密已保存的密钥（已保存的密钥格式无法识别）；请重新输入密码和客户端密钥。')
  })

  it('keeps the English interface in English', async () => {
    const { message } = await readFailure((k) => writeFileSync(k, 'abcd\n', { mode: 0o600 }))
    expect(say(message, 'en')).toBe(message)
  })
})

describe('problemText: a failed "Test connection"', () => {
  it('says the sentence in Chinese where it is known, rather than the code with the English', async () => {
    const { message, key } = await readFailure((k) => unlinkSync(k))
    expect(problemText('no_secret', message, tr('zh'), 'zh')).toBe(`无法解密已保存的密钥（密钥文件 ${key} 不存在，无法读取已保存的密钥；请重新输入）；请重新输入密码和客户端密钥。`)
    expect(problemText('no_secret', message, tr('en'), 'en')).toBe(message)
  })
})
