/**
 * Where sync keeps its secrets: `secrets.json` in the data directory, encrypted by the cipher the
 * caller passes (the desktop app: safeStorage) or else by AES-256-GCM with the key file
 * `secret.key` beside the data directory (never inside it). Memory storage (tests) keeps both in
 * memory.
 */
import { dirname, join } from 'node:path'
import { FileStorage } from '../storage/adapters/file'
import type { StoragePort } from '../storage/port'
import { SecretVault, keyFileCipher, memoryCipher, type SecretCipher } from './secrets'
import { SyncService, type SyncDeps, type SyncOptions } from './service'

/** The default key file of a data directory: beside it, so a copy of the directory alone reveals nothing. */
export const defaultKeyFile = (dataDir: string): string => join(dirname(dataDir), 'secret.key')

/** The service's own parts (the vault is made here), with where the data directory is. */
export interface OpenSyncOptions extends Omit<SyncDeps, 'vault' | 'options'> {
  storage: StoragePort
  cipher: SecretCipher | undefined
  options: SyncOptions | undefined
}

export async function openSync(o: OpenSyncOptions): Promise<SyncService> {
  const dir = o.storage instanceof FileStorage ? o.storage.dir : null
  const cipher = o.cipher ?? (dir ? keyFileCipher(defaultKeyFile(dir)) : memoryCipher())
  const vault = new SecretVault(cipher, dir ? join(dir, 'secrets.json') : null)
  const refs = o.db.query<{ secret_ref: string }>('SELECT secret_ref FROM sync_profiles').map((r) => r.secret_ref)
  const problem = await vault.open(new Set(refs))
  if (problem) o.log.error(`remote profile secrets: ${problem}`)
  return new SyncService({ db: o.db, clock: o.clock, random: o.random, log: o.log, vault, durable: o.durable, options: o.options ?? {} })
}
