/**
 * Counter-based randomness for the simulator: values that depend only on a key and a position
 * (a spot and a day, an identity number), whatever order they are asked for in.
 */

/** murmur3's 32-bit finaliser: a bijection that mixes every input bit into every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A 32-bit hash of a key and two integers. */
export function hash3(key: number, a: number, b: number): number {
  return fmix32(fmix32((key ^ Math.imul(a, 0x9e3779b1)) >>> 0) + Math.imul(b + 1, 0x632be5ab))
}

/** A number in [0, 1) fixed by a key and two integers. */
export function unit(key: number, a: number, b: number): number {
  return hash3(key, a, b) / 4294967296
}

/** The simulation key of a seed and a campaign: every stream of a simulation derives from it. */
export function simulationKey(seed: number, campaignId: number): number {
  return fmix32((fmix32(seed >>> 0) ^ Math.imul(campaignId, 0x27d4eb2f)) >>> 0)
}
