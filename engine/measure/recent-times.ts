/**
 * The recent impression and click times of the identities that had more than one of a kind within
 * 10 minutes (the frequency rule, docs/attribution.md §5): an identity alone in its 10 minutes
 * keeps its latest time in its own record (identities.ts) and has no slot here. A slot holds, per
 * kind, the largest times within 10 minutes of the kind's newest, at most the kind's limit of them
 * (the limit is all the rule needs: an impression is beyond it when 30 earlier ones lie in its 10
 * minutes). Slots are let go deterministically, by hit times: when an identity is alone again in
 * its 10 minutes, and, once many slots are held, those whose newest time is 10 minutes or more
 * before the latest hit judged (sweep).
 */

/** A slot's times per kind, ascending. */
export interface Slot {
  owner: number
  imp: number[]
  clk: number[]
}

/** Slots held before the first sweep; later, twice those left by the last one. */
const SWEEP_MIN = 16_384

export class RecentTimes {
  /** Slot i (from 1); null when free. */
  slots: (Slot | null)[] = [null]
  private free: number[] = []
  /** Slots in use. */
  live = 0
  /** A sweep runs when more slots than this are in use. */
  sweepAt = SWEEP_MIN
  /** The time of the latest hit judged, in arrival order. */
  latest = 0

  /** A new slot for `owner` with the given times; its number. */
  open(owner: number, imp: number[], clk: number[]): number {
    const s: Slot = { owner, imp, clk }
    const at = this.free.pop() ?? this.slots.length
    this.slots[at] = s
    this.live++
    return at
  }

  close(at: number): void {
    this.slots[at] = null
    this.free.push(at)
    this.live--
  }

  /**
   * The slots to let go now (their owners' newest times are `windowMs` or more before the latest
   * hit judged), when more than sweepAt are in use; empty otherwise.
   */
  sweep(windowMs: number): number[] {
    if (this.live <= this.sweepAt) return []
    const out: number[] = []
    const before = this.latest - windowMs
    for (let at = 1; at < this.slots.length; at++) {
      const s = this.slots[at]
      if (s && newest(s.imp) <= before && newest(s.clk) <= before) out.push(at)
    }
    this.sweepAt = Math.max(SWEEP_MIN, 2 * (this.live - out.length))
    return out
  }

  /**
   * The state as numbers (a checkpoint): latest, sweepAt, then per slot in use, by owner, the
   * owner, #imp, #clk and the times (slot numbers are not kept: they decide nothing).
   */
  toArray(): Float64Array<ArrayBuffer> {
    const out: number[] = [this.latest, this.sweepAt]
    const used = this.slots.filter((s): s is Slot => s !== null).sort((a, b) => a.owner - b.owner)
    for (const s of used) out.push(s.owner, s.imp.length, s.clk.length, ...s.imp, ...s.clk)
    return Float64Array.from(out)
  }

  /** The state of toArray(); calls `place(owner, slot)` for each slot (renumbered from 1). */
  static fromArray(a: Float64Array, place: (owner: number, slot: number) => void): RecentTimes {
    const r = new RecentTimes()
    if (a.length < 2) return r
    r.latest = a[0]!
    r.sweepAt = a[1]!
    for (let i = 2; i + 3 <= a.length;) {
      const [owner, ni, nc] = [a[i]!, a[i + 1]!, a[i + 2]!]
      const imp = Array.from(a.subarray(i + 3, i + 3 + ni))
      const clk = Array.from(a.subarray(i + 3 + ni, i + 3 + ni + nc))
      if (imp.length !== ni || clk.length !== nc) throw new Error('checkpoint: the recent times are cut short')
      place(owner, r.open(owner, imp, clk))
      i += 3 + ni + nc
    }
    return r
  }
}

/** The largest time of an ascending list (-Infinity for none). */
export const newest = (times: readonly number[]): number => (times.length > 0 ? times[times.length - 1]! : -Infinity)

/**
 * Judges a hit at `ts` against `times` (ascending) and adds it: answers how many of the times lie
 * in the `windowMs` up to and including `ts`. Keeps at most `max` times, the largest, and none
 * `windowMs` or more before the newest.
 */
export function judge(times: number[], ts: number, windowMs: number, max: number): number {
  let inWindow = 0
  let at = times.length
  for (let i = times.length - 1; i >= 0; i--) {
    const t = times[i]!
    if (t > ts) at = i
    else if (t > ts - windowMs) inWindow++
    else break
  }
  times.splice(at, 0, ts)
  if (times.length > max) times.shift()
  const from = newest(times) - windowMs
  let drop = 0
  while (drop < times.length - 1 && times[drop]! <= from) drop++
  if (drop > 0) times.splice(0, drop)
  return inWindow
}

/** Two ascending lists as one (a device merge), kept as judge() keeps one. */
export function mergeTimes(a: readonly number[], b: readonly number[], windowMs: number, max: number): number[] {
  const all = [...a, ...b].sort((x, y) => x - y)
  const kept = all.slice(Math.max(0, all.length - max))
  const from = newest(kept) - windowMs
  return kept.filter((t, i) => t > from || i === kept.length - 1)
}
