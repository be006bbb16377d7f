/**
 * The secrets of remote profiles (password, client secret), never in the database (DESIGN §4):
 * a cipher encrypts them and `secrets.json` in the data directory holds only the ciphertexts,
 * replaced atomically (temp file, fsync, rename). The desktop app passes Electron's safeStorage
 * as the cipher; the CLI and `serve` use AES-256-GCM with a random key in a key file (mode 0600)
 * kept outside the data directory, so a copy of the directory alone does not reveal them
 * (setup.ts: where).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdir, readFile, readdir, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { ApiError, E } from '../contract/errors'
import { describeProblem, problem, type Problem, type Told } from '../contract/problems'
import { createFileExclusive, writeFileAtomic } from '../storage/durable-file'
import { readSeen, removeIfUnchanged } from '../storage/lock'

/** Encrypts and decrypts one secret (Electron's safeStorage has this shape). */
export interface SecretCipher {
  encrypt(text: string): Uint8Array | Promise<Uint8Array>
  decrypt(bytes: Uint8Array): string | Promise<string>
  /**
   * Whether `bytes` decrypt only with an older key this cipher still reads (the shared key file of
   * the former default place): the vault encrypts such secrets again with the current key.
   */
  needsRekey?(bytes: Uint8Array): Promise<boolean>
}

export interface RemoteSecrets {
  password: string
  client_secret: string
}

const FORMAT = 1
const KEY_BYTES = 32

function aesCipher(key: () => Promise<Buffer>): { encrypt(text: string): Promise<Uint8Array>; decrypt(bytes: Uint8Array): Promise<string> } {
  return {
    async encrypt(text) {
      const iv = randomBytes(12)
      const c = createCipheriv('aes-256-gcm', await key(), iv)
      const body = Buffer.concat([c.update(text, 'utf8'), c.final()])
      return Buffer.concat([Buffer.from([FORMAT]), iv, c.getAuthTag(), body])
    },
    async decrypt(bytes) {
      const b = Buffer.from(bytes)
      if (b.length < 29 || b[0] !== FORMAT) throw new SecretsError(problem('secrets.format', {}))
      const d = createDecipheriv('aes-256-gcm', await key(), b.subarray(1, 13))
      d.setAuthTag(b.subarray(13, 29))
      return Buffer.concat([d.update(b.subarray(29)), d.final()]).toString('utf8')
    },
  }
}

/** A cipher whose key lives only in this process (memory storage: tests). */
export function memoryCipher(): SecretCipher {
  const key = randomBytes(KEY_BYTES)
  return aesCipher(async () => key)
}

/** Why the secrets cannot be read or stored, by its problem (the message is its English). */
export class SecretsError extends Error {
  constructor(readonly problem: Problem) {
    super(describeProblem(problem))
    this.name = 'SecretsError'
  }
}

/** What `err` says: its problem when it is a SecretsError, else its message (an OS error's own words). */
export const secretsTold = (err: unknown): Told => (err instanceof SecretsError ? err.problem : (err as Error).message)

/** Thrown for a key file of 0 bytes: what a crash while an earlier version created it leaves. */
class EmptyKeyError extends Error {
  constructor(path: string) {
    super(`the key file ${path} is empty`)
    this.name = 'EmptyKeyError'
  }
}

async function readKey(path: string): Promise<Buffer> {
  const s = await stat(path)
  if (process.platform !== 'win32' && (s.mode & 0o077) !== 0)
    throw new SecretsError(problem('secrets.keyFileMode', { path, perms: (s.mode & 0o777).toString(8), command: `chmod 600 "${path}"` }))
  const text = await readFile(path, 'utf8')
  if (text.length === 0) throw new EmptyKeyError(path)
  const key = Buffer.from(text.trim(), 'hex')
  if (key.length !== KEY_BYTES || text.trim().length !== KEY_BYTES * 2)
    throw new SecretsError(problem('secrets.keyFileSize', { path, bytes: KEY_BYTES, digits: KEY_BYTES * 2, size: text.length }))
  return key
}

/**
 * Creates the key file, complete or not at all: a fsynced temp file linked into place, so it never
 * replaces a key another process created meanwhile. Returns null when there is one.
 */
