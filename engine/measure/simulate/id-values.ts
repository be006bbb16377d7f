/**
 * The values simulated clients send: cookie values (32 lower-case hex digits), device ids (IDFA,
 * CAID, OAID as lower-case UUIDs; an Android id, 16 hex digits; an IMEI, 86, twelve digits and the
 * Luhn check digit). Each is a function of the simulation key (from the seed), the client number
 * and what the value is for, so it is drawn only when first needed and is the same on every run of
 * the seed. Values are written as bytes and decoded once: one flat string each.
 */
import { hash3 } from './hash'

/** What a value is for: its own stream of the key, so a client's ids differ from one another. */
export const VALUE = { cookie: 0x1b56c4e9, idfa: 0x2d3f6a11, caid: 0x3e5a9c27, oaid: 0x4a7b1d35, androidId: 0x5c9e3f43, imei: 0x6d1a5b51 } as const

const HEX = Buffer.from('0123456789abcdef', 'latin1')
const DASH = 45
const ZERO = 48
const out = Buffer.alloc(64)

/** 32 hex digits of four hash words at out[0..]; a UUID (8-4-4-4-12, version 4, RFC variant) when `uuid`. */
function writeHex(key: number, j: number, uuid: boolean): number {
  let p = 0
  for (let w = 0; w < 4; w++) {
    const h = hash3(key, j, w)
    for (let q = 0; q < 8; q++) {
      const digit = w * 8 + q
      if (uuid && (digit === 8 || digit === 12 || digit === 16 || digit === 20)) out[p++] = DASH
      out[p++] = HEX[(h >>> (28 - 4 * q)) & 15]!
    }
  }
  if (uuid) {
    out[14] = ZERO + 4
    out[19] = HEX[8 + (hash3(key, j, 4) & 3)]!
  }
  return p
}

/** A cookie value: 32 lower-case hex digits. */
export function hexValue(key: number, j: number): string {
  return out.toString('latin1', 0, writeHex(key, j, false))
}

/** A lower-case UUID version 4 (IDFA, CAID, OAID). */
export function uuidValue(key: number, j: number): string {
  return out.toString('latin1', 0, writeHex(key, j, true))
}

/** An Android id: 16 lower-case hex digits. */
export function androidIdValue(key: number, j: number): string {
  writeHex(key, j, false)
  return out.toString('latin1', 16, 32)
}

/** An IMEI: 86, twelve digits and the Luhn check digit. */
export function imeiValue(key: number, j: number): string {
  out[0] = ZERO + 8
  out[1] = ZERO + 6
  const a = hash3(key, j, 5) % 1_000_000
  const b = hash3(key, j, 6) % 1_000_000
  for (let q = 0; q < 6; q++) {
    out[7 - q] = ZERO + (Math.floor(a / 10 ** q) % 10)
    out[13 - q] = ZERO + (Math.floor(b / 10 ** q) % 10)
  }
  let sum = 0
  for (let i = 0; i < 14; i++) {
    let digit = out[i]! - ZERO
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  out[14] = ZERO + ((10 - (sum % 10)) % 10)
  return out.toString('latin1', 0, 15)
}
