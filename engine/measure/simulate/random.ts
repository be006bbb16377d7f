/**
 * The simulator's seeded generator: sfc32 kept in signed 32-bit arithmetic (`| 0`), which V8
 * runs about four times faster than the unsigned form, and Vose's alias tables for drawing from
 * a fixed distribution with one number. Never Math.random.
 */
import { fmix32 } from './hash'

/** A seeded 32-bit generator (sfc32): the same seed gives the same numbers on every machine. */
export class SimRandom {
  private a: number
  private b: number
  private c: number
  private d = 1

  constructor(seed: number) {
    this.a = fmix32(seed ^ 0x9e3779b9) | 0
    this.b = fmix32(seed ^ 0x243f6a88) | 0
    this.c = fmix32(seed ^ 0xb7e15162) | 0
    for (let i = 0; i < 12; i++) this.int()
  }

  /** A uniform signed 32-bit integer. */
  private int(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (((this.c << 21) | (this.c >>> 11)) + t) | 0
    return t
  }

  /** A uniform unsigned 32-bit integer. */
  u32(): number {
    return this.int() >>> 0
  }

  /** A uniform number in [0, 1). */
  next(): number {
    return (this.int() >>> 0) / 4294967296
  }
}

/** Draws index i with probability weights[i] / sum, in constant time (Vose's alias method). */
export class AliasTable {
  readonly size: number
  private readonly prob: Float64Array
  private readonly alias: Int32Array

  constructor(weights: ArrayLike<number>) {
    const n = (this.size = weights.length)
    this.prob = new Float64Array(n)
    this.alias = new Int32Array(n)
    let sum = 0
    for (let i = 0; i < n; i++) sum += weights[i]!
    const scaled = Float64Array.from({ length: n }, (_, i) => (weights[i]! * n) / sum)
    const small: number[] = []
    const large: number[] = []
    scaled.forEach((p, i) => (p < 1 ? small : large).push(i))
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!
      const l = large.pop()!
      this.prob[s] = scaled[s]!
      this.alias[s] = l
      scaled[l] = scaled[l]! + scaled[s]! - 1
      ;(scaled[l]! < 1 ? small : large).push(l)
    }
    for (const i of [...small, ...large]) (this.prob[i] = 1, this.alias[i] = i)
  }

  draw(rng: SimRandom): number {
    const u = rng.next() * this.size
    const i = Math.floor(u)
    return u - i < this.prob[i]! ? i : this.alias[i]!
  }
}
