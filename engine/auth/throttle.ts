/**
 * Slows down repeated failed logins. Failures are counted per username and per caller address;
 * from the third one on, each further attempt waits 250 ms x 2^(failures-3), at most 8 s,
 * before it is checked. A success clears the username's count; counts fade after 15 minutes.
 * After a failure, attempts under way at once count as failures for one another.
 */
const WINDOW_MS = 15 * 60 * 1000
const MAX_DELAY_MS = 8000
const MAX_KEYS = 10_000

export class LoginThrottle {
  private failures = new Map<string, { count: number; last: number }>()
  /** Attempts under way per key: once a key has failed, each one waits as if the others had failed too. */
  private pending = new Map<string, number>()

  private count(key: string, now: number): number {
    const f = this.failures.get(key)
    if (!f) return 0
    if (now - f.last > WINDOW_MS) {
      this.failures.delete(key)
      return 0
    }
    return f.count
  }

  /**
   * Milliseconds to wait before checking an attempt for these keys; the attempt is under way from
   * here until end(). Attempts sent in parallel after a failure wait longer each (they do not all
   * wait as one); without a failure none waits, however many run at once.
   */
  begin(keys: string[], now: number): number {
    const n = Math.max(0, ...keys.map((k) => {
      const failed = this.count(k, now)
      return failed > 0 ? failed + (this.pending.get(k) ?? 0) : 0
    }))
    for (const k of keys) this.pending.set(k, (this.pending.get(k) ?? 0) + 1)
    return n < 3 ? 0 : Math.min(MAX_DELAY_MS, 250 * 2 ** (n - 3))
  }

  /** The attempt begun with these keys is answered. */
  end(keys: string[]): void {
    for (const k of keys) {
      const left = (this.pending.get(k) ?? 1) - 1
      if (left > 0) this.pending.set(k, left)
      else this.pending.delete(k)
    }
  }

  fail(keys: string[], now: number): void {
    for (const k of keys) {
      const count = this.count(k, now) + 1
      this.failures.delete(k) // (kept in order of the last failure: the oldest go first)
      this.failures.set(k, { count, last: now })
    }
    // past the limit the keys failed longest ago are forgotten, not all (a flood of names cleared the owner's count)
    for (const k of this.failures.keys()) {
      if (this.failures.size <= MAX_KEYS) break
      this.failures.delete(k)
    }
  }

  succeed(keys: string[]): void {
    for (const k of keys) this.failures.delete(k)
  }
}
