/**
 * The desktop app encrypts the secrets of remote profiles with Electron's safeStorage (the OS
 * keychain) when it is really available; on Linux without a keyring safeStorage falls back to a
 * fixed key ("basic_text"), and the engine's own key file (mode 0600) is the better choice then.
 */
import { safeStorage } from 'electron'
import type { SecretCipher } from '../engine/sync/secrets'

export function safeStorageCipher(): SecretCipher | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return undefined
  return {
    encrypt: (text) => safeStorage.encryptString(text),
    decrypt: (bytes) => safeStorage.decryptString(Buffer.from(bytes)),
  }
}
