// engine/sync/secrets.ts: the key file cipher and the vault of ciphertexts
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SecretVault, keyFileCipher, memoryCipher } from '../../../engine/sync/secrets'

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'admonitor-secrets-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const posix = process.platform !== 'win32'

describe('keyFileCipher', () => {
  it('creates a 32-byte key file with mode 0600 on the first encryption and round-trips', async () => {
    const dir = tempDir()
    const path = join(dir, 'keys', 'secret.key')
    const c = keyFileCipher(path)
    expect(existsSync(path)).toBe(false)
    const box = await c.encrypt('pässwörd 密码')
    expect(readFileSync(path, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(Buffer.from(box).toString('utf8')).not.toContain('pässwörd')
    expect(await c.decrypt(box)).toBe('pässwörd 密码')
    // another process (a new cipher on the same file) reads it too
    expect(await keyFileCipher(path).decrypt(box)).toBe('pässwörd 密码')
  })

  it('refuses to decrypt with another key, and says when the key file is missing', async () => {
    const dir = tempDir()
    const box = await keyFileCipher(join(dir, 'a.key')).encrypt('x')
    await expect(keyFileCipher(join(dir, 'b.key')).decrypt(box)).rejects.toThrow(/key file .*b\.key is missing/)
    await keyFileCipher(join(dir, 'b.key')).encrypt('y')
    await expect(keyFileCipher(join(dir, 'b.key')).decrypt(box)).rejects.toThrow()
  })

  it.skipIf(!posix)('refuses a key file other users can read', async () => {
    const path = join(tempDir(), 'secret.key')
    writeFileSync(path, `${'ab'.repeat(32)}\n`)
    chmodSync(path, 0o644)
    await expect(keyFileCipher(path).encrypt('x')).rejects.toThrow(/can be read by other users \(mode 644\); run: chmod 600/)
  })
})

describe('keyFileCipher key creation', () => {
  it('agrees on one key when several ciphers create the key file at once', async () => {
    const path = join(tempDir(), 'secret.key')
    const ciphers = Array.from({ length: 8 }, () => keyFileCipher(path))
    const boxes = await Promise.all(ciphers.map((c, i) => c.encrypt(`secret ${i}`)))
    for (const [i, box] of boxes.entries()) expect(await keyFileCipher(path).decrypt(box)).toBe(`secret ${i}`)
    expect(readdirSync(dirname(path))).toEqual(['secret.key'])
  })

  it('replaces an empty key file (a crash while creating it left it; nothing was encrypted with it)', async () => {
    const path = join(tempDir(), 'secret.key')
    writeFileSync(path, '', { mode: 0o600 })
    await expect(keyFileCipher(path).decrypt(Buffer.alloc(40, 1))).rejects.toThrow(/key file .*secret\.key is empty/)
    const box = await keyFileCipher(path).encrypt('x')
    expect(readFileSync(path, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(await keyFileCipher(path).decrypt(box)).toBe('x')
    expect(readdirSync(dirname(path))).toEqual(['secret.key'])
  })

  it('agrees on one key when several ciphers replace an empty key file at once', async () => {
    const path = join(tempDir(), 'secret.key')
    writeFileSync(path, '', { mode: 0o600 })
    const boxes = await Promise.all(Array.from({ length: 8 }, (_, i) => keyFileCipher(path).encrypt(`secret ${i}`)))
    for (const [i, box] of boxes.entries()) expect(await keyFileCipher(path).decrypt(box)).toBe(`secret ${i}`)
    expect(readdirSync(dirname(path))).toEqual(['secret.key'])
  })

  it('refuses a key file that is not empty but holds no 32-byte key, says so, and leaves it as it is', async () => {
    const path = join(tempDir(), 'secret.key')
    writeFileSync(path, 'abcd\n', { mode: 0o600 })
    await expect(keyFileCipher(path).encrypt('x')).rejects.toThrow(/key file .*secret\.key does not hold a 32-byte key \(64 hex digits; it has 5 bytes\)/)
    expect(readFileSync(path, 'utf8')).toBe('abcd\n')
  })
})

describe('SecretVault', () => {
  it('keeps only ciphertexts in secrets.json, written atomically, and reads them back', async () => {
    const dir = tempDir()
    const cipher = keyFileCipher(join(dir, 'secret.key'))
    const path = join(dir, 'data', 'secrets.json')
    const v = new SecretVault(cipher, path)
    await v.open(new Set())
    await v.put('r1', { password: 'hunter2-password', client_secret: 'client-secret-xyz' })
    const text = readFileSync(path, 'utf8')
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('client-secret-xyz')
    expect(readdirSync(join(dir, 'data'))).toEqual(['secrets.json'])
    const again = new SecretVault(cipher, path)
    await again.open(new Set(['r1']))
    expect(await again.get('r1')).toEqual({ password: 'hunter2-password', client_secret: 'client-secret-xyz' })
    expect(again.has('r1')).toEqual({ password: true, client_secret: true })
  })

  it('keeps a member that an update does not send; drops entries no profile refers to, and temp files', async () => {
    const dir = tempDir()
    const path = join(dir, 'secrets.json')
    const v = new SecretVault(memoryCipher(), path)
    await v.put('keep', { password: 'a', client_secret: 'b' })
    await v.put('keep', { password: 'c' })
    await v.put('orphan', { password: 'x', client_secret: 'y' })
    expect(await v.get('keep')).toEqual({ password: 'c', client_secret: 'b' })
    writeFileSync(`${path}.tmp-1-dead`, 'half written')
    const reopened = new SecretVault(memoryCipher(), path)
    await reopened.open(new Set(['keep']))
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).entries)).toEqual(['keep'])
    expect(readdirSync(dir)).toEqual(['secrets.json'])
  })

  it('sets aside a file that is not JSON instead of refusing to start', async () => {
    const dir = tempDir()
    const path = join(dir, 'secrets.json')
    writeFileSync(path, '{"entries": {"r": ')
    const v = new SecretVault(memoryCipher(), path)
    expect(await v.open(new Set(['r']))).toMatch(/could not be read .*set aside as secrets\.json\.unreadable/)
    expect(v.has('r')).toEqual({ password: false, client_secret: false })
    expect(readdirSync(dir)).toEqual(['secrets.json.unreadable'])
  })

  it('says plainly when the secrets cannot be decrypted (another key)', async () => {
    const path = join(tempDir(), 'secrets.json')
    await new SecretVault(memoryCipher(), path).put('r', { password: 'a', client_secret: 'b' })
    const other = new SecretVault(memoryCipher(), path)
    await other.open(new Set(['r']))
    await expect(other.get('r')).rejects.toThrow(/cannot be decrypted .*enter the password and client secret again/)
  })
})