async function createKey(path: string): Promise<Buffer | null> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const key = randomBytes(KEY_BYTES)
  return (await createFileExclusive(path, Buffer.from(`${key.toString('hex')}\n`), dirname(path))) ? key : null
}

/** The key in `path`; when there is none (or an empty file), a new one if `create`, else an error. */
async function loadKey(path: string, create: boolean): Promise<Buffer> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const key = await readKey(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err instanceof EmptyKeyError ? err : Promise.reject(err)))
    if (key instanceof Buffer) return key
    if (!create) throw new SecretsError(problem(key instanceof EmptyKeyError ? 'secrets.keyFileEmpty' : 'secrets.keyFileMissing', { path }))
    const seen = await readSeen(path)
    // An empty key file is what a crash while an earlier version created one leaves: no secret can
    // have been encrypted with it, so it is replaced; only that file, never a key written since.
    if (seen?.text === '') await removeIfUnchanged(path, seen)
    else if (!seen) {
      const created = await createKey(path)
      if (created) return created
    }
  }
  throw new Error(`could not create the key file ${path}`)
}

/**
 * Where a key file is, found on first use: a path, or null when there is none yet and `create` is
 * false (a data directory whose key was never made).
 */
export type KeyPlace = (create: boolean) => Promise<string | null>

/** The key at `place`, read once (a failure is tried again next time). */
function keyLoader(place: KeyPlace): (create: boolean) => Promise<Buffer> {
  let key: Promise<Buffer> | null = null
  const find = async (create: boolean) => {
    const path = await place(create)
    if (path === null) throw new SecretsError(problem('secrets.noKeyFile', {}))
    return loadKey(path, create)
  }
  return (create) =>
    (key ??= find(create).catch((err: unknown) => {
      key = null
      throw err
    }))
}

const decrypts = (c: ReturnType<typeof aesCipher>, bytes: Uint8Array): Promise<boolean> => c.decrypt(bytes).then(() => true, () => false)

/**
 * AES-256-GCM with a random 32-byte key in the file at `place`, created (mode 0600) when the first
 * secret is stored. A missing key file when secrets exist means they cannot be read: enter them
 * again. With `older`, a key file that secrets were encrypted with before (read, never written):
 * what the current key cannot decrypt is tried with it, and needsRekey() names such secrets.
 */
export function keyFileCipher(place: string | KeyPlace, older?: string): SecretCipher {
  const load = keyLoader(typeof place === 'string' ? async () => place : place)
  const enc = aesCipher(() => load(true))
  const dec = aesCipher(() => load(false))
  if (older === undefined) return { encrypt: (t) => enc.encrypt(t), decrypt: (b) => dec.decrypt(b) }
  const loadOld = keyLoader(async () => older)
  const decOld = aesCipher(() => loadOld(false))
  return {
    encrypt: (t) => enc.encrypt(t),
    // (the current key's error is the one told: the older key is only a way in for old secrets)
    decrypt: (b) => dec.decrypt(b).catch((err: unknown) => decOld.decrypt(b).catch(() => Promise.reject(err))),
    needsRekey: async (b) => !(await decrypts(dec, b)) && (await decrypts(decOld, b)),
  }
}

interface Entry {
  password: string
  client_secret: string
}

/**
 * The ciphertexts, by reference (`sync_profiles.secret_ref`), in `<data dir>/secrets.json`, or in
 * memory when there is no data directory. Writes are serialised and durable when they resolve.
 */
export class SecretVault {
  private entries = new Map<string, Entry>()
  private writing: Promise<void> = Promise.resolve()

  constructor(private readonly cipher: SecretCipher, private readonly path: string | null) {}

