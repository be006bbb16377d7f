/**
 * A seeded pseudo-random generator for the demo panel (sfc32, seeded through splitmix32): the
 * same seed gives the same panel on every machine. Never Math.random.
 */
import { firstAbove } from '../../search'

function splitmix32(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x9e3779b9) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad)
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97)
    return (z ^ (z >>> 15)) >>> 0
  }
}

/** Deterministic random numbers from a 32-bit seed. */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: number) {
    const mix = splitmix32(seed)
    this.a = mix()
    this.b = mix()
    this.c = mix()
    this.d = mix()
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0
    this.d = (this.d + 1) >>> 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) >>> 0
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0
    this.c = (this.c + t) >>> 0
    return t
  }

  /** A uniform number in [0, 1). */
  next(): number {
    return this.u32() / 4294967296
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** An index drawn with the given (non-negative, not all zero) weights. */
  pick(weights: readonly number[]): number {
    let total = 0
    for (const w of weights) total += w
    let x = this.next() * total
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!
      if (x < 0) return i
    }
    return weights.length - 1
  }

  /** `n` lower-case hexadecimal digits. */
  hex(n: number): string {
    let s = ''
    while (s.length < n) s += this.u32().toString(16).padStart(8, '0')
    return s.slice(0, n)
  }

  /** `n` decimal digits. */
  digits(n: number): string {
    let s = ''
    for (let i = 0; i < n; i++) s += String(this.u32() % 10)
    return s
  }
}

/** Cumulative table for fast repeated draws from one distribution (binary search). */
export class Sampler {
  private readonly cum: Float64Array

  constructor(weights: readonly number[]) {
    this.cum = new Float64Array(weights.length)
    let t = 0
    weights.forEach((w, i) => (this.cum[i] = t += w))
  }

  draw(rng: Pick<Rng, 'next'>): number {
    return firstAbove(this.cum, rng.next() * this.cum[this.cum.length - 1]!)
  }
}
