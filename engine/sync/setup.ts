/**
 * Where sync keeps its secrets: `secrets.json` in the data directory, encrypted by the cipher the
 * caller passes (the desktop app: safeStorage) or else by AES-256-GCM with the data directory's
 * own key file in the user's config folder (never inside the data directory, never shared with
 * another one). Memory storage (tests) keeps both in memory.
 */
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { PRODUCT_NAME, appDataDir } from '../server/paths'
import { FileStorage } from '../storage/adapters/file'
import { createFileExclusive } from '../storage/durable-file'
import type { StoragePort } from '../storage/port'
import { allSecretRefs } from '../storage/repos/sync-profiles'
import { SecretVault, keyFileCipher, memoryCipher, type KeyPlace, type SecretCipher } from './secrets'
import { SyncService, type SyncDeps, type SyncOptions } from './service'

/** The folder of the data directories' own key files: the user's, outside every data directory. */
export const keysDir = (env: NodeJS.ProcessEnv = process.env): string => join(appDataDir(env), PRODUCT_NAME, 'keys')

/**
 * `secret.key` in the data directory's parent: the key file of the former default place, which
 * sibling directories shared. Only read, for the secrets it encrypted (moved to the own key at start).
 */
export const sharedKeyFile = (dataDir: string): string => join(dirname(dataDir), 'secret.key')

/** The data directory's file naming its key (a random id, made with the key). */
const KEY_ID_FILE = 'secrets.key-id'
const KEY_ID = /^[0-9a-f]{32}$/

/**
 * A data directory's own key file: `<keys>/<id>.key`, the id a random one kept in the directory's
 * secrets.key-id, written when its key is first made (`create`). The key so follows the directory
 * when it moves, is not there for a copy on another account or machine, and is no other
 * directory's. Null when the directory has no key yet.
 */
export function ownKeyFile(dataDir: string, keys: string): KeyPlace {
  const idFile = join(dataDir, KEY_ID_FILE)
  const readId = () => readFile(idFile, 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)))
  return async (create) => {
    let id = await readId()
    if (id === null && create) {
      // (when another process made one meanwhile, that one counts)
      await createFileExclusive(idFile, Buffer.from(`${randomBytes(16).toString('hex')}\n`), dataDir)
      id = await readId()
    }
    if (id === null) return null
    if (!KEY_ID.test(id.trim())) throw new Error(`${idFile} does not hold a key id (32 hex digits); move it away and enter the secrets again`)
    return join(keys, `${id.trim()}.key`)
  }
}

/** The service's own parts (the vault is made here), with where the data directory is. */
export interface OpenSyncOptions extends Omit<SyncDeps, 'vault' | 'options'> {
  storage: StoragePort
  cipher: SecretCipher | undefined
  options: SyncOptions | undefined
}

export async function openSync(o: OpenSyncOptions): Promise<SyncService> {
  const dir = o.storage instanceof FileStorage ? o.storage.dir : null
  const cipher = o.cipher ?? (dir ? keyFileCipher(ownKeyFile(dir, keysDir()), sharedKeyFile(dir)) : memoryCipher())
  const vault = new SecretVault(cipher, dir ? join(dir, 'secrets.json') : null)
  const refs = allSecretRefs(o.db)
  const problem = await vault.open(new Set(refs))
  if (problem) o.log.error(`remote profile secrets: ${problem}`)
  return new SyncService({ db: o.db, clock: o.clock, random: o.random, log: o.log, vault, durable: o.durable, options: o.options ?? {} })
}
