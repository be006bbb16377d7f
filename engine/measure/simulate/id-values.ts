/**
 * Identity texts of simulated devices, in the forms the attribution writes (attribute/identity.ts,
 * device-ids.ts): `idfa:` and `oaid:` with a lower-case UUID, `imei:` with 15 digits (86 prefix,
 * Luhn check digit), `androidid:` with 16 lower-case hex digits, `amid:` with 32 lower-case hex digits. Each text is a function of the
 * simulation key and the identity number, so it is drawn once and only when first used. Texts
 * are written as bytes and decoded once: one flat string each, no concatenation.
 */
import { COOKIE_NAME } from '../attribute/identity'
import { ANDROID_LEGACY_IMEI_SHARE } from './distributions'
import { hash3 } from './hash'

/**
 * Device kind of a simulated identity: a PC browser or a phone by its id macro. `legacy` is an
 * Android phone without an OAID: its text is an Android id, or for a few an IMEI (drawn from the
 * identity's hash, so the kind fits in two bits).
 */
export const OS = { pc: 0, idfa: 1, oaid: 2, legacy: 3 } as const
export type OsCode = (typeof OS)[keyof typeof OS]

const PREFIX: Readonly<Record<OsCode, Buffer>> = {
  [OS.pc]: Buffer.from(`${COOKIE_NAME}:`, 'latin1'),
  [OS.idfa]: Buffer.from('idfa:', 'latin1'),
  [OS.oaid]: Buffer.from('oaid:', 'latin1'),
  [OS.legacy]: Buffer.from('androidid:', 'latin1'),
}
const IMEI = Buffer.from('imei:', 'latin1')
const HEX = Buffer.from('0123456789abcdef', 'latin1')
const DASH = 45
const ZERO = 48
const out = Buffer.alloc(64)

/** 32 hex digits of four hash words at out[at..]; a UUID (8-4-4-4-12, version 4, RFC variant) when `uuid`. */
function writeHex(key: number, j: number, at: number, uuid: boolean): number {
  let p = at
  for (let w = 0; w < 4; w++) {
    const h = hash3(key, j, w)
    for (let q = 0; q < 8; q++) {
      const digit = w * 8 + q
      if (uuid && (digit === 8 || digit === 12 || digit === 16 || digit === 20)) out[p++] = DASH
      out[p++] = HEX[(h >>> (28 - 4 * q)) & 15]!
    }
  }
  if (uuid) {
    out[at + 14] = ZERO + 4
    out[at + 19] = HEX[8 + (hash3(key, j, 4) & 3)]!
  }
  return p
}

/** An IMEI: 86, twelve digits and the Luhn check digit. */
function writeImei(key: number, j: number, at: number): number {
  out[at] = ZERO + 8
  out[at + 1] = ZERO + 6
  const a = hash3(key, j, 5) % 1_000_000
  const b = hash3(key, j, 6) % 1_000_000
  for (let q = 0; q < 6; q++) {
    out[at + 7 - q] = ZERO + (Math.floor(a / 10 ** q) % 10)
    out[at + 13 - q] = ZERO + (Math.floor(b / 10 ** q) % 10)
  }
  let sum = 0
  for (let i = 0; i < 14; i++) {
    let d = out[at + i]! - ZERO
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  out[at + 14] = ZERO + ((10 - (sum % 10)) % 10)
  return at + 15
}

/** 16 hex digits (an Android id) at out[at..]. */
function writeAndroidId(key: number, j: number, at: number): number {
  const end = writeHex(key, j, at, false)
  return end - 16
}

/** The identity text of simulated identity `j` of kind `os`. */
export function simulatedIdentity(os: OsCode, key: number, j: number): string {
  const imei = os === OS.legacy && hash3(key, j, 7) / 4294967296 < ANDROID_LEGACY_IMEI_SHARE
  const prefix = imei ? IMEI : PREFIX[os]
  prefix.copy(out, 0)
  const end = imei ? writeImei(key, j, prefix.length) : os === OS.legacy ? writeAndroidId(key, j, prefix.length) : writeHex(key, j, prefix.length, os !== OS.pc)
  return out.toString('latin1', 0, end)
}
