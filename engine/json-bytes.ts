/**
 * JSON text written straight into UTF-8 bytes, in pieces of 1 MiB: for answers of tens of
 * megabytes (a basic/show of 64,395 rows is 67 MiB) that would otherwise be built as objects,
 * serialized into one string, and encoded again. Numbers are written as JSON.stringify writes
 * them; anything else goes in as JSON text the caller made (JSON.stringify of a small value).
 */
const PIECE = 1 << 20

const MINUS = 45
const ZERO = 48

export class JsonBytes {
  private readonly done: Uint8Array[] = []
  private buf: Buffer = Buffer.allocUnsafe(PIECE)
  private at = 0

  /** Room for `n` more bytes in the current piece (a new piece when it has not). */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    if (this.at > 0) this.done.push(this.buf.subarray(0, this.at))
    this.buf = Buffer.allocUnsafe(Math.max(PIECE, n))
    this.at = 0
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
    if (this.at > 0) this.done.push(this.buf.subarray(0, this.at))
    this.buf = Buffer.alloc(0)
    this.at = 0
    return this.done
  }
}
