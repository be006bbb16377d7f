/**
 * A set of non-negative integer keys (below 2^53) for the report kernels' "seen before?" questions,
 * emptied in O(1) between identities or persons. Open addressing over typed arrays with a stamp per
 * slot: `clear()` starts a new generation instead of touching the slots. About ten times faster
 * than a `Set<number>` on the kernels' pattern (many small sets, one after the other).
 */
export class StampSet {
  private keys: Float64Array
  private stamps: Uint32Array
  private mask: number
  private gen = 1
  private count = 0

  constructor(capacity = 1024) {
    let cap = 16
    while (cap < capacity * 2) cap *= 2
    this.keys = new Float64Array(cap)
    this.stamps = new Uint32Array(cap)
    this.mask = cap - 1
  }

  get size(): number {
    return this.count
  }

  clear(): void {
    this.count = 0
    if (++this.gen === 0xffffffff) {
      this.stamps.fill(0)
      this.gen = 1
    }
  }

  /** Adds `key`; true when it was not in the set. */
  add(key: number): boolean {
    let slot = hash(key) & this.mask
    for (;;) {
      if (this.stamps[slot] !== this.gen) break
      if (this.keys[slot] === key) return false
      slot = (slot + 1) & this.mask
    }
    this.stamps[slot] = this.gen
    this.keys[slot] = key
    if (++this.count * 2 > this.mask) this.grow()
    return true
  }

  has(key: number): boolean {
    let slot = hash(key) & this.mask
    for (;;) {
      if (this.stamps[slot] !== this.gen) return false
      if (this.keys[slot] === key) return true
      slot = (slot + 1) & this.mask
    }
  }

  private grow(): void {
    const { keys, stamps, gen } = this
    const cap = keys.length * 2
    this.keys = new Float64Array(cap)
    this.stamps = new Uint32Array(cap)
    this.mask = cap - 1
    this.gen = 1
    this.count = 0
    for (let s = 0; s < keys.length; s++) if (stamps[s] === gen) this.add(keys[s]!)
  }
}

/** Mixes both 32-bit halves of the key (Fibonacci hashing of each). */
function hash(key: number): number {
  const lo = key >>> 0
  const hi = (key / 4294967296) >>> 0
  return (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi + 0x7f4a7c15, 0x85ebca6b)) >>> 7
}
