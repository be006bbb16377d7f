/**
 * Where a line stops being JSON (RFC 8259, what JSON.parse reads), for a rejected import line's
 * problem: the character a user looks at in their file, found without the JavaScript engine's
 * English parser message. Read only for a line JSON.parse refused.
 */

/** A JSON text's break: the 1-based character (code point) where it cannot go on, or `end` when the text ends before its value does. */
export type JsonBreak = { char: number } | 'end'

/** What value() answers when it opened a container: a value (or the key before it) is still to come. */
const OPENED = -2
const QUOTE = 0x22
const BACKSLASH = 0x5c
const ESCAPED = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)))

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)

/**
 * The break of `text`, or null when it is JSON. Containers are followed on a stack of their own,
 * not by recursion: a line of a million `[` breaks at its end, not this function's call stack.
 */
export function jsonBreak(text: string): JsonBreak | null {
  const at = new Scan(text).breakIndex()
  if (at < 0) return null
  return at >= text.length ? 'end' : { char: [...text.slice(0, at)].length + 1 }
}

/** One pass over a text: `i` is the next character; each step answers the index where the text breaks, or -1 when it goes on. */
class Scan {
  private i = 0
  /** The open containers: `{` (0x7b) or `[` (0x5b). */
  private readonly open: number[] = []

  constructor(private readonly s: string) {}

  /** The index where the text breaks (its length when it ends early), or -1 when it is JSON. */
  breakIndex(): number {
    const s = this.s
    for (;;) {
      const v = this.value()
      if (v >= 0) return v
      if (v === OPENED) continue
      // after a value: the containers it closes, then a comma and the next value, or the end
      for (;;) {
        this.space()
        const top = this.open.at(-1)
        if (top === undefined) return this.i < s.length ? this.i : -1
        if (this.i >= s.length) return this.i
        const c = s.charCodeAt(this.i)
        if (c === (top === 0x7b ? 0x7d : 0x5d)) {
          this.i++
          this.open.pop()
          continue
        }
        if (c !== 0x2c) return this.i
        this.i++
        if (top === 0x7b) {
          const k = this.key()
          if (k >= 0) return k
        }
        break
      }
    }
  }

  private space(): void {
    while (this.i < this.s.length && isSpace(this.s.charCodeAt(this.i))) this.i++
  }

  /** A value (-1), or the opening of a container and its first member's key (OPENED: a value comes next). */
  private value(): number {
    const s = this.s
    this.space()
    if (this.i >= s.length) return this.i
    const c = s.charCodeAt(this.i)
    if (c === 0x7b || c === 0x5b) {
      this.i++
      this.space()
      if (s.charCodeAt(this.i) === c + 2) {
        // {} or []
        this.i++
        return -1
      }
      this.open.push(c)
      const k = c === 0x7b ? this.key() : -1
      return k >= 0 ? k : OPENED
    }
    if (c === QUOTE) return this.string()
    if (c === 0x2d || isDigit(c)) return this.number()
    for (const word of ['true', 'false', 'null']) if (word.charCodeAt(0) === c) return this.word(word)
    return this.i
  }

  /** A member's key and its colon. */
  private key(): number {
    this.space()
    if (this.i >= this.s.length) return this.i
    if (this.s.charCodeAt(this.i) !== QUOTE) return this.i
    const k = this.string()
    if (k >= 0) return k
    this.space()
    if (this.i >= this.s.length) return this.i
    if (this.s.charCodeAt(this.i) !== 0x3a) return this.i
    this.i++
    return -1
  }

  private string(): number {
    const s = this.s
    this.i++
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i)
      if (c === QUOTE) {
        this.i++
        return -1
      }
      if (c < 0x20) return this.i
      this.i++
      if (c !== BACKSLASH) continue
      if (this.i >= s.length) return this.i
      const e = s.charCodeAt(this.i)
      if (ESCAPED.has(e)) {
        this.i++
        continue
      }
      if (e !== 0x75) return this.i
      this.i++
      for (let n = 0; n < 4; n++, this.i++) {
        if (this.i >= s.length) return this.i
        if (!isHex(s.charCodeAt(this.i))) return this.i
      }
    }
    return this.i
  }

  private number(): number {
    const s = this.s
    if (s.charCodeAt(this.i) === 0x2d) this.i++
    if (this.i >= s.length) return this.i
    const first = s.charCodeAt(this.i)
    if (!isDigit(first)) return this.i
    this.i++
    if (first !== 0x30) this.digits()
    if (s.charCodeAt(this.i) === 0x2e) {
      this.i++
      const d = this.someDigits()
      if (d >= 0) return d
    }
    const e = s.charCodeAt(this.i)
    if (e === 0x65 || e === 0x45) {
      this.i++
      const sign = s.charCodeAt(this.i)
      if (sign === 0x2b || sign === 0x2d) this.i++
      const d = this.someDigits()
      if (d >= 0) return d
    }
    return -1
  }

  private digits(): void {
    while (this.i < this.s.length && isDigit(this.s.charCodeAt(this.i))) this.i++
  }

  /** At least one digit. */
  private someDigits(): number {
    if (this.i >= this.s.length) return this.i
    if (!isDigit(this.s.charCodeAt(this.i))) return this.i
    this.digits()
    return -1
  }

  private word(w: string): number {
    for (let k = 0; k < w.length; k++, this.i++) {
      if (this.i >= this.s.length) return this.i
      if (this.s.charCodeAt(this.i) !== w.charCodeAt(k)) return this.i
    }
    return -1
  }
}
