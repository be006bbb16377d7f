/**
 * JSON text written straight into UTF-8 bytes, in pieces of 1 MiB (the first of 16 KiB): for answers of tens of
 * megabytes (a basic/show of 64,395 rows is 67 MiB) that would otherwise be built as objects,
 * serialized into one string, and encoded again. Numbers are written as JSON.stringify writes
 * them; anything else goes in as JSON text the caller made (JSON.stringify of a small value).
 */
const PIECE = 1 << 20
/**
 * The first piece: an answer whose items are kept text (kept-bytes.ts) writes a few hundred bytes
 * of its own around views on that text, and a piece of PIECE for them would be a mebibyte of
 * garbage for each such answer.
 */
const FIRST_PIECE = 16 << 10
/** Shared ranges shorter than this are copied (a piece costs a write call of the HTTP door). */
const SHARE_MIN = 16 << 10

const MINUS = 45
const ZERO = 48

export class JsonBytes {
  private readonly done: Uint8Array[] = []
  private buf: Buffer = Buffer.allocUnsafe(FIRST_PIECE)
  private at = 0
  /** Where the bytes of buf not yet in `done` start. */
  private from = 0
  /** The last shared range, after everything else written (it may go on); see share(). */
  private shared: Uint8Array | null = null
  private sharedStart = 0
  private sharedEnd = 0

  /** Room for `n` more bytes in the current piece (a new piece when it has not). */
  private room(n: number): void {
    if (this.shared) this.settle()
    if (this.at + n <= this.buf.length) return
    this.flush()
    this.buf = Buffer.allocUnsafe(Math.max(PIECE, n))
    this.at = 0
    this.from = 0
  }

  /** The bytes written since the last piece, as a piece. */
  private flush(): void {
    if (this.at > this.from) this.done.push(this.buf.subarray(this.from, this.at))
    this.from = this.at
  }

  /** The shared range in its place: a piece of its own when long, else copied. */
  private settle(): void {
    const src = this.shared!
    this.shared = null
    const n = this.sharedEnd - this.sharedStart
    if (n >= SHARE_MIN) {
      this.flush()
      this.done.push(src.subarray(this.sharedStart, this.sharedEnd))
      return
    }
    this.room(n)
    this.buf.set(src.subarray(this.sharedStart, this.sharedEnd), this.at)
    this.at += n
  }

  /**
   * The bytes `[start, end)` of `src`, which must never change there (kept text, kept-bytes.ts).
   * A range that goes on where the previous one ended lengthens it; one of SHARE_MIN bytes or
   * more becomes a piece of its own, not copied, and a shorter one is copied.
   */
  share(src: Uint8Array, start: number, end: number): void {
    if (end <= start) return
    if (this.shared === src && this.sharedEnd === start) {
      this.sharedEnd = end
      return
    }
    if (this.shared) this.settle()
    this.shared = src
    this.sharedStart = start
    this.sharedEnd = end
  }

  /**
   * Forgets what was written and writes again from the start of a piece (a scratch writer whose
   * bytes were copied elsewhere): views given before must not be read after.
   */
  discard(): void {
    this.done.length = 0
    this.shared = null
    if (this.buf.length > PIECE) this.buf = Buffer.allocUnsafe(PIECE)
    this.at = 0
    this.from = 0
  }

  /** JSON text (or any text) as UTF-8. */
  text(s: string): void {
    // at most three bytes per UTF-16 unit (a surrogate pair is four bytes for two units)
    this.room(s.length * 3)
    this.at += this.buf.write(s, this.at, 'utf8')
  }

  /** Bytes as they are (prepared JSON text, such as a member name with its colon). */
  bytes(b: Uint8Array): void {
    this.room(b.length)
    this.buf.set(b, this.at)
    this.at += b.length
  }

  /**
   * Runs `write` with room for `n` bytes made first, and gives back what it wrote (a view, valid
   * until the next write), or null when it wrote more than `n` and went on in a new piece.
   */
  block(n: number, write: () => void): Uint8Array | null {
    this.room(n)
    const buf = this.buf
    const from = this.at
    write()
    return this.buf === buf ? buf.subarray(from, this.at) : null
  }

  /** One ASCII character, by its code. */
  char(code: number): void {
    this.room(1)
    this.buf[this.at++] = code
  }

  /** A number as JSON.stringify writes it: null for null, NaN and the infinities. */
  number(v: number | null): void {
    if (v === null || !Number.isFinite(v)) return this.text('null')
    if (!Number.isSafeInteger(v)) return this.text(String(v))
    // an integer: its digits (-0 is written 0, as JSON.stringify does)
    this.room(17)
    let n = v
    if (n < 0) (this.buf[this.at++] = MINUS), (n = -n)
    let digits = 1
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++
    for (let i = this.at + digits - 1; i >= this.at; i--) {
      this.buf[i] = ZERO + (n % 10)
      n = Math.floor(n / 10)
    }
    this.at += digits
  }

  /** The bytes written, in order. */
  finish(): Uint8Array[] {
    if (this.shared) this.settle()
    this.flush()
    this.buf = Buffer.alloc(0)
    this.at = 0
    this.from = 0
    return this.done
  }
}
