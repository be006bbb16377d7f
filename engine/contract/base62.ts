/**
 * spot_id_str is the base-62 form of spot_id (spec §2.3). The alphabet is 0-9A-Za-z: every
 * vendor example pairs spot 40 with "e", which only this order gives (vendor-notes §7.3).
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE = 62n

/** Encodes a non-negative integer id (decimal string or number) as base 62. */
export function toBase62(id: string | number | bigint): string {
  let n = BigInt(id)
  if (n < 0n) throw new RangeError('negative id')
  if (n === 0n) return '0'
  let out = ''
  while (n > 0n) {
    out = ALPHABET[Number(n % BASE)] + out
    n /= BASE
  }
  return out
}

/** Decodes a base-62 string to a decimal id string, or null when it is not base 62. */
export function fromBase62(text: string): string | null {
  if (!/^[0-9A-Za-z]{1,16}$/.test(text)) return null
  // (up to 8 digits the value is below 2^53, exact as a number: every tracking hit's spot comes here)
  if (text.length <= 8) {
    let v = 0
    for (let i = 0; i < text.length; i++) v = v * 62 + ALPHABET.indexOf(text[i]!)
    return String(v)
  }
  let n = 0n
  for (const ch of text) n = n * BASE + BigInt(ALPHABET.indexOf(ch))
  return n.toString()
}
