/**
 * First contacts waiting for their cookie check (docs/attribution.md §2, "The cookie check"): a
 * browser without a cookie is sent back to its tag with a new cookie and the marker `amc=V`; the
 * hit is held here as its address identity would count it, and counted so when the browser does
 * not come back within WAIT_MS (clients that do not follow redirects), at its first-leg time.
 */
import type { Hit } from './types'

/** How long a first contact waits for its browser to come back, in ms. */
export const WAIT_MS = 10_000
/** First contacts held at once; past that a first contact is counted at once as its address identity. */
export const MAX_PENDING = 100_000
/** How long a check counted on expiry is remembered, so that its late second leg does not count again. */
export const REMEMBER_MS = 600_000
/** Checks counted on expiry remembered at most (the oldest forgotten first). */
export const MAX_REMEMBERED = 200_000

/** What a second leg's marker names. */
export type Resolution = 'pending' | 'expired' | 'unknown'

/** Calls `fn` every `ms` until the returned function is called (unref'd: it keeps no process alive). */
export type Timer = (fn: () => void, ms: number) => () => void

const unrefInterval: Timer = (fn, ms) => {
  const id = setInterval(fn, ms)
  id.unref()
  return () => clearInterval(id)
}

export interface CookieChecksOptions {
  /** Now, in ms (the engine's clock). */
  now: () => number
  /** Counts hits whose browser did not come back (the ingest's add). */
  count: (hits: Hit[]) => Promise<unknown>
  /** Told when counting expired hits failed (they are lost: the engine's log). */
  failed?: (err: unknown) => void
  timer?: Timer
  waitMs?: number
  maxPending?: number
}

/** A held first contact: the hit as its address identity counts it, and when its check was sent. */
interface Pending {
  hit: Hit
  at: number
}

export class CookieChecks {
  /** By marker value, in the order issued (so the oldest are first). */
  private readonly pending = new Map<string, Pending>()
  /** Marker values counted on expiry -> when, in that order. */
  private readonly expired = new Map<string, number>()
  private stopTimer: (() => void) | null = null
  /** The counting of expired hits under way. */
  private counting: Promise<void> = Promise.resolve()
  /** Counts started and not done. */
  private busy = 0
  private readonly waitMs: number
  private readonly maxPending: number

  constructor(private readonly o: CookieChecksOptions) {
    this.waitMs = o.waitMs ?? WAIT_MS
    this.maxPending = o.maxPending ?? MAX_PENDING
  }

  /** First contacts held now. */
  get size(): number {
    return this.pending.size
  }

  /**
   * Holds `hit` for the check of marker `value` (random, from the caller's ctx.random); false
   * when MAX_PENDING are held already (the caller counts the hit at once) or `value` is held.
   */
  hold(value: string, hit: Hit): boolean {
    if (this.pending.size >= this.maxPending || this.pending.has(value)) return false
    this.pending.set(value, { hit, at: this.o.now() })
    this.stopTimer ??= (this.o.timer ?? unrefInterval)(() => void this.due(), 1_000)
    return true
  }

  /** A second leg's marker: its held hit is dropped (the second leg counts instead), unless counted on expiry already. */
  resolve(value: string): Resolution {
    const r = this.take(value)
    return r === 'expired' || r === null ? (r ?? 'unknown') : 'pending'
  }

  /**
   * A second leg's marker: the hit held for it, dropped here (the second leg counts it, dated at its
   * first leg: it is the same impression), 'expired' when it was counted on expiry, null when unknown.
   */
  take(value: string): Hit | 'expired' | null {
    const p = this.pending.get(value)
    if (p !== undefined) {
      this.pending.delete(value)
      if (this.pending.size === 0) this.stop()
      return p.hit
    }
    return this.expired.has(value) ? 'expired' : null
  }

  /** Counts the held hits whose wait is over: a promise of every count under way, or null when none is. */
  due(): Promise<void> | null {
    // (nothing held, remembered or counting: most hits come from apps and cookie keepers)
    if (this.pending.size === 0 && this.expired.size === 0 && this.busy === 0) return null
    const now = this.o.now()
    let hits: Hit[] | null = null
    for (const [value, p] of this.pending) {
      if (p.at + this.waitMs > now) break
      this.pending.delete(value)
      this.remember(value, now)
      ;(hits ??= []).push(p.hit)
    }
    for (const [value, at] of this.expired) {
      if (at + REMEMBER_MS > now && this.expired.size <= MAX_REMEMBERED) break
      this.expired.delete(value)
    }
    if (this.pending.size === 0) this.stop()
    if (hits !== null) this.enqueue(hits)
    return this.busy > 0 || hits !== null ? this.counting : null
  }

  /** Counts every held hit (the engine closes: they would be lost) and stops the timer. */
  close(): Promise<void> {
    const hits = [...this.pending.values()].map((p) => p.hit)
    this.pending.clear()
    this.stop()
    if (hits.length > 0) this.enqueue(hits)
    return this.counting
  }

  private remember(value: string, now: number): void {
    this.expired.set(value, now)
  }

  /** Counts `hits` after the counts under way (in the order their checks expired). */
  private enqueue(hits: Hit[]): void {
    this.busy++
    this.counting = this.counting.then(() => this.count(hits))
  }

  private async count(hits: Hit[]): Promise<void> {
    try {
      await this.o.count(hits)
    } catch (err) {
      this.o.failed?.(err)
    } finally {
      this.busy--
    }
  }

  private stop(): void {
    this.stopTimer?.()
    this.stopTimer = null
  }
}
