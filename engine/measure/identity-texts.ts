/**
 * The identity texts, id order: their UTF-8 bytes one after another in one buffer, and where each
 * ends. A million texts as strings cost a V8 string each (32 bytes of header and slice beside the
 * characters) and the array holding them; here a text costs its bytes and four more. A string is
 * made only when asked (text()); lookups compare and hash the bytes (TextIndex).
 */
import { ensure } from './grow'
import { hashText } from './text-hash'

export class IdentityTexts {
  /** The texts' UTF-8 bytes, the first `end(size - 1)` of them in use. */
  private bytes: Uint8Array<ArrayBuffer>
  /** ends[i]: the byte after text i (text i starts at ends[i - 1], text 0 at 0). */
  private ends: Uint32Array<ArrayBuffer>
  private count: number
  /** Whether every text is ASCII (a text's bytes are then its UTF-16 units). */
  private ascii: boolean

  /** `count` texts of `bytes` ending at `ends` (both may be longer: room for the next texts). */
  constructor(bytes = new Uint8Array(16 * 1024), ends = new Uint32Array(1024), count = 0, ascii = true) {
    this.bytes = bytes
    this.ends = ends
    this.count = count
    this.ascii = ascii
  }

  /**
   * Texts as a checkpoint keeps them: their lengths in UTF-16 units and their UTF-8 bytes in a
   * row. The bytes are taken, not copied: their length past the texts is room for the next ones.
   */
  static fromUnits(lengths: Uint32Array, blob: Uint8Array<ArrayBuffer>, used: number): IdentityTexts {
    const n = lengths.length
    const ends = new Uint32Array(Math.max(n + (n >> 3), 1024))
    // where each ends when every text is ASCII (a unit a byte), which the total then confirms: one pass
    let units = 0
    for (let i = 0; i < n; i++) ends[i] = units += lengths[i]!
    const ascii = units === used
    if (!ascii) {
      // a UTF-8 lead byte tells its sequence's length; a 4-byte one is two UTF-16 units
      for (let i = 0, at = 0; i < n; i++) {
        for (let left = lengths[i]!; left > 0; ) {
          const b = blob[at]!
          at += b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4
          left -= b >= 0xf0 ? 2 : 1
          if (left < 0 || at > used) throw new Error('checkpoint: identity texts and their bytes differ')
        }
        ends[i] = at
      }
    }
    if (n > 0 && ends[n - 1] !== used) throw new Error('checkpoint: identity texts and their bytes differ')
    return new IdentityTexts(blob, ends, n, ascii)
  }

  /** Texts of strings, id order. */
  static of(texts: Iterable<string>): IdentityTexts {
    const out = new IdentityTexts()
    for (const t of texts) out.push(t)
    return out
  }

  /** Every text, id order, as strings. */
  all(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.text(i))
  }

  /** Number of texts. */
  get size(): number {
    return this.count
  }

  /** Where text `i` starts in bytes(). */
  start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1]!
  }

  /** Byte `at` (Ingest reads a text's first byte ahead of its lookup). */
  byteAt(at: number): number {
    return this.bytes[at]!
  }

  /** Text `i` as a string (made afresh on each call). */
  text(i: number): string {
    const from = this.start(i)
    const b = this.bytes
    return Buffer.from(b.buffer, b.byteOffset + from, this.ends[i]! - from).toString(this.ascii ? 'latin1' : 'utf8')
  }

  /** Appends a text (id order). */
  push(text: string): void {
    const from = this.start(this.count)
    // (at most 3 UTF-8 bytes per UTF-16 unit)
    if (from + text.length * 3 > this.bytes.length) this.bytes = ensure(this.bytes, from + text.length * 3)
    const written = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).write(text, from, 'utf8')
    if (written !== text.length) this.ascii = false
    this.ends = ensure(this.ends, this.count + 1)
    this.ends[this.count++] = from + written
  }

  /** Whether text `i` is `s`. */
  equals(i: number, s: string): boolean {
    const from = this.start(i)
    const b = this.bytes
    if (this.ends[i]! - from === s.length) {
      for (let k = 0; k < s.length; k++) {
        const c = s.charCodeAt(k)
        if (c >= 0x80) return this.text(i) === s
        if (c !== b[from + k]) return false
      }
      return true
    }
    return !this.ascii && this.text(i) === s
  }

  /** Whether texts `i` and `j` are the same. */
  same(i: number, j: number): boolean {
    const [a, z, b] = [this.start(i), this.ends[i]!, this.start(j)]
    if (z - a !== this.ends[j]! - b) return false
    for (let k = 0; k < z - a; k++) if (this.bytes[a + k] !== this.bytes[b + k]) return false
    return true
  }

  /** hashText of text `i`, over its bytes when they are ASCII. */
  hashOf(i: number): number {
    const [from, to, b] = [this.start(i), this.ends[i]!, this.bytes]
    let h = 0x811c9dc5
    let any = 0
    for (let k = from; k < to; k++) {
      any |= b[k]!
      h = Math.imul(h ^ b[k]!, 0x01000193)
    }
    return any < 0x80 ? h | 0 : hashText(this.text(i))
  }

  /**
   * The first `n` texts as a checkpoint keeps them (fromUnits): their lengths in UTF-16 units and
   * a view of their bytes (never changed in place: new texts only append, or go to a new buffer).
   */
  units(n: number): { lengths: Uint32Array<ArrayBuffer>; blob: Uint8Array<ArrayBuffer> } {
    const lengths = new Uint32Array(n)
    const [ascii, b] = [this.ascii, this.bytes]
    for (let i = 0; i < n; i++) {
      const [from, to] = [this.start(i), this.ends[i]!]
      let units = to - from
      // (UTF-16 units: a byte that continues a sequence adds none, a 4-byte lead adds two)
      for (let k = from; !ascii && k < to; k++) units -= b[k]! >= 0xf0 ? -1 : b[k]! >= 0x80 && b[k]! < 0xc0 ? 1 : 0
      lengths[i] = units
    }
    return { lengths, blob: this.bytes.subarray(0, this.start(n)) }
  }
}
