/**
 * Slows down repeated failed logins. Failures are counted per username and per caller address;
 * from the third one on, each further attempt waits 250 ms x 2^(failures-3), at most 8 s,
 * before it is checked. A success clears the username's count; counts fade after 15 minutes.
 */
const WINDOW_MS = 15 * 60 * 1000
const MAX_DELAY_MS = 8000
const MAX_KEYS = 10_000

export class LoginThrottle {
  private failures = new Map<string, { count: number; last: number }>()

  private count(key: string, now: number): number {
    const f = this.failures.get(key)
    if (!f) return 0
    if (now - f.last > WINDOW_MS) {
      this.failures.delete(key)
      return 0
    }
    return f.count
  }

  /** Milliseconds to wait before checking an attempt for these keys. */
  delay(keys: string[], now: number): number {
    const n = Math.max(0, ...keys.map((k) => this.count(k, now)))
    return n < 3 ? 0 : Math.min(MAX_DELAY_MS, 250 * 2 ** (n - 3))
  }

  fail(keys: string[], now: number): void {
    if (this.failures.size > MAX_KEYS) this.failures.clear()
    for (const k of keys) this.failures.set(k, { count: this.count(k, now) + 1, last: now })
  }

  succeed(keys: string[]): void {
    for (const k of keys) this.failures.delete(k)
  }
}