  /**
   * Reads the file; drops temp files a crash left and entries no profile refers to. A file that
   * cannot be read as JSON (edited by hand) is set aside as secrets.json.unreadable rather than
   * stopping the engine: the profiles then ask for their secrets again. Returns a problem, if any.
   */
  async open(keep: ReadonlySet<string>): Promise<string> {
    if (!this.path) return ''
    const dir = dirname(this.path)
    for (const name of await readdir(dir).catch(() => [])) if (name.startsWith(`${basename(this.path)}.tmp-`)) await unlink(join(dir, name)).catch(() => undefined)
    let data: { entries?: Record<string, Entry> }
    try {
      data = JSON.parse(await readFile(this.path, 'utf8')) as typeof data
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ''
      if (!(err instanceof SyntaxError)) throw err
      await rename(this.path, `${this.path}.unreadable`)
      return `${this.path} could not be read (${err.message}); it was set aside as ${basename(this.path)}.unreadable`
    }
    for (const [ref, e] of Object.entries(data.entries ?? {})) if (keep.has(ref)) this.entries.set(ref, e)
    // (entries of a profile write the disk refused: dropped from the file when it takes writes; a
    // full disk must not stop the start, which then opens read-only)
    if (this.entries.size !== Object.keys(data.entries ?? {}).length) await this.save().catch(() => undefined)
    return this.rekey()
  }

  /**
   * Encrypts again, with the current key, the secrets only an older key decrypts (the cipher's
   * needsRekey), and saves them. Returns a problem, if any: the secrets are then still read with
   * the older key, and moved at the next start.
   */
  private async rekey(): Promise<string> {
    const c = this.cipher
    const needs = c.needsRekey?.bind(c)
    if (!needs) return ''
    const again = async (b64: string): Promise<string> => {
      const bytes = Buffer.from(b64, 'base64')
      if (!b64 || !(await needs(bytes))) return b64
      return Buffer.from(await c.encrypt(await c.decrypt(bytes))).toString('base64')
    }
    try {
      let moved = false
      for (const [ref, e] of this.entries) {
        const next = { password: await again(e.password), client_secret: await again(e.client_secret) }
        if (next.password === e.password && next.client_secret === e.client_secret) continue
        this.entries.set(ref, next)
        moved = true
      }
      if (moved) await this.save()
      return ''
    } catch (err) {
      return `the secrets could not be moved to this data directory's own key file (${(err as Error).message}); they are read with the older key file meanwhile`
    }
  }

  has(ref: string): { password: boolean; client_secret: boolean } {
    const e = this.entries.get(ref)
    return { password: Boolean(e?.password), client_secret: Boolean(e?.client_secret) }
  }

  /** The secrets in clear; throws a plain message when they cannot be decrypted. */
  async get(ref: string): Promise<RemoteSecrets> {
    const e = this.entries.get(ref)
    const dec = async (b64: string | undefined) => (b64 ? this.cipher.decrypt(Buffer.from(b64, 'base64')) : '')
    try {
      return { password: await dec(e?.password), client_secret: await dec(e?.client_secret) }
    } catch (err) {
      throw new SecretsError(problem('secrets.undecryptable', { reason: secretsTold(err) }))
    }
  }

  /**
   * Stores the given secrets under `ref` (members absent are taken from the entry `from`, by
   * default `ref` itself). A key file that cannot be used (read by other users, of the wrong size)
   * is refused as `secrets_unavailable` naming it and what to do, before anything is stored.
   */
  async put(ref: string, s: Partial<RemoteSecrets>, from = ref): Promise<void> {
    const enc = async (t: string | undefined) => (t === undefined ? undefined : Buffer.from(await this.cipher.encrypt(t)).toString('base64'))
    let password: string | undefined
    let client_secret: string | undefined
    try {
      ;[password, client_secret] = [await enc(s.password), await enc(s.client_secret)]
    } catch (err) {
      const unstorable = problem('secrets.unstorable', { reason: secretsTold(err) })
      throw new ApiError(E.secretsUnavailable, describeProblem(unstorable), {}, {}, unstorable)
    }
    const old = this.entries.get(from)
    this.entries.set(ref, { password: password ?? old?.password ?? '', client_secret: client_secret ?? old?.client_secret ?? '' })
    await this.save()
  }

  async remove(ref: string): Promise<void> {
    if (this.entries.delete(ref)) await this.save()
  }

  private save(): Promise<void> {
    const path = this.path
    if (!path) return Promise.resolve()
    const write = async () => {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      const text = JSON.stringify({ format: FORMAT, entries: Object.fromEntries(this.entries) }, null, 1)
      await writeFileAtomic(path, Buffer.from(text, 'utf8'), dirname(path))
    }
    this.writing = this.writing.catch(() => undefined).then(write)
    return this.writing
  }
}
