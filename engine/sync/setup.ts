/**
 * Where sync keeps its secrets: `secrets.json` in the data directory, encrypted by the cipher the
 * caller passes (the desktop app: safeStorage) or else by AES-256-GCM with the key file
 * `secret.key` beside the data directory (never inside it). Memory storage (tests) keeps both in
 * memory.
 */
import { dirname, join } from 'node:path'
import type { Clock, Logger, Random } from '../runtime'
import type { Db } from '../storage/db'
import { FileStorage } from '../storage/adapters/file'
import type { StoragePort } from '../storage/port'
import { SecretVault, keyFileCipher, memoryCipher, type SecretCipher } from './secrets'
import { SyncService, type SyncOptions } from './service'

/** The default key file of a data directory: beside it, so a copy of the directory alone reveals nothing. */
export const defaultKeyFile = (dataDir: string): string => join(dirname(dataDir), 'secret.key')

export interface OpenSyncOptions {
  storage: StoragePort
  cipher: SecretCipher | undefined
  options: SyncOptions | undefined
  db: Db
  clock: Clock
  random: Random
  log: Logger
  durable: () => Promise<void>
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
