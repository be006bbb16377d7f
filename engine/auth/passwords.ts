/**
 * Secrets (passwords, client secrets) are stored only as salted scrypt hashes and compared in
 * constant time. Format: scrypt$N$r$p$<salt base64url>$<hash base64url>.
 */
import { scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const KEY_LEN = 32
const DEFAULT = { N: 16384, r: 8, p: 1 }

function derive(secret: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFC'), salt, KEY_LEN, { ...opts, maxmem: 64 << 20 }, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/** Hashes a secret with a fresh 16-byte salt taken from `salt`. */
export async function hashSecret(secret: string, salt: Uint8Array): Promise<string> {
  const s = Buffer.from(salt)
  const key = await derive(secret, s, DEFAULT)
  return `scrypt$${DEFAULT.N}$${DEFAULT.r}$${DEFAULT.p}$${s.toString('base64url')}$${key.toString('base64url')}`
}

/** True when `secret` matches `stored`. Takes the same time whether or not it matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  const expected = Buffer.from(parts[5] ?? '', 'base64url')
  const key = await derive(secret, Buffer.from(parts[4] ?? '', 'base64url'), { N, r, p })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** A hash that matches nothing, verified when the account does not exist (same timing). */
export const DUMMY_HASH = `scrypt$16384$8$1$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LEN).toString('base64url')}`
