/**
 * A stable least-significant-digit radix sort of positions by unsigned integer keys, with
 * reusable scratch arrays: hits in time order, and hits in identity order (so that the lookups
 * of per-identity data walk memory forwards instead of jumping at random).
 */
import { ensure } from '../grow'

const DIGIT = 11
const BUCKETS = 1 << DIGIT
const MASK = BUCKETS - 1

/** Sorts positions by keys; its results are views of its scratch arrays, valid until the next sort. */
export class RadixSorter {
  private keys = new Uint32Array(1024)
  private keysB = new Uint32Array(1024)
  private pos = new Int32Array(1024)
  private posB = new Int32Array(1024)
  private readonly counts = new Uint32Array(BUCKETS)

  /** Room for `n` keys: write the key of position i at [i] (each below the `limit` given to sort()). */
  keysFor(n: number): Uint32Array {
    this.keys = ensure(this.keys, n)
    this.keysB = ensure(this.keysB, n)
    this.pos = ensure(this.pos, n)
    this.posB = ensure(this.posB, n)
    return this.keys
  }

  /** Positions 0..n-1 ordered by the keys written (each below `limit`, at most 2^32); ties keep their order. */
  sort(n: number, limit: number): Int32Array {
    for (let i = 0; i < n; i++) {
      if (this.keys[i]! >= limit) throw new Error(`sort key ${this.keys[i]} is not below ${limit}`)
      this.pos[i] = i
    }
    let shift = 0
    do {
      this.pass(n, shift)
      shift += DIGIT
    } while (shift < 32 && (limit - 1) >>> shift > 0)
    return this.pos.subarray(0, n)
  }

  /** One counting pass on the digit at `shift`; the result is swapped into keys/pos. */
  private pass(n: number, shift: number): void {
    const { keys, pos, keysB, posB, counts } = this
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[(keys[i]! >>> shift) & MASK]!++
    let sum = 0
    for (let b = 0; b < BUCKETS; b++) {
      const c = counts[b]!
      counts[b] = sum
      sum += c
    }
    for (let i = 0; i < n; i++) {
      const at = counts[(keys[i]! >>> shift) & MASK]!++
      keysB[at] = keys[i]!
      posB[at] = pos[i]!
    }
    this.keys = keysB
    this.keysB = keys
    this.pos = posB
    this.posB = pos
  }
}
