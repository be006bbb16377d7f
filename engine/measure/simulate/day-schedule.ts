/**
 * One simulated day: its hours in the engine time zone, each spot's impressions and clicks spread
 * over them along the hour-of-day curve, and the bursts (abnormal frequency) carved out of them.
 */
import { localDayHour, utcOfWall, zoneOffset } from '../../time-zone'
import type { SimRandom } from './random'
import type { Audience } from './audience'
import * as d from './distributions'
import type { SpotVolume } from './types'
import { firstAbove } from '../search'

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

/** An hour of the local day: [start, end) in ms UTC and its local hour. */
export interface HourSlot {
  start: number
  end: number
  hour: number
}

/** A run of impressions of one spot by one client: size hits from `start`, `gap` ms apart. */
export interface Burst {
  slot: number
  spot: number
  identity: number
  size: number
  start: number
  gap: number
}

/** What one day of the simulation holds, before its hits are drawn. */
export interface DaySchedule {
  slots: HourSlot[]
  /** Impressions outside bursts and clicks of spot s in slot h, at [s * slots.length + h]. */
  impressions: Int32Array
  clicks: Int32Array
  /** Ordered by slot, then spot. */
  bursts: Burst[]
}

/** The instant local midnight begins day `day` (days since 1970-01-01) in `timeZone`. */
export function localMidnight(timeZone: string, day: number): number {
  return utcOfWall(day * DAY_MS, (ms) => zoneOffset(timeZone, ms))
}

/** The hours of a local day (23 to 25 of them where the zone changes its offset). */
export function daySlots(timeZone: string, day: number): HourSlot[] {
  const end = localMidnight(timeZone, day + 1)
  const slots: HourSlot[] = []
  for (let t = localMidnight(timeZone, day); t < end; t += HOUR_MS) {
    slots.push({ start: t, end: Math.min(t + HOUR_MS, end), hour: localDayHour(timeZone, t).hour })
  }
  return slots
}

/**
 * `total` split in proportion to `weights`, written at out[offset..]: each part gets the whole
 * of its exact share, and the units left go by systematic sampling from a random start `u`
 * (in [0, 1)) over the fractions, so every part gets its exact share on average and the total is
 * exact.
 */
export function allocate(total: number, weights: ArrayLike<number>, out: Int32Array, offset: number, u: number): void {
  const n = weights.length
  let sum = 0
  for (let i = 0; i < n; i++) sum += weights[i]!
  if (total === 0 || sum <= 0) return
  let given = 0
  for (let i = 0; i < n; i++) {
    const whole = Math.floor((total * weights[i]!) / sum)
    out[offset + i] = whole
    given += whole
  }
  // the fractions add up to total - given: unit k goes to the part whose fraction covers u + k
  let at = 0
  let next = u
  for (let i = 0; i < n && given < total; i++) {
    at += (total * weights[i]!) / sum - Math.floor((total * weights[i]!) / sum)
    while (next < at && given < total) (out[offset + i]! += 1, next += 1, given++)
  }
  for (let i = n - 1; given < total; i = (i + n - 1) % n) if (weights[i]! > 0) (out[offset + i]! += 1, given++) // float rounding
}

/** Spreads each spot's impressions over the hours (curve × noise) and its clicks like its impressions. */
function spreadSpots(spots: readonly SpotVolume[], dayIndex: number, slots: readonly HourSlot[], rng: SimRandom): { impressions: Int32Array; clicks: Int32Array } {
  const h = slots.length
  const impressions = new Int32Array(spots.length * h)
  const clicks = new Int32Array(spots.length * h)
  const weights = new Float64Array(h)
  spots.forEach((v, s) => {
    const imp = v.impressions[dayIndex]!
    if (imp === 0) return
    for (let k = 0; k < h; k++) {
      const slot = slots[k]!
      weights[k] = d.HOUR_WEIGHTS[slot.hour]! * ((slot.end - slot.start) / HOUR_MS) * (1 + d.HOUR_NOISE * (2 * rng.next() - 1))
    }
    allocate(imp, weights, impressions, s * h, rng.next())
    allocate(v.clicks[dayIndex]!, impressions.subarray(s * h, s * h + h), clicks, s * h, rng.next())
  })
  return { impressions, clicks }
}

/** Index drawn in proportion to `weights` for a uniform `u` (linear: a day has about 24 hours). */
function pickWeighted(weights: Int32Array, u: number): number {
  let sum = 0
  for (let k = 0; k < weights.length; k++) sum += weights[k]!
  let x = u * sum
  for (let k = 0; k < weights.length; k++) {
    x -= weights[k]!
    if (x < 0) return k
  }
  return weights.length - 1
}

/** Bursts of the day: about BURST_SHARE of its emitted impressions, on spots by their volume. */
function scheduleBursts(spots: readonly SpotVolume[], dayIndex: number, sched: Omit<DaySchedule, 'bursts'>, rng: SimRandom, audience: Audience): Burst[] {
  const cum = new Float64Array(spots.length)
  let total = 0
  spots.forEach((v, s) => (cum[s] = total += v.emitsImpressions ? v.impressions[dayIndex]! : 0))
  if (total < d.BURST_MIN_DAY) return []
  const h = sched.slots.length
  const count = Math.max(1, Math.round((total * d.BURST_SHARE) / ((d.BURST_MIN + d.BURST_MAX) / 2)))
  const bursts: Burst[] = []
  for (let b = 0; b < count; b++) {
    const size = d.BURST_MIN + (rng.u32() % (d.BURST_MAX - d.BURST_MIN + 1))
    const spot = firstAbove(cum, rng.next() * total)
    const row = sched.impressions.subarray(spot * h, spot * h + h)
    const slot = pickWeighted(row, rng.next())
    const s = sched.slots[slot]!
    const window = d.BURST_WINDOW_MIN_MS + rng.next() * (d.BURST_WINDOW_MAX_MS - d.BURST_WINDOW_MIN_MS)
    if (row[slot]! < 2 * size || s.end - s.start <= window) continue
    row[slot] = row[slot]! - size
    const start = s.start + Math.floor(rng.next() * (s.end - s.start - window))
    bursts.push({ slot, spot, identity: audience.pickRegular(rng, spots[spot]!.mobileShare, spots[spot]!.profile), size, start, gap: window / (size - 1) })
  }
  return bursts.sort((a, b) => a.slot - b.slot || a.spot - b.spot)
}

/** The schedule of day `dayIndex` of the plan. */
export function scheduleDay(spots: readonly SpotVolume[], dayIndex: number, slots: HourSlot[], rng: SimRandom, audience: Audience): DaySchedule {
  const spread = spreadSpots(spots, dayIndex, slots, rng)
  const sched = { slots, ...spread }
  return { ...sched, bursts: scheduleBursts(spots, dayIndex, sched, rng, audience) }
}
